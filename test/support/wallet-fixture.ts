import { beforeAll, beforeEach } from '@jest/globals';
import { useTestService, type FixtureOptions, type ServiceFixture } from './fixture.js';
import { createWallet, emailOtpSession, type Wallet, type WalletSession } from './wallet-session.js';

export interface WalletFixtureOptions extends FixtureOptions {
  /** A new wallet for every test (some revoke or outlive a session) instead of one for the file. */
  each?: boolean;
  /** The wallet holder's email (a unique one otherwise). */
  email?: string;
  /** false: no session is opened (a file that counts the wallet's sessions opens its own). */
  session?: boolean;
}

/** The file's service and its wallet, bound when the hooks have run (read them inside tests and hooks). */
export interface WalletFixture {
  t: ServiceFixture;
  /** An EMBEDDED_WALLET account of a new customer. */
  wallet: Wallet;
  /** A verified EMAIL_OTP session on `wallet` (unless `session: false`). */
  session: WalletSession;
}

/**
 * Starts the file's service (`useTestService`) and makes a wallet with an EMAIL_OTP session on it, before all of
 * the file's tests, or before each one with `each`.
 */
export function useWalletService({
  each = false,
  email,
  session = true,
  ...options
}: WalletFixtureOptions = {}): WalletFixture {
  const t = useTestService(options);
  const fixture = { t } as WalletFixture;
  (each ? beforeEach : beforeAll)(async () => {
    fixture.wallet = await createWallet(t.api, { email });
    if (session) fixture.session = await emailOtpSession(t.api, fixture.wallet.emailOtpId);
  });
  return fixture;
}
