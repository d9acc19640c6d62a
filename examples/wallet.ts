/**
 * Embedded wallets, as a client holds them: open a wallet account for a customer, sign in with EMAIL_OTP and
 * keep the session signing key to stamp signed retries. It uses only the public HTTP API and the wallet helpers
 * of `@payments-platform/client` (built on Turnkey's public client libraries):
 *
 * - `generateClientKeyPair` makes the client key the session key is sealed to (the private half never leaves you);
 * - `openSessionKey` opens `encryptedSessionSigningKey` (HPKE, base58check) with that private key;
 * - the resulting `SessionKey` stamps a `payloadToSign`: the `Service-Wallet-Signature` header value.
 *
 * (`startWalletSession(client, credentialId, { type: 'EMAIL_OTP', otp })` does steps 2 to 5 below in one call.)
 */
import { generateClientKeyPair, openSessionKey, type SessionKey } from '@payments-platform/client';
import type { Page, PaymentsClient } from '@payments-platform/client';
import { check, show } from './setup.js';

export interface InternalAccount {
  id: string;
  type: 'INTERNAL_FIAT' | 'INTERNAL_CRYPTO' | 'EMBEDDED_WALLET';
  status: string;
  balance: { amount: number; currency: { code: string; decimals: number } };
  privateEnabled?: boolean;
}

export interface AuthMethod {
  id: string;
  accountId: string;
  type: 'EMAIL_OTP' | 'OAUTH' | 'PASSKEY';
  nickname: string;
}

export interface AuthSession extends Omit<AuthMethod, 'id'> {
  /** `Session:<uuid>`. */
  id: string;
  expiresAt: string;
  /** Only in the answer that issues the session (verify, refresh). */
  encryptedSessionSigningKey?: string;
}

export interface WalletSession {
  accountId: string;
  sessionId: string;
  expiresAt: string;
  /** Compressed P-256 public key (hex) of the session signing key: what the service knows of it. */
  publicKey: string;
  /** Holds the decrypted session signing key and stamps payloads with it. */
  stamper: SessionKey;
}

/**
 * Opens an EMBEDDED_WALLET internal account for the customer. The service provisions its EMAIL_OTP
 * credential from the customer's email, so the customer must have one.
 */
export async function openEmbeddedWallet(
  client: PaymentsClient,
  customerId: string,
  currency = 'USD',
): Promise<{ account: InternalAccount; emailOtp: AuthMethod }> {
  const account = await client.post<InternalAccount>('/customers/internal-accounts', {
    customerId,
    type: 'EMBEDDED_WALLET',
    currency,
  });
  const credentials = await client.get<Page<AuthMethod>>('/auth/credentials', { accountId: account.id });
  const emailOtp = credentials.data.find((c) => c.type === 'EMAIL_OTP');
  check(emailOtp, `wallet ${account.id} has no EMAIL_OTP credential (does the customer have an email?)`);
  return { account, emailOtp };
}

/**
 * Signs in with the EMAIL_OTP credential and returns a session whose signing key only this client holds.
 * `otp` is what the customer received by email; the sandbox accepts `000000`.
 */
export async function startEmailOtpSession(
  client: PaymentsClient,
  emailOtp: AuthMethod,
  otp = '000000',
): Promise<WalletSession> {
  // 1. Ask the service to send a one-time code to the credential's email address.
  await client.post(`/auth/credentials/${emailOtp.id}/challenge`, {});
  show('code sent to', emailOtp.nickname);

  // 2. A fresh P-256 key pair on the client. The service seals the new session's signing key to its
  //    public half (uncompressed, 04…), so only this client can open it.
  const clientKey = generateClientKeyPair();

  // 3. Verify the code, handing over the client public key.
  const session = await client.post<AuthSession>(`/auth/credentials/${emailOtp.id}/verify`, {
    type: 'EMAIL_OTP',
    otp,
    clientPublicKey: clientKey.publicKeyUncompressed,
  });
  check(session.encryptedSessionSigningKey, 'verify answered without encryptedSessionSigningKey');

  // 4. Open the sealed session signing key (a 32-byte P-256 private key) with the client private key; its
  //    compressed public key identifies the session in every stamp.
  const sessionKey = openSessionKey(session.encryptedSessionSigningKey, clientKey.privateKey);

  return {
    accountId: session.accountId,
    sessionId: session.id,
    expiresAt: session.expiresAt,
    publicKey: sessionKey.publicKey,
    stamper: sessionKey,
  };
}
