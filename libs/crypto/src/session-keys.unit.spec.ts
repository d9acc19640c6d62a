import { describe, it, expect } from '@jest/globals';
import { createECDH } from 'node:crypto';
import { decryptCredentialBundle, generateP256KeyPair } from '@turnkey/crypto';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import bs58check from 'bs58check';
import { DomainError } from '#domain/errors.js';
import { issueSessionKey, sealToClientPublicKey } from './session-keys.js';
import { verifyStamp } from './stamp.js';

describe('session signing keys', () => {
  it("seals a fresh key that Turnkey's decryptCredentialBundle opens, and whose public key is returned", async () => {
    const client = generateP256KeyPair();
    const issued = await issueSessionKey(client.publicKeyUncompressed);

    expect(issued.publicKey).toMatch(/^0[23][0-9a-f]{64}$/);
    const privateKey = decryptCredentialBundle(issued.encryptedSessionSigningKey, client.privateKey);
    expect(privateKey).toMatch(/^[0-9a-f]{64}$/);
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'hex'));
    expect(ecdh.getPublicKey('hex', 'compressed')).toBe(issued.publicKey);
  });

  it('produces a bundle of a 33-byte compressed encapsulated key followed by the ciphertext', async () => {
    const client = generateP256KeyPair();
    const issued = await issueSessionKey(client.publicKeyUncompressed);
    const bytes = bs58check.decode(issued.encryptedSessionSigningKey);
    expect([0x02, 0x03]).toContain(bytes[0]);
    // 32-byte scalar plus the 16-byte GCM tag.
    expect(bytes.length).toBe(33 + 32 + 16);
  });

  it('gives a key whose ApiKeyStamper stamps verify, while other payloads and other keys fail', async () => {
    const client = generateP256KeyPair();
    const issued = await issueSessionKey(client.publicKeyUncompressed);
    const sessionPrivateKey = decryptCredentialBundle(issued.encryptedSessionSigningKey, client.privateKey);
    const stamper = new ApiKeyStamper({ apiPublicKey: issued.publicKey, apiPrivateKey: sessionPrivateKey });
    const payload = '{"requestId":"Request:00000000-0000-4000-8000-000000000001"}';
    const { stampHeaderValue } = await stamper.stamp(payload);

    expect(verifyStamp(stampHeaderValue, payload)).toEqual({ ok: true, publicKey: issued.publicKey });
    expect(verifyStamp(stampHeaderValue, payload + ' ')).toMatchObject({ ok: false, code: 'WALLET_SIGNATURE_INVALID' });

    const other = await issueSessionKey(client.publicKeyUncompressed);
    const otherKey = decryptCredentialBundle(other.encryptedSessionSigningKey, client.privateKey);
    const otherStamper = new ApiKeyStamper({ apiPublicKey: other.publicKey, apiPrivateKey: otherKey });
    const otherStamp = JSON.parse(
      Buffer.from((await otherStamper.stamp(payload)).stampHeaderValue, 'base64url').toString(),
    );
    const claimed = Buffer.from(JSON.stringify({ ...otherStamp, publicKey: issued.publicKey })).toString('base64url');
    expect(verifyStamp(claimed, payload)).toMatchObject({ ok: false, code: 'WALLET_SIGNATURE_INVALID' });
  });

  it('issues a different key every time', async () => {
    const client = generateP256KeyPair();
    const a = await issueSessionKey(client.publicKeyUncompressed);
    const b = await issueSessionKey(client.publicKeyUncompressed);
    expect(a.publicKey).not.toBe(b.publicKey);
  });

  it('cannot be opened with another client key', async () => {
    const client = generateP256KeyPair();
    const stranger = generateP256KeyPair();
    const issued = await issueSessionKey(client.publicKeyUncompressed);
    expect(() => decryptCredentialBundle(issued.encryptedSessionSigningKey, stranger.privateKey)).toThrow();
  });

  it('seals arbitrary bytes for export the same way', async () => {
    const client = generateP256KeyPair();
    const secret = Buffer.from(
      'abandon ability able about above absent absorb abstract absurd abuse access accident',
      'utf8',
    );
    const bundle = await sealToClientPublicKey(secret, client.publicKeyUncompressed.toUpperCase());
    expect(Buffer.from(decryptCredentialBundle(bundle, client.privateKey), 'hex').toString('utf8')).toBe(
      secret.toString('utf8'),
    );
  });

  it.each([
    ['compressed', () => generateP256KeyPair().publicKey],
    ['too short', () => '04' + 'ab'.repeat(10)],
    ['not hex', () => '04' + 'zz'.repeat(64)],
    ['off the curve', () => '04' + '11'.repeat(64)],
  ])('refuses a client key that is %s with INVALID_INPUT on clientPublicKey', async (_name, key) => {
    const error = await issueSessionKey(key()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({
      kind: 'invalid',
      code: 'INVALID_INPUT',
      details: { errors: [{ field: 'clientPublicKey' }] },
    });
  });
});
