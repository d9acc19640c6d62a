import { expect } from '@jest/globals';
import { createECDH, createHash } from 'node:crypto';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { decryptCredentialBundle, generateP256KeyPair } from '@turnkey/crypto';
import type { Client, Reply } from '../support/service.js';

/**
 * Client-side helpers for the wallet e2e specs, built only on the public client libraries a real
 * integrator uses: `@turnkey/crypto` opens sealed session keys, `@turnkey/api-key-stamper` stamps.
 */
export interface WalletSession {
  id: string;
  /** Compressed public key of the session signing key (what stamps carry). */
  publicKey: string;
  /** Hex of the decrypted session private key. */
  privateKey: string;
  stamper: ApiKeyStamper;
  body: Record<string, any>;
}

export interface Wallet {
  customerId: string;
  accountId: string;
  emailOtpId: string;
}

let customerCounter = 0;

/** A customer with an email and an EMBEDDED_WALLET account (provisioned with its EMAIL_OTP credential). */
export async function createWallet(api: Client, options: { email?: string; currency?: string } = {}): Promise<Wallet> {
  customerCounter += 1;
  const email = options.email ?? `holder${customerCounter}@example.com`;
  const customer = await api.post('/customers', {
    platformCustomerId: `wallet-holder-${customerCounter}-${Date.now()}`,
    customerType: 'INDIVIDUAL',
    fullName: 'Wallet Holder',
    email,
  });
  expect(customer.status).toBe(201);
  const account = await api.post('/customers/internal-accounts', {
    customerId: customer.body.id,
    type: 'EMBEDDED_WALLET',
    currency: options.currency ?? 'USDC',
  });
  expect(account.status).toBe(201);
  const credentials = await api.get(`/auth/credentials?accountId=${encodeURIComponent(account.body.id)}`);
  expect(credentials.status).toBe(200);
  const emailOtp = credentials.body.data.find((c: any) => c.type === 'EMAIL_OTP');
  expect(emailOtp).toBeDefined();
  return { customerId: customer.body.id, accountId: account.body.id, emailOtpId: emailOtp.id };
}

/** Opens a session-issuing response with the client key, as an integrator's frontend would. */
export function openSession(body: Record<string, any>, clientPrivateKey: string): WalletSession {
  expect(typeof body.encryptedSessionSigningKey).toBe('string');
  const privateKey = decryptCredentialBundle(body.encryptedSessionSigningKey, clientPrivateKey);
  const publicKey = publicKeyOf(privateKey);
  return {
    id: body.id,
    publicKey,
    privateKey,
    stamper: new ApiKeyStamper({ apiPublicKey: publicKey, apiPrivateKey: privateKey }),
    body,
  };
}

/** Compressed P-256 public key (hex) of a private key (hex), via node:crypto. */
export function publicKeyOf(privateKeyHex: string): string {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKeyHex, 'hex'));
  return ecdh.getPublicKey('hex', 'compressed');
}

/** EMAIL_OTP: challenge, then verify with the sandbox code; returns the opened session. */
export async function emailOtpSession(
  api: Client,
  authMethodId: string,
  options: { challenge?: boolean } = {},
): Promise<WalletSession> {
  if (options.challenge !== false) {
    const challenged = await api.post(`/auth/credentials/${authMethodId}/challenge`, {});
    expect(challenged.status).toBe(200);
  }
  const client = generateP256KeyPair();
  const verified = await api.post(`/auth/credentials/${authMethodId}/verify`, {
    type: 'EMAIL_OTP',
    otp: '000000',
    clientPublicKey: client.publicKeyUncompressed,
  });
  expect(verified.status).toBe(200);
  return openSession(verified.body, client.privateKey);
}

export async function stamp(session: Pick<WalletSession, 'stamper'>, payloadToSign: string): Promise<string> {
  return (await session.stamper.stamp(payloadToSign)).stampHeaderValue;
}

/** Step 1 of a signed retry; expects the 202 challenge. */
export async function challengeFor(
  api: Client,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ payloadToSign: string; requestId: string; expiresAt: string; type?: string }> {
  const first = await api.request(method, path, body);
  expect({ status: first.status, body: first.body }).toMatchObject({ status: 202 });
  expect(first.body.payloadToSign).toEqual(expect.any(String));
  return first.body;
}

/** Both steps of a signed retry, stamped by `session`; returns the step-2 reply. */
export async function signedCall(
  api: Client,
  session: Pick<WalletSession, 'stamper'>,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply> {
  const challenge = await challengeFor(api, method, path, body);
  return api.request(method, path, body, {
    'Service-Wallet-Signature': await stamp(session, challenge.payloadToSign),
    'Request-Id': challenge.requestId,
  });
}

/** A JWT-shaped sandbox token: real claims, a dummy signature segment. */
export function sandboxToken(claims: Record<string, unknown>): string {
  const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signature = Buffer.from('dummy-signature').toString('base64url');
  return `${segment({ alg: 'RS256', typ: 'JWT' })}.${segment(claims)}.${signature}`;
}

/** Claims a sandbox OIDC token needs at `nowMs`, for the default Google issuer. */
export function googleClaims(nowMs: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const iat = Math.floor(nowMs / 1000);
  return {
    iss: 'https://accounts.google.com',
    aud: 'wallet-app',
    sub: 'google-user-1',
    email: 'holder@gmail.com',
    iat,
    exp: iat + 600,
    ...extra,
  };
}

/** Number of events in the wallet stream of `accountId` (to show a refused request changed nothing). */
export async function walletEventCount(
  eventStore: { readStream(name: string): Promise<unknown[]> },
  accountId: string,
): Promise<number> {
  return (await eventStore.readStream(`wallet-${accountId.split(':')[1]}`)).length;
}

/** The OIDC `nonce` a verify token must carry: lowercase hex sha256 of the exact clientPublicKey. */
export function oidcNonce(clientPublicKey: string): string {
  return createHash('sha256').update(clientPublicKey, 'utf8').digest('hex');
}
