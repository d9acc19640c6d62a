import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { platformCustomerIdKey, umaAddressKey, type ClaimKey } from '#domain/claims/claim.js';
import {
  customerDecider,
  type CustomerChanges,
  type CustomerProfile,
  type CustomerState,
  type CustomerType,
  type InternalAccountType,
  type KycStatus,
  type NewAccount,
} from '#domain/customers/customer.js';
import { sandboxKycStatus } from '#domain/customers/sandbox-kyc.js';
import { DomainError, conflict, invalid, notFound } from '#domain/errors.js';
import { CRYPTO_CURRENCIES, currency, publicId, streams, uuidOf } from '#domain/primitives.js';
import { ledgerDecider } from '#domain/ledger/ledger.js';
import { platformDecider } from '#domain/platforms/platform.js';
import { CommandContext } from '../command-context.js';
import { IdentityClaims } from '../claims/identity-claims.js';
import { CommandRunner } from '../command-runner.js';
import type { Actor } from '../tokens.js';
import { WalletEmailSync } from '../wallet/customer-email.js';
import { WalletAccounts, emailRequired } from '../wallet/wallet-accounts.js';
import {
  signedStepOf,
  SignedRetryService,
  type SignedRequest,
  type SignedResult,
} from '../wallet/signed-retry.service.js';
import { effectId } from '../idempotency/effect-ids.js';

/**
 * `customerId`: the id to create the customer under, when the caller derives it (a bulk import's
 * row): running the command again then finds the customer it created instead of making another.
 */
/** A status the platform declares (public API: `kycStatus` for individuals, `kybStatus` for businesses). */
export interface DeclaredStatus {
  kycStatus?: KycStatus;
  kybStatus?: KycStatus;
}

export class CreateCustomerCommand {
  constructor(
    readonly input: { platformCustomerId?: string; customerType: CustomerType } & CustomerProfile & DeclaredStatus,
    readonly actor: Actor,
    readonly customerId?: string,
  ) {}
}
/**
 * `signed`: the request as the platform sent it. Changing the email of a customer whose wallet has
 * an EMAIL_OTP credential is then a signed retry; the consumed requestId is recorded with the change,
 * so it applies at most once (see SignedRetryService.consume). Without it (the service's own updates)
 * nothing is signed.
 */
export class UpdateCustomerCommand {
  constructor(
    readonly customerId: string,
    readonly changes: CustomerChanges & DeclaredStatus & { customerType?: CustomerType },
    readonly actor: Actor,
    readonly signed?: SignedRequest,
  ) {}
}
export class DeleteCustomerCommand {
  constructor(
    readonly customerId: string,
    readonly actor: Actor,
  ) {}
}
export class OpenInternalAccountCommand {
  constructor(
    readonly input: { customerId: string; type: InternalAccountType; currency: string },
    readonly actor: Actor,
  ) {}
}

const accountTypeFor = (code: string): InternalAccountType =>
  CRYPTO_CURRENCIES.has(code) ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT';

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

/** The unique identities a customer holds: its platformCustomerId (per platform) and UMA address (global). */
function identityKeys(platformId: string, customer: { platformCustomerId?: string; umaAddress?: string }): ClaimKey[] {
  const keys: ClaimKey[] = [];
  if (customer.platformCustomerId !== undefined)
    keys.push(platformCustomerIdKey(platformId, customer.platformCustomerId));
  if (customer.umaAddress !== undefined) keys.push(umaAddressKey(customer.umaAddress));
  return keys;
}

const heldKeys = (platformId: string, state: Pick<CustomerState, 'platformCustomerId' | 'profile'>) =>
  identityKeys(platformId, {
    platformCustomerId: state.platformCustomerId,
    umaAddress: state.profile.umaAddress,
  });

const isUmaTaken = (error: unknown) => error instanceof DomainError && error.code === 'UMA_ADDRESS_EXISTS';
const isCustomerExists = (error: unknown) => error instanceof DomainError && error.code === 'CUSTOMER_EXISTS';

/**
 * The status a platform declares, if any: `kycStatus` is an individual's, `kybStatus` a business's; the
 * other one is refused.
 */
function declaredStatus(customerType: CustomerType, input: DeclaredStatus): KycStatus | undefined {
  const [own, other] = customerType === 'BUSINESS' ? ['kybStatus', 'kycStatus'] : ['kycStatus', 'kybStatus'];
  if (input[other as keyof DeclaredStatus] !== undefined)
    throw invalid('INVALID_INPUT', `${other} does not apply to ${customerType} customers; use ${own}`, other);
  return input[own as keyof DeclaredStatus];
}

function validateCurrencies(codes: string[] | undefined): void {
  for (const [i, code] of (codes ?? []).entries()) currency(code, `currencies[${i}]`);
  if (codes && new Set(codes).size !== codes.length)
    throw invalid('DUPLICATE_CURRENCY', 'currencies must not repeat', 'currencies');
}

@CommandHandler(CreateCustomerCommand)
export class CreateCustomerHandler implements ICommandHandler<CreateCustomerCommand> {
  constructor(
    private readonly ctx: CommandContext,
    private readonly claims: IdentityClaims,
  ) {}

  async execute({ input, actor, customerId: given }: CreateCustomerCommand) {
    const { platformCustomerId: givenPlatformId, customerType, kycStatus: _kyc, kybStatus: _kyb, ...profile } = input;
    const declared = declaredStatus(customerType, input);
    validateCurrencies(profile.currencies);
    if (given !== undefined && (await this.createdBefore(given, actor))) return given;
    const { state: platform } = await this.ctx.runner.load(streams.platform(actor.platformId), platformDecider);
    const currencies = profile.currencies ?? ['USD'];
    const customerId = given ?? publicId('Customer', effectId(actor, this.ctx.ids));
    // Optional, as in the public API: without one the customer's own uuid serves (unique by construction).
    const platformCustomerId = givenPlatformId ?? uuidOf('Customer', customerId)!;
    const kycStatus =
      declared ??
      (platform.sandbox
        ? sandboxKycStatus({
            customerType,
            fullName: profile.fullName,
            registrationNumber: profile.businessInfo?.registrationNumber,
          })
        : 'PENDING');
    const accounts: NewAccount[] = currencies.map((code) => ({
      accountId: publicId('InternalAccount', effectId(actor, this.ctx.ids)),
      type: accountTypeFor(code),
      currency: code,
    }));
    const owner = { id: customerId, stream: streams.customer(customerId) };
    // The platform's id first: a duplicate create is a CONFLICT before its address is looked at.
    await this.claims.claim(identityKeys(actor.platformId, { platformCustomerId }), owner, actor);
    let umaAddress: string;
    try {
      umaAddress =
        profile.umaAddress ??
        (await this.claimGeneratedUmaAddress(platformCustomerId, customerId, platform.umaDomain, owner, actor));
    } catch (error) {
      await this.claims.release(identityKeys(actor.platformId, { platformCustomerId }), customerId, actor);
      throw error;
    }
    // An address given by the platform is claimed here (again a no-op for a generated one).
    const now = (await this.ctx.now(actor.platformId)).toISOString();
    await this.claims.holding(identityKeys(actor.platformId, { platformCustomerId, umaAddress }), owner, actor, () =>
      this.ctx.runner
        .run(
          owner.stream,
          customerDecider,
          {
            type: 'CreateCustomer',
            customerId,
            platformId: actor.platformId,
            platformCustomerId,
            customerType,
            kycStatus,
            profile: { ...profile, currencies, umaAddress },
            accounts,
            now,
          },
          { metadata: { ...actor } },
        )
        .catch(async (error: unknown) => {
          // The same command ran meanwhile (a job run twice at once): its customer holds these keys, keep them.
          if (given !== undefined && isCustomerExists(error) && (await this.createdBefore(given, actor))) return;
          throw error;
        }),
    );
    return customerId;
  }

  /** Whether a customer with this caller-derived id exists already (of the caller's platform: else a 409). */
  private async createdBefore(customerId: string, actor: Actor): Promise<boolean> {
    const { state } = await this.ctx.runner.load(customerStream(customerId), customerDecider);
    if (!state.exists) return false;
    if (state.platformId !== actor.platformId) throw conflict('CONFLICT', `customer ${customerId} already exists`);
    return true;
  }

  /**
   * `$<platformCustomerId>@<domain>`, unless another customer (another platform's, as the domain
   * may be shared) holds it: then the customer id's first characters make it unique.
   */
  private async claimGeneratedUmaAddress(
    platformCustomerId: string,
    customerId: string,
    domain: string | undefined,
    owner: { id: string; stream: string },
    actor: Actor,
  ) {
    const suffix = customerId.slice(9, 17);
    const name = platformCustomerId.replace(/[^a-zA-Z0-9._-]/g, '').toLowerCase();
    const candidates = name ? [`$${name}@${domain}`, `$${name}-${suffix}@${domain}`] : [`$${suffix}@${domain}`];
    for (const [i, address] of candidates.entries()) {
      try {
        await this.claims.claim([umaAddressKey(address)], owner, actor);
        return address;
      } catch (error) {
        if (!isUmaTaken(error) || i === candidates.length - 1) throw error;
      }
    }
    throw new Error('unreachable');
  }
}

@CommandHandler(UpdateCustomerCommand)
export class UpdateCustomerHandler implements ICommandHandler<UpdateCustomerCommand> {
  constructor(
    private readonly ctx: CommandContext,
    private readonly walletEmails: WalletEmailSync,
    private readonly wallets: WalletAccounts,
    private readonly signedRetry: SignedRetryService,
    private readonly claims: IdentityClaims,
  ) {}

  async execute({ customerId, changes: request, actor, signed }: UpdateCustomerCommand): Promise<SignedResult<void>> {
    let requestId: string | undefined;
    const signer =
      signed && (await this.walletEmails.signerFor(customerId, request.email, actor, signedStepOf(signed)));
    if (signed && signer) {
      await this.wallets.assertOwned(signer, actor);
      const step = await this.signedRetry.step(signer, { intent: 'EXTERNAL', targetId: customerId }, signed, actor);
      if (step.kind === 'challenge') return step;
      // The consumption records the update it authorizes (a plain-JSON copy: it is stored and compared).
      const change = JSON.parse(JSON.stringify(request)) as Record<string, unknown>;
      const authorizes = { stream: streams.customer(customerId), change };
      ({ requestId } = await this.signedRetry.consume(signer, customerId, step.proof, authorizes, actor));
    }
    const { customerType, kycStatus: _kyc, kybStatus: _kyb, ...changes } = request;
    validateCurrencies(changes.currencies);
    const current = await loadOwnCustomer(this.ctx.runner, customerId, actor);
    if (current.isDeleted) throw notFound('CUSTOMER', customerId);
    if (customerType !== undefined && customerType !== current.customerType)
      throw invalid(
        'INVALID_INPUT',
        `customer ${customerId} is ${current.customerType}; its customerType cannot change`,
        'customerType',
      );
    const declared = declaredStatus(current.customerType, request);
    // A new platformCustomerId or UMA address is claimed before it is recorded; the old one is
    // released after. A retry of the same change finds the new key already its own.
    const before = heldKeys(current.platformId, current);
    const after = identityKeys(actor.platformId, {
      platformCustomerId: changes.platformCustomerId ?? current.platformCustomerId,
      umaAddress: changes.umaAddress ?? current.profile.umaAddress,
    });
    const same = (a: ClaimKey, b: ClaimKey) => a.kind === b.kind && a.value === b.value;
    const added = after.filter((k) => !before.some((b) => same(b, k)));
    const dropped = before.filter((k) => !after.some((a) => same(a, k)));
    const now = (await this.ctx.now(actor.platformId)).toISOString();
    await this.claims.holding(added, { id: customerId, stream: customerStream(customerId) }, actor, () =>
      this.ctx.runner.run(
        customerStream(customerId),
        customerDecider,
        (state) => {
          const added = (changes.currencies ?? []).filter((c) => !(state.profile.currencies ?? []).includes(c));
          const newAccounts = added.map((code) => ({
            accountId: publicId('InternalAccount', this.ctx.ids.uuid()),
            type: accountTypeFor(code),
            currency: code,
          }));
          return { type: 'UpdateCustomer' as const, changes, newAccounts, ...(requestId ? { requestId } : {}), now };
        },
        { metadata: { ...actor } },
      ),
    );
    await this.claims.release(dropped, customerId, actor);
    // A declared status is recorded like a verification's outcome (approval activates the accounts).
    if (declared !== undefined)
      await this.ctx.runner.run(
        customerStream(customerId),
        customerDecider,
        { type: 'ChangeKycStatus', kycStatus: declared, now },
        { metadata: { ...actor } },
      );
    // The EMAIL_OTP credentials of the customer's wallets follow the customer's email.
    if (changes.email !== undefined) await this.walletEmails.sync(customerId, changes.email, actor);
    return { kind: 'done', result: undefined };
  }
}

@CommandHandler(DeleteCustomerCommand)
export class DeleteCustomerHandler implements ICommandHandler<DeleteCustomerCommand> {
  constructor(
    private readonly ctx: CommandContext,
    private readonly claims: IdentityClaims,
  ) {}

  async execute({ customerId, actor }: DeleteCustomerCommand) {
    const customer = await loadOwnCustomer(this.ctx.runner, customerId, actor);
    const { state: ledger } = await this.ctx.runner.load(streams.ledger(actor.platformId), ledgerDecider);
    const hasFunds = [...customer.accounts.keys()].some((id) => {
      const a = ledger.accounts.get(id);
      return (
        a !== undefined && (a.creditsPosted !== a.debitsPosted || a.debitsPending !== 0n || a.creditsPending !== 0n)
      );
    });
    const { state } = await this.ctx.runner.run(
      customerStream(customerId),
      customerDecider,
      { type: 'DeleteCustomer', hasFunds, now: (await this.ctx.now(actor.platformId)).toISOString() },
      { metadata: { ...actor } },
    );
    // After the delete, so a crash in between leaves keys held by a deleted customer, which anyone may take.
    await this.claims.release(heldKeys(actor.platformId, state), customerId, actor);
  }
}

@CommandHandler(OpenInternalAccountCommand)
export class OpenInternalAccountHandler implements ICommandHandler<OpenInternalAccountCommand> {
  constructor(
    private readonly ctx: CommandContext,
    private readonly wallets: WalletAccounts,
  ) {}

  async execute({ input, actor }: OpenInternalAccountCommand) {
    currency(input.currency);
    const crypto = CRYPTO_CURRENCIES.has(input.currency);
    if ((input.type === 'INTERNAL_FIAT' && crypto) || (input.type === 'INTERNAL_CRYPTO' && !crypto)) {
      throw new DomainError('invalid', 'INVALID_INPUT', `an ${input.type} account cannot hold ${input.currency}`, {
        errors: [
          { field: 'currency', constraint: 'accountType', message: `${input.currency} is not valid for ${input.type}` },
        ],
      });
    }
    const customer = await loadOwnCustomer(this.ctx.runner, input.customerId, actor);
    // An embedded wallet's first credential is an EMAIL_OTP to the customer's email.
    if (input.type === 'EMBEDDED_WALLET' && !customer.profile.email) throw emailRequired();
    const accountId = publicId('InternalAccount', effectId(actor, this.ctx.ids));
    await this.ctx.runner.run(
      customerStream(input.customerId),
      customerDecider,
      {
        type: 'OpenInternalAccount',
        account: { accountId, type: input.type, currency: input.currency },
        now: (await this.ctx.now(actor.platformId)).toISOString(),
      },
      { metadata: { ...actor } },
    );
    if (input.type === 'EMBEDDED_WALLET')
      await this.wallets.provision({ accountId, customerId: input.customerId, email: customer.profile.email }, actor);
    return accountId;
  }
}
