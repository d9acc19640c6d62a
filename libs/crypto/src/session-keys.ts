import { createECDH } from 'node:crypto';
import { Aes256Gcm, CipherSuite, DhkemP256HkdfSha256, HkdfSha256 } from '@hpke/core';
import bs58check from 'bs58check';
import { invalid } from '#domain/errors.js';
import { compressPublicKey, uncompressedPublicKeyBytes } from './p256.js';

/**
 * Session signing keys are generated here, sealed to the client's `clientPublicKey` and
 * forgotten: only the public key leaves this module in the clear. The sealing is the one
 * Turnkey's `decryptCredentialBundle` opens: RFC 9180 base mode with DHKEM(P-256, HKDF-SHA256),
 * HKDF-SHA256 and AES-256-GCM, info `turnkey_hpke`, aad = encapsulated key || recipient key
 * (both uncompressed), bundle = base58check(compressed encapsulated key || ciphertext).
 */
const suite = new CipherSuite({ kem: new DhkemP256HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes256Gcm() });
const INFO = new TextEncoder().encode('turnkey_hpke');
const PRIVATE_SCALAR_BYTES = 32;

export interface IssuedSessionKey {
  /** Lowercase compressed SEC1 hex: what stamps made with the session key carry. */
  publicKey: string;
  /** base58check bundle that only the holder of the client private key can open. */
  encryptedSessionSigningKey: string;
}

function clientKeyBytes(clientPublicKeyHex: string): Buffer {
  const bytes = uncompressedPublicKeyBytes(clientPublicKeyHex);
  if (!bytes) {
    throw invalid(
      'INVALID_INPUT',
      'clientPublicKey must be an uncompressed P-256 public key in hex (04 followed by 128 hex characters)',
      'clientPublicKey',
    );
  }
  return bytes;
}

/** HPKE-seals `plaintext` to an uncompressed P-256 client key and returns the base58check bundle. */
export async function sealToClientPublicKey(plaintext: Uint8Array, clientPublicKeyHex: string): Promise<string> {
  const recipient = clientKeyBytes(clientPublicKeyHex);
  const recipientPublicKey = await suite.kem.deserializePublicKey(recipient);
  const sender = await suite.createSenderContext({ recipientPublicKey, info: INFO });
  const enc = new Uint8Array(sender.enc);
  const aad = Buffer.concat([enc, recipient]);
  const ciphertext = new Uint8Array(await sender.seal(plaintext, aad));
  return bs58check.encode(Buffer.concat([compressPublicKey(enc), ciphertext]));
}

/** A fresh P-256 session key pair; the private scalar is sealed to the client and then wiped. */
export async function issueSessionKey(clientPublicKeyHex: string): Promise<IssuedSessionKey> {
  clientKeyBytes(clientPublicKeyHex);
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const publicKey = ecdh.getPublicKey('hex', 'compressed');
  // OpenSSL may drop leading zero bytes of the scalar; the bundle always carries 32 bytes.
  const raw = ecdh.getPrivateKey();
  const scalar = Buffer.alloc(PRIVATE_SCALAR_BYTES);
  raw.copy(scalar, PRIVATE_SCALAR_BYTES - raw.length);
  try {
    const encryptedSessionSigningKey = await sealToClientPublicKey(scalar, clientPublicKeyHex);
    return { publicKey, encryptedSessionSigningKey };
  } finally {
    raw.fill(0);
    scalar.fill(0);
  }
}
