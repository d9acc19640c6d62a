import { Inject, Injectable } from '@nestjs/common';
import { customerDecider } from '#domain/customers/customer.js';
import { DomainError, invalid, notFound } from '#domain/errors.js';
import { isPublicId, publicId, streams } from '#domain/primitives.js';
import { walletAuthDecider, type WalletAuthCommand } from '#domain/wallet/wallet-auth.js';
import type { ProvisionedWalletState, WalletAuthState } from '#domain/wallet/wallet-auth-state.js';
import { Collections } from '#read-models/projections/collections.js';
import type { InternalAccountDoc } from '#read-models/projections/internal-account-docs.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { CommandContext } from '../command-context.js';
import { CommandRunner, type AnswersAfter, type Reads } from '../command-runner.js';
import { READ_MODELS, type Actor } from '../tokens.js';
import { WalletSeedVault } from './wallet-seed.js';
import { effectId } from '../idempotency/effect-ids.js';

/** A wallet command as handlers give it: `now` is the platform's clock unless the handler set it. */
export type WalletCommandInput = WalletAuthCommand extends infer C
  ? C extends { now: string }
    ? Omit<C, 'now'> & { now?: string }
    : never
  : never;

export type ProvisionedWallet = ProvisionedWalletState;

/** A wallet just provisioned (by this request or a concurrent one): its stream cannot be unprovisioned. */
function provisionedOf(state: WalletAuthState): ProvisionedWallet {
  if (!state.provisioned) throw new Error('a provisioned wallet stream reads as unprovisioned');
  return state;
}

export const emailRequired = () =>
  invalid(
    'CUSTOMER_EMAIL_REQUIRED',
    'an EMBEDDED_WALLET account needs the customer’s email for its EMAIL_OTP credential; set the ' +
      'customer’s email first',
    'customerId',
  );

/**
 * The wallet (auth state) of `accountId`, of any platform, read as `reads` declares: the one read of a wallet's stream
 * (`WalletAccounts.state`, and callers outside the wallet area that have no `WalletAccounts`).
 */
export async function walletState(
  runner: CommandRunner,
  accountId: string,
  reads: Reads<WalletAuthState> = {},
): Promise<WalletAuthState> {
  return (await runner.load(streams.wallet(accountId), walletAuthDecider, reads)).state;
}

/** Who owns a wallet, fixed once it is provisioned: a wallet this process has seen provisioned is not read again. */
const walletOwnership: Reads<WalletAuthState> = { reads: 'fixed-facts', known: (seen) => seen.provisioned };

/**
 * The wallet (auth state) of EMBEDDED_WALLET internal accounts: provisioning and loading, always
 * scoped to the caller's platform (another platform's account is a 404, as if it did not exist).
 */
@Injectable()
export class WalletAccounts {
  constructor(
    private readonly ctx: CommandContext,
    private readonly vault: WalletSeedVault,
    @Inject(READ_MODELS) private readonly readModels: ReadModelStore,
  ) {}

  /**
   * Decides `command` on the wallet of `accountId` and appends the outcome: the one way to the wallet's stream, with
   * `state`. `answersAfter` `append`: for what no read model shows (challenges, consumptions, counters).
   */
  async decide(
    accountId: string,
    command: WalletCommandInput,
    actor: Actor,
    answersAfter: AnswersAfter = 'projection',
  ) {
    const now = command.now ?? (await this.ctx.now(actor.platformId)).toISOString();
    return this.ctx.runner.run(streams.wallet(accountId), walletAuthDecider, { ...command, now } as WalletAuthCommand, {
      metadata: { ...actor },
      answersAfter,
    });
  }

  /** The wallet (auth state) of `accountId`, of any platform, read as `reads` declares (by default the current one). */
  state(accountId: string, reads: Reads<WalletAuthState> = {}): Promise<WalletAuthState> {
    return walletState(this.ctx.runner, accountId, reads);
  }

  /**
   * Gives a newly opened EMBEDDED_WALLET its seed and its EMAIL_OTP credential (the customer's
   * email). Idempotent: an already provisioned wallet is returned as it is.
   */
  async provision(
    input: { accountId: string; customerId: string; email: string | undefined },
    actor: Actor,
  ): Promise<ProvisionedWallet> {
    const stream = streams.wallet(input.accountId);
    const state = await this.state(input.accountId);
    if (state.provisioned) return state;
    if (!input.email) throw emailRequired();
    try {
      const result = await this.ctx.runner.run(
        stream,
        walletAuthDecider,
        {
          type: 'ProvisionWallet',
          accountId: input.accountId,
          platformId: actor.platformId,
          customerId: input.customerId,
          emailOtp: { authMethodId: publicId('AuthMethod', effectId(actor, this.ctx.ids)), email: input.email },
          encryptedSeed: this.vault.newSealedSeed(input.accountId),
          now: (await this.ctx.now(actor.platformId)).toISOString(),
        },
        { metadata: { ...actor } },
      );
      return provisionedOf(result.state);
    } catch (error) {
      // Another request provisioned it first: that wallet is the one.
      if (error instanceof DomainError && error.code === 'WALLET_ALREADY_PROVISIONED')
        return provisionedOf(await this.state(input.accountId));
      throw error;
    }
  }

  /**
   * The wallet of an EMBEDDED_WALLET account of the caller's platform. An account whose wallet was
   * not provisioned yet (the process stopped between opening and provisioning) is provisioned now.
   */
  async own(accountId: string, actor: Actor): Promise<ProvisionedWallet> {
    const wallet = await this.find(accountId, actor);
    if (wallet) return wallet;
    const account = await this.account(accountId, actor);
    if (!account) throw notFound('INTERNAL_ACCOUNT', accountId);
    if (account.type !== 'EMBEDDED_WALLET' || !account.customerId) {
      throw invalid(
        'NOT_AN_EMBEDDED_WALLET',
        `${accountId} is an ${account.type} account; wallet authentication applies only to EMBEDDED_WALLET accounts`,
        'accountId',
      );
    }
    const { state: customer } = await this.ctx.runner.load(streams.customer(account.customerId), customerDecider);
    return this.provision({ accountId, customerId: account.customerId, email: customer.profile.email }, actor);
  }

  /**
   * `own` for a caller that needs only to know the wallet is the caller's: who owns a provisioned wallet never
   * changes, so a wallet this process has seen provisioned for the caller's platform is not read again. Nothing of
   * the wallet's state is returned (what this process saw may be older than the stream; the decider that appends to
   * it sees the stream as it is).
   */
  async assertOwned(accountId: string, actor: Actor): Promise<void> {
    if (!(await this.find(accountId, actor, walletOwnership))) await this.own(accountId, actor);
  }

  /**
   * The provisioned wallet of an account of the caller's platform, or undefined, read as `reads` declares (the current
   * one by default; `walletOwnership`: as this process last saw it, if it saw it provisioned, see `assertOwned`).
   */
  async find(
    accountId: string,
    actor: Actor,
    reads: Reads<WalletAuthState> = {},
  ): Promise<ProvisionedWallet | undefined> {
    if (!isPublicId('InternalAccount', accountId)) return undefined;
    const state = await this.state(accountId, reads);
    if (!state.provisioned || state.platformId !== actor.platformId) return undefined;
    return state;
  }

  /** The internal-account read model of the caller's platform, or undefined. */
  async account(accountId: string, actor: Actor): Promise<InternalAccountDoc | undefined> {
    if (!isPublicId('InternalAccount', accountId)) return undefined;
    const doc = await this.readModels.get<InternalAccountDoc>(Collections.internalAccounts, accountId);
    return doc && doc.platformId === actor.platformId ? doc : undefined;
  }
}
