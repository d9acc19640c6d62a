import { Injectable } from '@nestjs/common';
import { customerDecider } from '#domain/customers/customer.js';
import { isPublicId, streams } from '#domain/primitives.js';
import { activeAuthMethods } from '#domain/wallet/wallet-auth-state.js';
import { CommandRunner } from '../command-runner.js';
import { type Actor } from '../tokens.js';
import type { SignedStep } from './signed-retry.service.js';
import { WalletAccounts } from './wallet-accounts.js';

/**
 * A customer's email is the address of the EMAIL_OTP credentials of their embedded wallets:
 * changing it is a signed retry when such credentials exist, and the change reaches them.
 */
@Injectable()
export class WalletEmailSync {
  constructor(
    private readonly runner: CommandRunner,
    private readonly wallets: WalletAccounts,
  ) {}

  /** The customer's EMBEDDED_WALLET accounts that have an active EMAIL_OTP credential, oldest first. */
  async tiedWallets(customerId: string, actor: Actor): Promise<string[]> {
    if (!isPublicId('Customer', customerId)) return [];
    const { state: customer } = await this.runner.load(streams.customer(customerId), customerDecider);
    if (!customer.exists || customer.platformId !== actor.platformId) return [];
    const tied: string[] = [];
    for (const account of customer.accounts.values()) {
      if (account.type !== 'EMBEDDED_WALLET') continue;
      const state = await this.wallets.state(account.id);
      if (state.provisioned && activeAuthMethods(state).some((m) => m.type === 'EMAIL_OTP')) tied.push(account.id);
    }
    return tied;
  }

  /**
   * The wallet account whose session must stamp this update, or undefined when the update needs
   * no signature (no email in it, the same email, or no tied EMAIL_OTP credential). A signed retry
   * (step 2) is checked even when the email is already the new one: its requestId may have
   * applied it, and a spent requestId is 401 whatever the customer's state.
   */
  async signerFor(
    customerId: string,
    email: string | undefined,
    actor: Actor,
    step: SignedStep = 'challenge',
  ): Promise<string | undefined> {
    if (email === undefined || !isPublicId('Customer', customerId)) return undefined;
    const { state: customer } = await this.runner.load(streams.customer(customerId), customerDecider);
    if (!customer.exists || customer.platformId !== actor.platformId) return undefined;
    if (step === 'challenge' && customer.profile.email === email) return undefined;
    return (await this.tiedWallets(customerId, actor))[0];
  }

  /** Points every tied EMAIL_OTP credential at the customer's new email (no-op where it already is). */
  async sync(customerId: string, email: string, actor: Actor): Promise<void> {
    for (const accountId of await this.tiedWallets(customerId, actor)) {
      await this.wallets.decide(accountId, { type: 'UpdateEmailOtpAddress', email }, actor);
    }
  }
}
