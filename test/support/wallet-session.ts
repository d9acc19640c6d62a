import {
  openSessionKey,
  startWalletSession,
  type AuthMethod,
  type AuthSession,
  type Customer,
  type InternalAccount,
  type Page,
  type SessionKey,
} from '@payments-platform/client';
import type { Client, Reply } from './service.js';
import { uniqueValue } from './sequence.js';

/**
 * A wallet session as an integrator's client holds it, opened by the client package (`@payments-platform/client`:
 * `generateClientKeyPair`, `openSessionKey`, `startWalletSession`, whose `SessionKey` stamps with Turnkey's
 * `ApiKeyStamper`). No test framework inside, so benchmarks can use it too.
 */
export interface WalletSession {
  /** The session (`Session:…`). */
  id: string;
  accountId: string;
  /** The credential the session was verified with. */
  authMethodId: string;
  /** The answer that issued the session (verify or refresh). */
  body: AuthSession;
  /** The decrypted session signing key; it never leaves the client. */
  key: SessionKey;
  /** Compressed P-256 public key (hex) of the session signing key. */
  publicKey: string;
  /** The session signing key (hex). */
  privateKey: string;
  /** A `Service-Wallet-Signature` over the exact payloadToSign. */
  stamp(payloadToSign: string): Promise<string>;
}

/** A customer with an EMBEDDED_WALLET account and the account's EMAIL_OTP credential. */
export interface Wallet {
  customerId: string;
  accountId: string;
  emailOtpId: string;
}

function expectStatus(reply: Reply, status: number, what: string): void {
  if (reply.status !== status)
    throw new Error(`${what}: expected ${status}, got ${reply.status} ${JSON.stringify(reply.body)}`);
}

/** The session a verify or refresh answer issued, its key opened with the client private key it was sealed to. */
export function openSession(body: AuthSession, clientPrivateKey: string, authMethodId: string): WalletSession {
  if (typeof body.encryptedSessionSigningKey !== 'string')
    throw new Error(`the answer carries no encryptedSessionSigningKey: ${JSON.stringify(body)}`);
  return sessionOf(body, openSessionKey(body.encryptedSessionSigningKey, clientPrivateKey), authMethodId);
}

function sessionOf(body: AuthSession, key: SessionKey, authMethodId: string): WalletSession {
  return {
    id: body.id,
    accountId: body.accountId,
    authMethodId,
    body,
    key,
    publicKey: key.publicKey,
    privateKey: key.privateKey,
    stamp: (payloadToSign) => key.signature(payloadToSign),
  };
}

/**
 * Opens an EMBEDDED_WALLET account for the customer (which provisions its EMAIL_OTP credential from the customer's
 * email), through the client package.
 */
export async function openWalletAccount(
  api: Client,
  customerId: string,
  currency = 'USD',
): Promise<{ accountId: string; emailOtpId: string }> {
  const account = await api.payments.post<{ id: string }>('/customers/internal-accounts', {
    customerId,
    type: 'EMBEDDED_WALLET',
    currency,
  });
  const credentials = await api.payments.get<Page<AuthMethod>>('/auth/credentials', { accountId: account.id });
  const emailOtp = credentials.data.find((c) => c.type === 'EMAIL_OTP');
  if (!emailOtp)
    throw new Error(`account ${account.id} has no EMAIL_OTP credential (does the customer have an email?)`);
  return { accountId: account.id, emailOtpId: emailOtp.id };
}

/** A customer with an email (unique per call unless given) and an EMBEDDED_WALLET account. */
export async function createWallet(api: Client, options: { email?: string; currency?: string } = {}): Promise<Wallet> {
  const name = uniqueValue('wallet-holder');
  const customer = await api.payments.post<{ id: string }>('/customers', {
    platformCustomerId: name,
    customerType: 'INDIVIDUAL',
    fullName: 'Wallet Holder',
    email: options.email ?? `${name}@example.com`,
  });
  return { customerId: customer.id, ...(await openWalletAccount(api, customer.id, options.currency ?? 'USDC')) };
}

/**
 * EMAIL_OTP: the challenge (unless `challenge: false`, for a second session on one code), then the client package's
 * verify with the sandbox code `000000` and a fresh client key pair.
 */
export async function emailOtpSession(
  api: Client,
  emailOtpId: string,
  options: { challenge?: boolean } = {},
): Promise<WalletSession> {
  if (options.challenge !== false)
    expectStatus(await api.post(`/auth/credentials/${emailOtpId}/challenge`, {}), 200, 'EMAIL_OTP challenge');
  const { session, key } = await startWalletSession(api.payments, emailOtpId, { type: 'EMAIL_OTP', otp: '000000' });
  return sessionOf(session, key, emailOtpId);
}

/** A wallet account of the customer with a verified session on it. */
export async function walletSession(api: Client, customerId: string, currency = 'USD'): Promise<WalletSession> {
  const { emailOtpId } = await openWalletAccount(api, customerId, currency);
  return emailOtpSession(api, emailOtpId);
}

/** An individual customer with its fiat accounts and an embedded USD wallet with a verified session. */
export interface WalletHolder {
  customerId: string;
  kycStatus?: string;
  /** Internal account ids by currency code. */
  accounts: Record<string, string>;
  /** The USD account. */
  usd: string;
  wallet: WalletSession;
}

/**
 * Onboards a wallet holder through the client package: the customer (`name`, unique per call unless given, is its
 * platformCustomerId and names its email), its accounts, and an EMBEDDED_WALLET in USD with a verified session.
 */
export async function walletHolder(
  api: Client,
  options: { name?: string; email?: string; fullName?: string; currencies?: string[] } = {},
): Promise<WalletHolder> {
  const name = options.name ?? uniqueValue('holder');
  const customer = await api.payments.post<Customer>('/customers', {
    platformCustomerId: name,
    customerType: 'INDIVIDUAL',
    fullName: options.fullName ?? 'Ada Lovelace',
    email: options.email ?? `${name}@example.com`,
    currencies: options.currencies ?? ['USD'],
  });
  const page = await api.payments.get<Page<InternalAccount>>('/customers/internal-accounts', {
    customerId: customer.id,
  });
  const accounts = Object.fromEntries(page.data.map((a) => [a.balance.currency.code, a.id]));
  return {
    customerId: customer.id,
    kycStatus: customer.kycStatus,
    accounts,
    usd: accounts.USD,
    wallet: await walletSession(api, customer.id, 'USD'),
  };
}

/** Step 1 of a signed retry: the 202 challenge (anything else throws). */
export async function challengeFor(
  api: Client,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ payloadToSign: string; requestId: string; expiresAt: string; type?: string }> {
  const first = await api.request(method, path, body);
  expectStatus(first, 202, `${method} ${path} challenge`);
  if (typeof first.body.payloadToSign !== 'string') throw new Error('the challenge carries no payloadToSign');
  return first.body;
}

/**
 * Both steps of a signed retry: the request, and when it answers the 202 challenge, the same request stamped by
 * `session` with the challenge's Request-Id. A first answer that is not 202 (a refusal before any challenge, or an
 * idempotent replay) is returned as both.
 */
export async function signedRequest(
  api: Client,
  method: string,
  path: string,
  body: unknown,
  session: Pick<WalletSession, 'stamp'>,
): Promise<{ challenge: Reply; result: Reply }> {
  const challenge = await api.request(method, path, body);
  if (challenge.status !== 202) return { challenge, result: challenge };
  const headers = await retryHeaders(session, challenge.body.payloadToSign, challenge.body.requestId);
  return { challenge, result: await api.request(method, path, body, headers) };
}

/** The headers of a signed retry: `session`'s stamp over `payloadToSign`, and the challenge's `requestId`. */
export async function retryHeaders(
  session: Pick<WalletSession, 'stamp'>,
  payloadToSign: string,
  requestId: string,
): Promise<Record<string, string>> {
  return { 'Service-Wallet-Signature': await session.stamp(payloadToSign), 'Request-Id': requestId };
}

/** `signedRequest` for a call that must be challenged (a first answer other than 202 throws): step 2's answer. */
export async function signedCall(
  api: Client,
  session: Pick<WalletSession, 'stamp'>,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply> {
  const { challenge, result } = await signedRequest(api, method, path, body, session);
  expectStatus(challenge, 202, `${method} ${path} challenge`);
  return result;
}

/** Number of events in the wallet stream of `accountId` (to show a refused request changed nothing). */
export async function walletEventCount(
  eventStore: { readStream(name: string): Promise<unknown[]> },
  accountId: string,
): Promise<number> {
  return (await eventStore.readStream(`wallet-${accountId.split(':')[1]}`)).length;
}
