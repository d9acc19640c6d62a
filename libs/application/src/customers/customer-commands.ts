import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Clock } from '../../../domain/src/clock.js';
import { customerDecider, type CustomerProfile, type CustomerType, type InternalAccountType, type NewAccount } from '../../../domain/src/customer/customer.js';
import { sandboxKycStatus } from '../../../domain/src/customer/sandbox-kyc.js';
import { DomainError, invalid, notFound } from '../../../domain/src/errors.js';
import { publicId, streams, uuidOf, type IdGenerator } from '../../../domain/src/ids.js';
import { ledgerDecider } from '../../../domain/src/ledger/ledger.js';
import { CRYPTO_CURRENCIES, currency } from '../../../domain/src/money.js';
import { platformDecider } from '../../../domain/src/platform/platform.js';
import { CommandRunner } from '../command-runner.js';
import { CLOCK, IDS, type Actor } from '../tokens.js';
import { WalletEmailSync } from '../wallet/customer-email.js';
import { WalletAccounts, emailRequired } from '../wallet/wallet-accounts.js';

export class CreateCustomerCommand {
  constructor(readonly input: { platformCustomerId: string; customerType: CustomerType } & CustomerProfile, readonly actor: Actor) {}
}
/** `requestId`: the signed retry that authorized an email change; applied at most once (see SignedRetryService). */
export class UpdateCustomerCommand {
  constructor(
    readonly customerId: string,
    readonly changes: CustomerProfile,
    readonly actor: Actor,
    readonly requestId?: string,
  ) {}
}
export class DeleteCustomerCommand {
  constructor(readonly customerId: string, readonly actor: Actor) {}
}
export class OpenInternalAccountCommand {
  constructor(readonly input: { customerId: string; type: InternalAccountType; currency: string }, readonly actor: Actor) {}
}

const accountTypeFor = (code: string): InternalAccountType => (CRYPTO_CURRENCIES.has(code) ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT');

/** The customer stream for an id of this platform, or a 404 that does not reveal other platforms' ids. */
export function customerStream(customerId: string): string {
  if (!uuidOf('Customer', customerId)) throw notFound('CUSTOMER', customerId);
  return streams.customer(customerId);
}

export async function loadOwnCustomer(runner: CommandRunner, customerId: string, actor: Actor) {
  const { state } = await runner.load(customerStream(customerId), customerDecider);
  if (!state.exists || state.platformId !== actor.platformId) throw notFound('CUSTOMER', customerId);
  return state;
}

function validateCurrencies(codes: string[] | undefined): void {
  for (const code of codes ?? []) currency(code);
  if (codes && new Set(codes).size !== codes.length) throw invalid('DUPLICATE_CURRENCY', 'currencies must not repeat', 'currencies');
}

@CommandHandler(CreateCustomerCommand)
export class CreateCustomerHandler implements ICommandHandler<CreateCustomerCommand> {
  constructor(private readonly runner: CommandRunner, @Inject(CLOCK) private readonly clock: Clock, @Inject(IDS) private readonly ids: IdGenerator) {}

  async execute({ input, actor }: CreateCustomerCommand) {
    const { platformCustomerId, customerType, ...profile } = input;
    validateCurrencies(profile.currencies);
    const { state: platform } = await this.runner.load(streams.platform(actor.platformId), platformDecider);
    const currencies = profile.currencies ?? ['USD'];
    const customerId = publicId('Customer', this.ids.uuid());
    const kycStatus = platform.sandbox
      ? sandboxKycStatus({ customerType, fullName: profile.fullName, registrationNumber: profile.businessInfo?.registrationNumber })
      : 'PENDING';
    const umaAddress = profile.umaAddress ?? `$${platformCustomerId.replace(/[^a-zA-Z0-9._-]/g, '').toLowerCase() || customerId.slice(9, 17)}@${platform.umaDomain}`;
    const accounts: NewAccount[] = currencies.map((code) => ({ accountId: publicId('InternalAccount', this.ids.uuid()), type: accountTypeFor(code), currency: code }));
    await this.runner.run(
      streams.customer(customerId),
      customerDecider,
      { type: 'CreateCustomer', customerId, platformId: actor.platformId, platformCustomerId, customerType, kycStatus, profile: { ...profile, currencies, umaAddress }, accounts, now: this.clock.now().toISOString() },
      { metadata: { ...actor } },
    );
    return customerId;
  }
}

@CommandHandler(UpdateCustomerCommand)
export class UpdateCustomerHandler implements ICommandHandler<UpdateCustomerCommand> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly walletEmails: WalletEmailSync,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDS) private readonly ids: IdGenerator,
  ) {}

  async execute({ customerId, changes, actor, requestId }: UpdateCustomerCommand) {
    validateCurrencies(changes.currencies);
    await loadOwnCustomer(this.runner, customerId, actor);
    await this.runner.run(
      customerStream(customerId),
      customerDecider,
      (state) => {
        const added = (changes.currencies ?? []).filter((c) => !(state.profile.currencies ?? []).includes(c));
        const newAccounts = added.map((code) => ({ accountId: publicId('InternalAccount', this.ids.uuid()), type: accountTypeFor(code), currency: code }));
        const now = this.clock.now().toISOString();
        return { type: 'UpdateCustomer' as const, changes, newAccounts, ...(requestId ? { requestId } : {}), now };
      },
      { metadata: { ...actor } },
    );
    // The EMAIL_OTP credentials of the customer's wallets follow the customer's email.
    if (changes.email !== undefined) await this.walletEmails.sync(customerId, changes.email, actor);
  }
}

@CommandHandler(DeleteCustomerCommand)
export class DeleteCustomerHandler implements ICommandHandler<DeleteCustomerCommand> {
  constructor(private readonly runner: CommandRunner, @Inject(CLOCK) private readonly clock: Clock) {}

  async execute({ customerId, actor }: DeleteCustomerCommand) {
    const customer = await loadOwnCustomer(this.runner, customerId, actor);
    const { state: ledger } = await this.runner.load(streams.ledger(actor.platformId), ledgerDecider);
    const hasFunds = [...customer.accounts.keys()].some((id) => {
      const a = ledger.accounts.get(id);
      return a !== undefined && (a.creditsPosted !== a.debitsPosted || a.debitsPending !== 0n || a.creditsPending !== 0n);
    });
    await this.runner.run(customerStream(customerId), customerDecider, { type: 'DeleteCustomer', hasFunds, now: this.clock.now().toISOString() }, { metadata: { ...actor } });
  }
}

@CommandHandler(OpenInternalAccountCommand)
export class OpenInternalAccountHandler implements ICommandHandler<OpenInternalAccountCommand> {
  constructor(
    private readonly runner: CommandRunner,
    private readonly wallets: WalletAccounts,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDS) private readonly ids: IdGenerator,
  ) {}

  async execute({ input, actor }: OpenInternalAccountCommand) {
    currency(input.currency);
    const crypto = CRYPTO_CURRENCIES.has(input.currency);
    if ((input.type === 'INTERNAL_FIAT' && crypto) || (input.type === 'INTERNAL_CRYPTO' && !crypto)) {
      throw new DomainError('invalid', 'INVALID_INPUT', `an ${input.type} account cannot hold ${input.currency}`, {
        errors: [{ field: 'currency', constraint: 'accountType', message: `${input.currency} is not valid for ${input.type}` }],
      });
    }
    const customer = await loadOwnCustomer(this.runner, input.customerId, actor);
    // An embedded wallet's first credential is an EMAIL_OTP to the customer's email.
    if (input.type === 'EMBEDDED_WALLET' && !customer.profile.email) throw emailRequired();
    const accountId = publicId('InternalAccount', this.ids.uuid());
    await this.runner.run(
      customerStream(input.customerId),
      customerDecider,
      { type: 'OpenInternalAccount', account: { accountId, type: input.type, currency: input.currency }, now: this.clock.now().toISOString() },
      { metadata: { ...actor } },
    );
    if (input.type === 'EMBEDDED_WALLET') await this.wallets.provision({ accountId, customerId: input.customerId, email: customer.profile.email }, actor);
    return accountId;
  }
}
