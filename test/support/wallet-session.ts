import { createECDH } from 'node:crypto';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { decryptCredentialBundle, generateP256KeyPair } from '@turnkey/crypto';
import type { Client, Reply } from './service.js';

/**
 * A wallet session as an integrator's client holds it, built with the public Turnkey client
 * libraries only: the sealed session key opened with `decryptCredentialBundle`, stamps made with
 * `ApiKeyStamper`. No test framework inside, so benchmarks can use it too.
 */
export interface WalletSession {
  accountId: string;
  authMethodId: string;
  sessionId: string;
  /** Compressed P-256 public key (hex) of the session signing key. */
  publicKey: string;
  /** The decrypted session signing key (hex); it never leaves the client. */
  privateKey: string;
  /** A `Service-Wallet-Signature` over the exact payloadToSign, made by `ApiKeyStamper`. */
  stamp(payloadToSign: string): Promise<string>;
}

function expectStatus(reply: Reply, status: number, what: string): void {
  if (reply.status !== status)
    throw new Error(`${what}: expected ${status}, got ${reply.status} ${JSON.stringify(reply.body)}`);
}

/**
 * Opens an EMBEDDED_WALLET account for the customer (which provisions its EMAIL_OTP credential from the customer's
 * email).
 */
export async function openWalletAccount(
  api: Client,
  customerId: string,
  currency = 'USD',
): Promise<{ accountId: string; emailOtpId: string }> {
  const account = await api.post('/customers/internal-accounts', { customerId, type: 'EMBEDDED_WALLET', currency });
  expectStatus(account, 201, 'open EMBEDDED_WALLET account');
  const credentials = await api.get(`/auth/credentials?accountId=${encodeURIComponent(account.body.id)}`);
  expectStatus(credentials, 200, 'list credentials');
  const emailOtp = (credentials.body.data as { id: string; type: string }[]).find((c) => c.type === 'EMAIL_OTP');
  if (!emailOtp)
    throw new Error(`account ${account.body.id} has no EMAIL_OTP credential (does the customer have an email?)`);
  return { accountId: account.body.id, emailOtpId: emailOtp.id };
}

/** EMAIL_OTP challenge, then verify with the sandbox code `000000` and a fresh client key pair. */
export async function startWalletSession(api: Client, accountId: string, emailOtpId: string): Promise<WalletSession> {
  expectStatus(await api.post(`/auth/credentials/${emailOtpId}/challenge`, {}), 200, 'EMAIL_OTP challenge');
  const client = generateP256KeyPair();
  const verified = await api.post(`/auth/credentials/${emailOtpId}/verify`, {
    type: 'EMAIL_OTP',
    otp: '000000',
    clientPublicKey: client.publicKeyUncompressed,
  });
  expectStatus(verified, 200, 'EMAIL_OTP verify');
  const privateKey = decryptCredentialBundle(verified.body.encryptedSessionSigningKey, client.privateKey);
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'hex'));
  const publicKey = ecdh.getPublicKey('hex', 'compressed');
  const stamper = new ApiKeyStamper({ apiPublicKey: publicKey, apiPrivateKey: privateKey });
  return {
    accountId,
    authMethodId: emailOtpId,
    sessionId: verified.body.id,
    publicKey,
    privateKey,
    stamp: async (payloadToSign) => (await stamper.stamp(payloadToSign)).stampHeaderValue,
  };
}

/** A wallet account of the customer with a verified session on it. */
export async function walletSession(api: Client, customerId: string, currency = 'USD'): Promise<WalletSession> {
  const { accountId, emailOtpId } = await openWalletAccount(api, customerId, currency);
  return startWalletSession(api, accountId, emailOtpId);
}

/** Both steps of a signed retry: the 202 challenge, then the same request stamped by `session`. */
export async function signedRequest(
  api: Client,
  method: string,
  path: string,
  body: unknown,
  session: Pick<WalletSession, 'stamp'>,
): Promise<{ challenge: Reply; result: Reply }> {
  const challenge = await api.request(method, path, body);
  if (challenge.status !== 202) return { challenge, result: challenge };
  const signature = await session.stamp(challenge.body.payloadToSign);
  const result = await api.request(method, path, body, {
    'service-wallet-signature': signature,
    'request-id': challenge.body.requestId,
  });
  return { challenge, result };
}
