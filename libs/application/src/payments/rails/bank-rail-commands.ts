import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { notFound } from '#domain/errors.js';
import type { EventMetadata } from '#event-store/event-store.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { CommandContext } from '../../command-context.js';
import { READ_MODELS, type Actor } from '../../tokens.js';
import { BankCredits } from './bank-credits.js';
import { exceptionView, railState } from './bank-rail-queries.js';

export class AssignBankCreditCommand {
  constructor(
    readonly currency: string,
    readonly creditId: string,
    readonly accountId: string,
    readonly actor: Actor,
  ) {}
}

export class ReturnBankCreditCommand {
  constructor(
    readonly currency: string,
    readonly creditId: string,
    readonly actor: Actor,
  ) {}
}

/** An operator's action on a credit held in suspense, answered with the credit as the exceptions list shows it. */
@Injectable()
abstract class BankCreditAction {
  protected readonly credits: BankCredits;

  constructor(
    protected readonly ctx: CommandContext,
    @Inject(READ_MODELS) readModels: ReadModelStore,
  ) {
    this.credits = new BankCredits(ctx.runner, ctx.clocks, readModels);
  }

  protected async act(
    { currency, creditId, actor }: { currency: string; creditId: string; actor: Actor },
    action: (metadata: EventMetadata) => Promise<unknown>,
  ): Promise<Record<string, unknown>> {
    await railState(this.ctx.runner, actor.platformId, currency);
    await action({ ...actor });
    const state = await railState(this.ctx.runner, actor.platformId, currency);
    const exception = state.exceptions.get(creditId);
    if (!exception) throw notFound('BANK_CREDIT', creditId);
    return exceptionView(exception);
  }
}

/** An operator gives a credit held in suspense to a customer account: the money moves out of suspense into it. */
@CommandHandler(AssignBankCreditCommand)
export class AssignBankCreditHandler
  extends BankCreditAction
  implements ICommandHandler<AssignBankCreditCommand, Record<string, unknown>>
{
  execute(cmd: AssignBankCreditCommand) {
    const { currency, creditId, accountId, actor } = cmd;
    return this.act(cmd, (metadata) => this.credits.assign(actor.platformId, currency, creditId, accountId, metadata));
  }
}

/** An operator sends a credit held in suspense back to its payer (a credit transfer on the rail's next file). */
@CommandHandler(ReturnBankCreditCommand)
export class ReturnBankCreditHandler
  extends BankCreditAction
  implements ICommandHandler<ReturnBankCreditCommand, Record<string, unknown>>
{
  execute(cmd: ReturnBankCreditCommand) {
    const { currency, creditId, actor } = cmd;
    return this.act(cmd, (metadata) => this.credits.sendBack(actor.platformId, currency, creditId, metadata));
  }
}
