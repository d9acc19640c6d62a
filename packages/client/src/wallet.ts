/**
 * Embedded-wallet keys as a client holds them, with Turnkey's public client libraries:
 * - `generateClientKeyPair` makes the P-256 key pair the service seals a new session signing key to
 *   (send `publicKeyUncompressed` as `clientPublicKey`; the private half never leaves the client);
 * - `openSessionKey` decrypts `encryptedSessionSigningKey` (HPKE, base58check) with that private key;
 * - a `SessionKey` stamps payloads: the `Service-Wallet-Signature` header value of a signed retry, and it is the
 *   `Stamper` that `PaymentsClient.signed` takes.
 */
import { createECDH } from 'node:crypto';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { decryptCredentialBundle, generateP256KeyPair } from '@turnkey/crypto';
import type { PaymentsClient, Stamper } from './client.js';
import type { AuthSession } from './types.js';

export interface ClientKeyPair {
  /** Hex; keep it on the client. */
  privateKey: string;
  /** Compressed public key (hex). */
  publicKey: string;
  /** Uncompressed public key (hex, `04…`): the `clientPublicKey` of a verify or refresh. */
  publicKeyUncompressed: string;
}

/** A fresh P-256 key pair for one verify or refresh. */
export function generateClientKeyPair(): ClientKeyPair {
  return generateP256KeyPair();
}

/** A decrypted session signing key: stamps payloads for signed retries. */
export class SessionKey implements Stamper {
  private readonly stamper: ApiKeyStamper;

  constructor(
    /** The session signing key (32 bytes, hex). */
    readonly privateKey: string,
    /** Its compressed public key (hex): what the service knows of the session. */
    readonly publicKey: string = compressedPublicKey(privateKey),
  ) {
    this.stamper = new ApiKeyStamper({ apiPublicKey: publicKey, apiPrivateKey: privateKey });
  }

  /** Stamps `payload` byte for byte, in the shape `ApiKeyStamper` returns. */
  stamp(payload: string): Promise<{ stampHeaderName: string; stampHeaderValue: string }> {
    return this.stamper.stamp(payload);
  }

  /** The `Service-Wallet-Signature` header value for a challenge's `payloadToSign`. */
  async signature(payloadToSign: string): Promise<string> {
    return (await this.stamp(payloadToSign)).stampHeaderValue;
  }
}

/** Opens `encryptedSessionSigningKey` with the client private key the session was sealed to. */
export function openSessionKey(encryptedSessionSigningKey: string, clientPrivateKey: string): SessionKey {
  return new SessionKey(decryptCredentialBundle(encryptedSessionSigningKey, clientPrivateKey));
}

/** Compressed P-256 public key (hex) of a private key (hex). */
export function compressedPublicKey(privateKey: string): string {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'hex'));
  return ecdh.getPublicKey('hex', 'compressed');
}

/** A verified session whose signing key only this client holds. */
export interface WalletSession {
  session: AuthSession;
  key: SessionKey;
}

/**
 * The verify body without `clientPublicKey` (added here): `{ type: 'EMAIL_OTP', otp }`,
 * `{ type: 'OAUTH', oidcToken }`, …
 */
export type VerifyCredentialBody = { type: 'EMAIL_OTP' | 'OAUTH' | 'PASSKEY'; [field: string]: unknown };

/**
 * Verifies a credential (`POST /auth/credentials/{id}/verify`) with a fresh client key pair and opens the
 * session signing key the answer carries. For EMAIL_OTP, ask for the code first with
 * `POST /auth/credentials/{id}/challenge`; the sandbox accepts `000000`.
 */
export async function startWalletSession(
  client: PaymentsClient,
  credentialId: string,
  body: VerifyCredentialBody,
): Promise<WalletSession> {
  const clientKey = generateClientKeyPair();
  const session = await client.post<AuthSession>(`/auth/credentials/${encodeURIComponent(credentialId)}/verify`, {
    ...body,
    clientPublicKey: clientKey.publicKeyUncompressed,
  });
  if (!session.encryptedSessionSigningKey) throw new Error('the verify answer carries no encryptedSessionSigningKey');
  return { session, key: openSessionKey(session.encryptedSessionSigningKey, clientKey.privateKey) };
}
