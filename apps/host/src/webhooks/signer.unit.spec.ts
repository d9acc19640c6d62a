import { describe, expect, it } from '@jest/globals';
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { SecretBox } from '#crypto/secret-box.js';
import { generateWebhookKeys, newSealedWebhookSecret, openWebhookSecret } from '#application/webhooks/webhook-keys.js';
import { WebhookSigner } from './signer.js';

const platformId = 'Platform:00000000-0000-4000-8000-000000000001';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, for the same context only', () => {
    const sealed = box.seal('whsec_abc', 'webhook-secret:a');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]*\.[\w-]+$/);
    expect(sealed).not.toContain('abc');
    expect(box.open(sealed, 'webhook-secret:a').toString()).toBe('whsec_abc');
    expect(() => box.open(sealed, 'webhook-secret:b')).toThrow(/secrets key/);
    expect(box.seal('whsec_abc', 'webhook-secret:a')).not.toBe(sealed); // fresh nonce every time
  });

  it('refuses another key, tampering and malformed input', () => {
    const sealed = box.seal(Buffer.from([1, 2, 3]), 'ctx');
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'ctx')).toThrow();
    const [v, iv, ct, tag] = sealed.split('.');
    const flipped = Buffer.from(ct, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.open([v, iv, flipped.toString('base64url'), tag].join('.'), 'ctx')).toThrow();
    expect(() => box.open('garbage', 'ctx')).toThrow('not a sealed secret');
    expect(() => new SecretBox(randomBytes(16))).toThrow(RangeError);
  });
});

describe('webhook signing', () => {
  const box = new SecretBox(randomBytes(32));
  const keys = generateWebhookKeys(box, platformId);

  it('generates a P-256 key pair and a Standard Webhooks secret, private parts sealed', () => {
    const publicKey = createPublicKey(keys.publicKeyPem);
    expect(publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    expect(keys.sealedPrivateKey.startsWith('v1.')).toBe(true);
    expect(openWebhookSecret(box, platformId, keys)).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(() => openWebhookSecret(box, 'Platform:00000000-0000-4000-8000-000000000002', keys)).toThrow();
  });

  it('after a rotation, signs with the new and the replaced secret until the grace period ends', async () => {
    const rotated = { ...keys, sealedSecret: newSealedWebhookSecret(box, platformId) };
    const previous = { sealedSecret: keys.sealedSecret, validUntil: '2026-05-02T00:00:00.000Z' };
    const signer = new WebhookSigner(box, platformId, rotated, previous);
    const body = '{"id":"Webhook:2","type":"TEST"}';
    const now = new Date();
    const fresh = new Webhook(openWebhookSecret(box, platformId, rotated));
    const old = new Webhook(openWebhookSecret(box, platformId, keys));
    const during = await signer.headers('Webhook:2', body, now, new Date('2026-05-01T23:59:59.999Z'));
    expect(during['webhook-signature'].split(' ')).toEqual([
      fresh.sign('Webhook:2', now, body),
      old.sign('Webhook:2', now, body),
    ]);
    expect(fresh.verify(body, during)).toEqual(JSON.parse(body));
    expect(old.verify(body, during)).toEqual(JSON.parse(body));
    const after = await signer.headers('Webhook:2', body, now, new Date('2026-05-02T00:00:00.000Z'));
    expect(after['webhook-signature']).toBe(fresh.sign('Webhook:2', now, body));
    expect(() => old.verify(body, after)).toThrow();
  });

  it('signs the raw body with ECDSA P-256 (DER, base64) and with Standard Webhooks', async () => {
    const signer = new WebhookSigner(box, platformId, keys);
    const body = JSON.stringify({
      id: 'Webhook:1',
      type: 'TEST',
      timestamp: '2026-01-01T00:00:00.000Z',
      data: { note: 'é' },
    });
    const now = new Date();
    const headers = await signer.headers('Webhook:1', body, now);
    // The same Standard Webhooks signature the package makes.
    const standard = new Webhook(openWebhookSecret(box, platformId, keys));
    expect(headers['webhook-signature']).toBe(standard.sign('Webhook:1', now, body));
    expect(headers['content-type']).toBe('application/json');
    const header = JSON.parse(headers['x-service-signature']);
    expect(Object.keys(header)).toEqual(['v', 's']);
    expect(header.v).toBe('1');
    const signature = Buffer.from(header.s, 'base64');
    expect(signature[0]).toBe(0x30); // DER SEQUENCE
    expect(
      verify(
        'sha256',
        Buffer.from(body, 'utf8'),
        { key: createPublicKey(keys.publicKeyPem), dsaEncoding: 'der' },
        signature,
      ),
    ).toBe(true);
    expect(
      verify(
        'sha256',
        Buffer.from(body + ' ', 'utf8'),
        { key: createPublicKey(keys.publicKeyPem), dsaEncoding: 'der' },
        signature,
      ),
    ).toBe(false);
    expect(headers['webhook-id']).toBe('Webhook:1');
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(now.getTime() / 1000)));
    expect(new Webhook(openWebhookSecret(box, platformId, keys)).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() =>
      new Webhook(openWebhookSecret(box, platformId, keys)).verify(body.replace('TEST', 'FAKE'), headers),
    ).toThrow();
  });

  it('signs the same way on the event loop as on the thread pool', async () => {
    const body = '{"id":"Webhook:3","type":"TEST"}';
    const now = new Date();
    const [pool, loop] = await Promise.all(
      [false, true].map((onLoop) =>
        new WebhookSigner(box, platformId, keys, undefined, onLoop).headers('Webhook:3', body, now),
      ),
    );
    expect(loop['webhook-signature']).toBe(pool['webhook-signature']);
    const signature = Buffer.from(JSON.parse(loop['x-service-signature']).s, 'base64');
    const key = { key: createPublicKey(keys.publicKeyPem), dsaEncoding: 'der' as const };
    expect(verify('sha256', Buffer.from(body, 'utf8'), key, signature)).toBe(true);
  });
});
