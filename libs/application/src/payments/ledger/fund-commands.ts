import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { customerDecider } from '#domain/customers/customer.js';
import { DomainError, conflict, notFound } from '#domain/errors.js';
import { publicId, streams, uuidOf } from '#domain/primitives.js';
import { ledgerDecider } from '#domain/ledger/ledger.js';
import type { InternalAccountDoc } from '#read-models/projections/internal-account-docs.js';
import { Collections } from '#read-models/projections/collections.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { CommandContext } from '../../command-context.js';
import { CommandRunner } from '../../command-runner.js';
import { READ_MODELS, type Actor } from '../../tokens.js';
import { platformAsCreated } from '../../platforms/platform-config.js';
import { effectId } from '../../idempotency/effect-ids.js';

export class FundInternalAccountCommand {
  constructor(
    readonly accountId: string,
    readonly amount: bigint,
    readonly actor: Actor,
  ) {}
}

/** The platform's sandbox check: sandbox endpoints never touch a production platform (see platformAsCreated). */
export async function requireSandbox(runner: CommandRunner, actor: Actor) {
  const state = await platformAsCreated(runner, actor.platformId);
  if (!state.sandbox)
    throw new DomainError('forbidden', 'FORBIDDEN', 'sandbox endpoints are only available to sandbox platforms');
  return state;
}

/**
 * Sandbox funding: a balanced ledger transfer from the platform's settlement account in the
 * account's currency to the internal account.
 */
@CommandHandler(FundInternalAccountCommand)
export class FundInternalAccountHandler implements ICommandHandler<FundInternalAccountCommand, string> {
  constructor(
    private readonly ctx: CommandContext,
    @Inject(READ_MODELS) private readonly readModels: ReadModelStore,
  ) {}

  async execute({ accountId, amount, actor }: FundInternalAccountCommand) {
    const platform = await requireSandbox(this.ctx.runner, actor);
    if (!uuidOf('InternalAccount', accountId)) throw notFound('INTERNAL_ACCOUNT', accountId);
    // Only to find the account's customer.
    const doc = await this.readModels.get<InternalAccountDoc>(Collections.internalAccounts, accountId);
    if (!doc || doc.platformId !== actor.platformId) throw notFound('INTERNAL_ACCOUNT', accountId);
    if (!doc.customerId)
      throw new DomainError(
        'invalid',
        'INVALID_INPUT',
        'platform settlement accounts cannot be funded; fund a customer account',
      );
    // The account's status comes from its source of truth, not the read model.
    const { state: customer } = await this.ctx.runner.load(streams.customer(doc.customerId), customerDecider);
    const account = customer.accounts.get(accountId);
    if (!account) throw notFound('INTERNAL_ACCOUNT', accountId);
    if (account.status !== 'ACTIVE')
      throw conflict('ACCOUNT_NOT_ACTIVE', `account ${accountId} is ${account.status} and cannot receive funds`);
    const settlement = platform.settlementAccounts.get(account.currency);
    if (!settlement)
      throw new DomainError('invalid', 'UNSUPPORTED_CURRENCY', `no settlement account in ${account.currency}`);
    const transferId = publicId('Transfer', effectId(actor, this.ctx.ids));
    await this.ctx.runner.run(
      streams.ledger(actor.platformId),
      ledgerDecider,
      {
        type: 'CreateTransfer',
        id: transferId,
        debit: { id: settlement, currency: account.currency, allowNegative: true },
        credit: { id: accountId, currency: account.currency, allowNegative: false },
        amount,
        code: 'SANDBOX_FUNDING',
        now: (await this.ctx.now(actor.platformId)).toISOString(),
      },
      { metadata: { ...actor } },
    );
    return transferId;
  }
}
