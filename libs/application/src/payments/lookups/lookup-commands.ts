import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, invalid, notFound } from '#domain/errors.js';
import { compact, currency, isPublicId, publicId } from '#domain/primitives.js';
import {
  LOOKUP_TTL_MS,
  currencyPreferences,
  isLookupExpired,
  lookupDecider,
  lookupStream,
  parseSandboxUmaAddress,
  requireOtherReceiver,
  requiredPayerDataFieldsFor,
  type LookupRecord,
} from '#domain/payments/lookups/lookup.js';
import { UMA_RAIL, networkRail } from '#domain/payments/rates/rate-table.js';
import { Collections } from '#read-models/projections/collections.js';
import type { Doc, ReadModelStore } from '#read-models/read-model-store.js';
import { firstForPlatform } from '../../queries/list-query.js';
import { CommandRunner } from '../../command-runner.js';
import { READ_MODELS, type Actor } from '../../tokens.js';
import { isSandboxPlatform } from '../../platforms/platform-config.js';
import { loadLiveExternalAccount } from '../transactions/payment-accounts.js';
import { CommandContext } from '../../command-context.js';
import { effectId } from '../../idempotency/effect-ids.js';

/** Who is sending (`?customerId` and/or `?senderUmaAddress`); both optional. */
export interface LookupSender {
  customerId?: string;
  senderUmaAddress?: string;
}

export class LookupUmaReceiverCommand {
  constructor(
    readonly receiverUmaAddress: string,
    readonly actor: Actor,
    readonly sender: LookupSender = {},
  ) {}
}
export class LookupExternalAccountReceiverCommand {
  constructor(
    readonly accountId: string,
    readonly actor: Actor,
    readonly sender: LookupSender = {},
  ) {}
}

/** The rail a lookup's receiver is paid on. */
const railOf = (lookup: LookupRecord, code: string) => (lookup.kind === 'UMA_ADDRESS' ? UMA_RAIL : networkRail(code));

/** The Lookup resource (`lookupId`; `id` is the same value, kept for earlier clients). */
export function toLookupResource(lookup: LookupRecord): Record<string, unknown> {
  const preferences =
    lookup.currencyPreferences ??
    lookup.supportedCurrencies.flatMap((code) => currencyPreferences('USD', [code], railOf(lookup, code)));
  return compact({
    lookupId: lookup.id,
    id: lookup.id,
    receiverUmaAddress: lookup.receiverUmaAddress,
    accountId: lookup.accountId,
    supportedCurrencies: preferences.map((p) => ({
      currency: currency(p.code),
      estimatedExchangeRate: p.estimatedExchangeRate,
      min: Number(p.min),
      max: Number(p.max),
    })),
    requiredPayerDataFields: lookup.requiredPayerDataFields.map((name) => ({ name, mandatory: true })),
    counterpartyInformation: lookup.counterpartyInformation,
    senderCustomerId: lookup.senderCustomerId,
    senderUmaAddress: lookup.senderUmaAddress,
    createdAt: lookup.createdAt,
    expiresAt: lookup.expiresAt,
  });
}

/** A stored lookup of this platform that has not expired. */
export async function loadLiveLookup(
  runner: CommandRunner,
  lookupId: string,
  platformId: string,
  now: Date,
): Promise<LookupRecord> {
  // The public API's code for an unknown lookup.
  if (!isPublicId('Lookup', lookupId)) throw notFound('LOOKUP_REQUEST', lookupId);
  const { state } = await runner.load(lookupStream(lookupId), lookupDecider);
  if (!state.lookup || state.lookup.platformId !== platformId) throw notFound('LOOKUP_REQUEST', lookupId);
  if (isLookupExpired(state.lookup, now)) {
    throw new DomainError(
      'invalid',
      'LOOKUP_EXPIRED',
      `lookup ${lookupId} expired at ${state.lookup.expiresAt}; look the receiver up again`,
      {
        errors: [{ field: 'lookupId', constraint: 'LOOKUP_EXPIRED', message: 'the lookup has expired' }],
      },
    );
  }
  return state.lookup;
}

type CustomerDoc = Doc & { umaAddress?: string; currencies?: string[]; isDeleted?: boolean };

@Injectable()
abstract class LookupHandler {
  constructor(
    protected readonly ctx: CommandContext,
    @Inject(READ_MODELS) protected readonly readModels: ReadModelStore,
  ) {}

  private async customerById(customerId: string, platformId: string): Promise<CustomerDoc> {
    const doc = isPublicId('Customer', customerId)
      ? await this.readModels.get<CustomerDoc>(Collections.customers, customerId)
      : undefined;
    if (!doc || doc.platformId !== platformId || doc.isDeleted) throw notFound('CUSTOMER', customerId);
    return doc;
  }

  private async customerByUma(address: string, platformId: string): Promise<CustomerDoc | undefined> {
    return firstForPlatform<CustomerDoc>(this.readModels, Collections.customers, platformId, [
      { field: 'umaAddress', op: 'eq', value: address },
      { field: 'isDeleted', op: 'eq', value: false },
    ]);
  }

  /**
   * The sender: the customer named by `customerId`, or the platform's customer holding `senderUmaAddress` (an
   * address of another institution is kept as given). Its first currency prices the estimates (USD otherwise).
   */
  protected async sender(
    sender: LookupSender,
    platformId: string,
  ): Promise<{ fields: Pick<LookupRecord, 'senderCustomerId' | 'senderUmaAddress'>; currency: string; uma?: string }> {
    const byId = sender.customerId ? await this.customerById(sender.customerId, platformId) : undefined;
    const byUma = sender.senderUmaAddress ? await this.customerByUma(sender.senderUmaAddress, platformId) : undefined;
    if (byId && byUma && byId.id !== byUma.id)
      throw invalid(
        'INVALID_INPUT',
        'senderUmaAddress belongs to another customer than customerId',
        'senderUmaAddress',
      );
    const customer = byId ?? byUma;
    return {
      fields: compact({ senderCustomerId: customer?.id, senderUmaAddress: sender.senderUmaAddress }),
      currency: customer?.currencies?.[0] ?? 'USD',
      uma: customer?.umaAddress,
    };
  }

  protected async store(
    actor: Actor,
    fields: Omit<LookupRecord, 'id' | 'platformId' | 'createdAt' | 'expiresAt'>,
  ): Promise<LookupRecord> {
    const now = await this.ctx.clocks.now(actor.platformId);
    const lookup: LookupRecord = {
      id: publicId('Lookup', effectId(actor, this.ctx.ids)),
      platformId: actor.platformId,
      ...fields,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + LOOKUP_TTL_MS).toISOString(),
    };
    await this.ctx.runner.run(
      lookupStream(lookup.id),
      lookupDecider,
      { type: 'CreateLookup', lookup },
      { metadata: { ...actor }, answersAfter: 'append' },
    );
    return lookup;
  }
}

/**
 * Looks up a UMA receiver. The sandbox knows the receivers `$success.<USD|EUR|MXN>@<domain>`,
 * `$pending.long.<currency>@<domain>` and `$fail.compliance.<currency>@<domain>`; any other
 * address (and every address outside the sandbox, which has no UMA network) is not found.
 */
@CommandHandler(LookupUmaReceiverCommand)
export class LookupUmaReceiverHandler
  extends LookupHandler
  implements ICommandHandler<LookupUmaReceiverCommand, LookupRecord>
{
  async execute({ receiverUmaAddress, actor, sender }: LookupUmaReceiverCommand) {
    const from = await this.sender(sender ?? {}, actor.platformId);
    requireOtherReceiver(receiverUmaAddress, [from.uma, from.fields.senderUmaAddress]);
    const parsed = parseSandboxUmaAddress(receiverUmaAddress);
    // The public API's code: the address is well formed but no receiver answers at it.
    if (!parsed || !(await isSandboxPlatform(this.ctx.runner, actor.platformId)))
      throw new DomainError('not_found', 'UMA_NOT_FOUND', `no receiver at ${receiverUmaAddress}`);
    return this.store(actor, {
      kind: 'UMA_ADDRESS',
      receiverUmaAddress,
      supportedCurrencies: [parsed.currency],
      requiredPayerDataFields: requiredPayerDataFieldsFor(parsed.currency),
      counterpartyInformation: { FULL_NAME: `Sandbox Receiver ${parsed.currency}` },
      sandboxOutcome: parsed.outcome,
      ...from.fields,
      currencyPreferences: currencyPreferences(from.currency, [parsed.currency], UMA_RAIL),
    });
  }
}

/** Looks up an external account of this platform as a receiver. */
@CommandHandler(LookupExternalAccountReceiverCommand)
export class LookupExternalAccountReceiverHandler
  extends LookupHandler
  implements ICommandHandler<LookupExternalAccountReceiverCommand, LookupRecord>
{
  async execute({ accountId, actor, sender }: LookupExternalAccountReceiverCommand) {
    const account = await loadLiveExternalAccount(this.ctx.runner, accountId, actor.platformId);
    const from = await this.sender(sender ?? {}, actor.platformId);
    const name = account.beneficiaryVerifiedData?.fullName ?? account.beneficiary?.fullName;
    return this.store(actor, {
      kind: 'EXTERNAL_ACCOUNT',
      accountId,
      supportedCurrencies: [account.currency],
      requiredPayerDataFields: requiredPayerDataFieldsFor(account.currency),
      counterpartyInformation: name ? { FULL_NAME: name } : {},
      ...from.fields,
      currencyPreferences: currencyPreferences(from.currency, [account.currency], networkRail(account.currency)),
    });
  }
}
