import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, notFound } from '#domain/errors.js';
import { isPublicId, publicId, type IdGenerator } from '#domain/ids.js';
import {
  LOOKUP_TTL_MS,
  isLookupExpired,
  lookupDecider,
  lookupStream,
  parseSandboxUmaAddress,
  requiredPayerDataFieldsFor,
  type LookupRecord,
} from '#domain/lookups/lookup.js';
import { currency } from '#domain/money.js';
import { compact } from '#domain/transactions/transaction-view.js';
import { CommandRunner } from '../command-runner.js';
import { IDS, type Actor } from '../tokens.js';
import { isSandboxPlatform, loadLiveExternalAccount } from '../transactions/accounts.js';
import { PlatformClocks } from '../platforms/platform-clocks.js';

export class LookupUmaReceiverCommand {
  constructor(
    readonly receiverUmaAddress: string,
    readonly actor: Actor,
  ) {}
}
export class LookupExternalAccountReceiverCommand {
  constructor(
    readonly accountId: string,
    readonly actor: Actor,
  ) {}
}

/** The Lookup resource. */
export function toLookupResource(lookup: LookupRecord): Record<string, unknown> {
  return compact({
    id: lookup.id,
    receiverUmaAddress: lookup.receiverUmaAddress,
    accountId: lookup.accountId,
    supportedCurrencies: lookup.supportedCurrencies.map((code) => currency(code)),
    requiredPayerDataFields: lookup.requiredPayerDataFields,
    counterpartyInformation: lookup.counterpartyInformation,
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
  if (!isPublicId('Lookup', lookupId)) throw notFound('LOOKUP', lookupId);
  const { state } = await runner.load(lookupStream(lookupId), lookupDecider);
  if (!state.lookup || state.lookup.platformId !== platformId) throw notFound('LOOKUP', lookupId);
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

abstract class LookupHandler {
  constructor(
    protected readonly runner: CommandRunner,
    protected readonly clocks: PlatformClocks,
    protected readonly ids: IdGenerator,
  ) {}

  protected async store(
    actor: Actor,
    fields: Omit<LookupRecord, 'id' | 'platformId' | 'createdAt' | 'expiresAt'>,
  ): Promise<LookupRecord> {
    const now = await this.clocks.now(actor.platformId);
    const lookup: LookupRecord = {
      id: publicId('Lookup', this.ids.uuid()),
      platformId: actor.platformId,
      ...fields,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + LOOKUP_TTL_MS).toISOString(),
    };
    await this.runner.run(
      lookupStream(lookup.id),
      lookupDecider,
      { type: 'CreateLookup', lookup },
      { metadata: { ...actor }, waitForReadModels: false },
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
  constructor(runner: CommandRunner, clocks: PlatformClocks, @Inject(IDS) ids: IdGenerator) {
    super(runner, clocks, ids);
  }

  async execute({ receiverUmaAddress, actor }: LookupUmaReceiverCommand) {
    const parsed = parseSandboxUmaAddress(receiverUmaAddress);
    if (!parsed || !(await isSandboxPlatform(this.runner, actor.platformId)))
      throw notFound('RECEIVER', receiverUmaAddress);
    return this.store(actor, {
      kind: 'UMA_ADDRESS',
      receiverUmaAddress,
      supportedCurrencies: [parsed.currency],
      requiredPayerDataFields: requiredPayerDataFieldsFor(parsed.currency),
      counterpartyInformation: { FULL_NAME: `Sandbox Receiver ${parsed.currency}` },
      sandboxOutcome: parsed.outcome,
    });
  }
}

/** Looks up an external account of this platform as a receiver. */
@CommandHandler(LookupExternalAccountReceiverCommand)
export class LookupExternalAccountReceiverHandler
  extends LookupHandler
  implements ICommandHandler<LookupExternalAccountReceiverCommand, LookupRecord>
{
  constructor(runner: CommandRunner, clocks: PlatformClocks, @Inject(IDS) ids: IdGenerator) {
    super(runner, clocks, ids);
  }

  async execute({ accountId, actor }: LookupExternalAccountReceiverCommand) {
    const account = await loadLiveExternalAccount(this.runner, accountId, actor.platformId);
    const name = account.beneficiaryVerifiedData?.fullName ?? account.beneficiary?.fullName;
    return this.store(actor, {
      kind: 'EXTERNAL_ACCOUNT',
      accountId,
      supportedCurrencies: [account.currency],
      requiredPayerDataFields: requiredPayerDataFieldsFor(account.currency),
      counterpartyInformation: name ? { FULL_NAME: name } : {},
    });
  }
}
