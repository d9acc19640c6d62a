import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { externalAccountKey } from '#domain/claims/claim.js';
import { notFound } from '#domain/errors.js';
import { beneficiaryName } from '#domain/external-accounts/account-info-view.js';
import { validateAccountInfo } from '#domain/external-accounts/account-validation.js';
import { sandboxBeneficiaryCheck, type BeneficiaryCheck } from '#domain/external-accounts/beneficiary-check.js';
import { externalAccountDecider, type ExistingExternalAccount } from '#domain/external-accounts/external-account.js';
import { publicId, requireCurrencyCode, streams } from '#domain/primitives.js';
import { platformDecider } from '#domain/platforms/platform.js';
import { Collections } from '#read-models/projections/collections.js';
import type { ExternalAccountDoc } from '#read-models/projections/external-accounts/external-account-projection.js';
import type { Filter, ReadModelStore } from '#read-models/read-model-store.js';
import { CommandContext } from '../command-context.js';
import { IdentityClaims } from '../claims/identity-claims.js';
import { CommandRunner } from '../command-runner.js';
import { loadOwnCustomer } from '../customers/customer-commands.js';
import { READ_MODELS, type Actor } from '../tokens.js';
import { externalAccountStream, loadExternalAccount } from '../payments/transactions/payment-accounts.js';
import { effectId } from '../idempotency/effect-ids.js';

/** Customer external accounts and the platform's own live under separate paths; each path sees only its kind. */
export type ExternalAccountOwner = 'customer' | 'platform';

export interface NewExternalAccount {
  customerId?: string;
  currency: string;
  platformAccountId?: string;
  defaultUmaDepositAccount?: boolean;
  accountInfo: Record<string, unknown>;
  directDebitMandate?: { mandateId: string; signedOn: string };
}

export class CreateExternalAccountCommand {
  constructor(
    readonly owner: ExternalAccountOwner,
    readonly input: NewExternalAccount,
    readonly actor: Actor,
  ) {}
}
export class DeleteExternalAccountCommand {
  constructor(
    readonly owner: ExternalAccountOwner,
    readonly id: string,
    readonly actor: Actor,
  ) {}
}

/** An external account of this platform seen through one path: the other kind answers 404. */
export async function loadScopedExternalAccount(
  runner: CommandRunner,
  id: string,
  owner: ExternalAccountOwner,
  platformId: string,
): Promise<ExistingExternalAccount> {
  const state = await loadExternalAccount(runner, id, platformId);
  if ((owner === 'customer') !== Boolean(state.customerId)) throw notFound('EXTERNAL_ACCOUNT', id);
  return state;
}

const ownerFilter = (customerId: string | undefined): Filter =>
  customerId
    ? { field: 'customerId', op: 'eq', value: customerId }
    : { field: 'customerId', op: 'exists', value: false };

@CommandHandler(CreateExternalAccountCommand)
export class CreateExternalAccountHandler implements ICommandHandler<CreateExternalAccountCommand, string> {
  constructor(
    private readonly ctx: CommandContext,
    private readonly claims: IdentityClaims,
    @Inject(READ_MODELS) private readonly readModels: ReadModelStore,
  ) {}

  async execute({ owner, input, actor }: CreateExternalAccountCommand) {
    requireCurrencyCode(input.currency, 'currency');
    const { accountInfo, primaryIdentifier } = validateAccountInfo(input.accountInfo, input.currency);
    const { state: platform } = await this.ctx.runner.load(streams.platform(actor.platformId), platformDecider);
    let holderName: string | undefined;
    // Without customerId the account is the platform's own, on either path.
    if (owner === 'customer' && input.customerId) {
      const customer = await loadOwnCustomer(this.ctx.runner, input.customerId, actor);
      if (customer.isDeleted) throw notFound('CUSTOMER', input.customerId);
      holderName = customer.profile.fullName ?? customer.profile.businessInfo?.legalName;
    } else {
      holderName = platform.name;
    }
    const customerId = owner === 'customer' ? input.customerId : undefined;
    const submittedName = beneficiaryName(accountInfo);
    // Without a verification provider (production here) the name check stays PENDING.
    const check: BeneficiaryCheck = platform.sandbox
      ? sandboxBeneficiaryCheck(primaryIdentifier, submittedName ?? holderName)
      : { status: 'PENDING' };
    const id = publicId('ExternalAccount', effectId(actor, this.ctx.ids));
    const now = (await this.ctx.now(actor.platformId)).toISOString();
    const makeDefault = input.defaultUmaDepositAccount ?? false;
    const platformAccountId =
      input.platformAccountId ??
      (typeof accountInfo.platformAccountId === 'string' ? accountInfo.platformAccountId : undefined);
    // One account per owner and primary identifier: claimed before it is created (none to claim without one).
    const keys = primaryIdentifier
      ? [externalAccountKey(actor.platformId, customerId, accountInfo.accountType, primaryIdentifier)]
      : [];
    await this.claims.holding(keys, { id, stream: externalAccountStream(id) }, actor, () =>
      this.ctx.runner.run(
        externalAccountStream(id),
        externalAccountDecider,
        {
          type: 'CreateExternalAccount',
          id,
          platformId: actor.platformId,
          ...(customerId ? { customerId } : {}),
          currency: input.currency,
          accountInfo,
          primaryIdentifier,
          ...(platformAccountId !== undefined ? { platformAccountId } : {}),
          defaultUmaDepositAccount: makeDefault,
          ...(input.directDebitMandate ? { directDebitMandate: { ...input.directDebitMandate } } : {}),
          beneficiaryVerificationStatus: check.status,
          ...(check.verifiedData ? { beneficiaryVerifiedData: check.verifiedData } : {}),
          now,
        },
        { metadata: { ...actor } },
      ),
    );
    if (makeDefault) await this.unsetOtherDefaults(id, actor, customerId, input.currency, now);
    return id;
  }

  /** One default UMA deposit account per owner and currency: the newest wins. */
  private async unsetOtherDefaults(
    newId: string,
    actor: Actor,
    customerId: string | undefined,
    code: string,
    now: string,
  ) {
    const others = await this.readModels.find<ExternalAccountDoc>(Collections.externalAccounts, {
      filters: [
        { field: 'platformId', op: 'eq', value: actor.platformId },
        ownerFilter(customerId),
        { field: 'currency', op: 'eq', value: code },
        { field: 'status', op: 'eq', value: 'ACTIVE' },
        { field: 'defaultUmaDepositAccount', op: 'eq', value: true },
        { field: 'id', op: 'ne', value: newId },
      ],
      sortOrder: 'asc',
      limit: 100,
    });
    for (const other of others.data) {
      await this.ctx.runner.run(
        streams.externalAccount(other.id),
        externalAccountDecider,
        { type: 'SetDefaultUmaDepositAccount', value: false, now },
        { metadata: { ...actor } },
      );
    }
  }
}

@CommandHandler(DeleteExternalAccountCommand)
export class DeleteExternalAccountHandler implements ICommandHandler<DeleteExternalAccountCommand> {
  constructor(
    private readonly ctx: CommandContext,
    private readonly claims: IdentityClaims,
  ) {}

  async execute({ owner, id, actor }: DeleteExternalAccountCommand) {
    const account = await loadScopedExternalAccount(this.ctx.runner, id, owner, actor.platformId);
    await this.ctx.runner.run(
      externalAccountStream(id),
      externalAccountDecider,
      { type: 'DeleteExternalAccount', now: (await this.ctx.now(actor.platformId)).toISOString() },
      { metadata: { ...actor } },
    );
    // After the delete: a crash in between leaves the key with a deleted account, which anyone may take.
    // The key is the one claimed at creation: the stored (possibly retired) type name.
    if (!account.primaryIdentifier) return;
    const key = externalAccountKey(
      actor.platformId,
      account.customerId,
      account.accountInfo.accountType,
      account.primaryIdentifier,
    );
    await this.claims.release([key], id, actor);
  }
}
