import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { notFound } from '#domain/errors.js';
import { streams } from '#domain/ids.js';
import { requireCurrencyCode } from '#domain/money.js';
import { bankRailDecider } from '#domain/payments/rails/bank-rail-stream.js';
import { railFor } from '#domain/payments/rails/bank-rails.js';
import { platformDecider } from '#domain/platforms/platform.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { CommandContext } from '../../command-context.js';
import { READ_MODELS, type Actor } from '../../tokens.js';
import { BankCredits } from './bank-credits.js';
import { exceptionView } from './bank-rail-queries.js';

export class AssignBankCreditCommand {
  constructor(
    readonly currency: string,
    readonly creditId: string,
    readonly accountId: string,
    readonly actor: Actor,
  ) {}
}

/** An operator gives a credit held in suspense to a customer account: the money moves out of suspense into it. */
@CommandHandler(AssignBankCreditCommand)
export class AssignBankCreditHandler implements ICommandHandler<AssignBankCreditCommand, Record<string, unknown>> {
  private readonly credits: BankCredits;

  constructor(
    private readonly ctx: CommandContext,
    @Inject(READ_MODELS) readModels: ReadModelStore,
  ) {
    this.credits = new BankCredits(ctx.runner, ctx.clocks, readModels);
  }

  async execute({ currency, creditId, accountId, actor }: AssignBankCreditCommand) {
    requireCurrencyCode(currency, 'currency');
    const { state: platform } = await this.ctx.runner.load(streams.platform(actor.platformId), platformDecider);
    if (!railFor(platform.rails, currency)) throw notFound('BANK_RAIL', currency);
    await this.credits.assign(actor.platformId, currency, creditId, accountId, { ...actor });
    const { state } = await this.ctx.runner.load(streams.bankRail(actor.platformId, currency), bankRailDecider);
    const exception = state.exceptions.get(creditId);
    if (!exception) throw notFound('BANK_CREDIT', creditId);
    return exceptionView(exception);
  }
}
