import { describe, it, expect } from '@jest/globals';
import { createECDH, createPrivateKey, sign } from 'node:crypto';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { BoundedKeyCache, normalizeCompressedPublicKey, parseStamp, verifyStamp, STAMP_SCHEME } from './stamp.js';

const N = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

function keyPair() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    privateKey: ecdh.getPrivateKey('hex').padStart(64, '0'),
    publicKey: ecdh.getPublicKey('hex', 'compressed'),
    uncompressed: ecdh.getPublicKey('hex', 'uncompressed'),
  };
}

async function turnkeyStamp(payload: string, key = keyPair()): Promise<string> {
  const stamper = new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey });
  return (await stamper.stamp(payload)).stampHeaderValue;
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
const decode = (stamp: string) =>
  JSON.parse(Buffer.from(stamp, 'base64url').toString('utf8')) as Record<string, string>;

/** Rewrites a DER signature with s replaced by n - s: the other valid signature for the same message. */
function toHighS(derHex: string): string {
  const der = Buffer.from(derHex, 'hex');
  const rLen = der[3];
  const r = der.subarray(4, 4 + rLen);
  const sLen = der[5 + rLen];
  const s = BigInt('0x' + der.subarray(6 + rLen, 6 + rLen + sLen).toString('hex'));
  const flipped = N - s;
  let sHex = flipped.toString(16);
  if (sHex.length % 2) sHex = '0' + sHex;
  if (parseInt(sHex.slice(0, 2), 16) >= 0x80) sHex = '00' + sHex;
  const sBytes = Buffer.from(sHex, 'hex');
  const body = Buffer.concat([Buffer.from([0x02, r.length]), r, Buffer.from([0x02, sBytes.length]), sBytes]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body]).toString('hex');
}

describe('Service-Wallet-Signature stamps', () => {
  const payload = '{"accountId":"InternalAccount:1","method":"DELETE","requestId":"Request:1"}';

  it("verifies a stamp produced by Turnkey's ApiKeyStamper and returns the signing key", async () => {
    const key = keyPair();
    const result = verifyStamp(await turnkeyStamp(payload, key), payload);
    expect(result).toEqual({ ok: true, publicKey: key.publicKey });
  });

  it('refuses a stamp over a modified payload as an invalid signature', async () => {
    const stamp = await turnkeyStamp(payload);
    const result = verifyStamp(stamp, payload.replace('DELETE', 'PATCH'));
    expect(result).toMatchObject({ ok: false, code: 'WALLET_SIGNATURE_INVALID' });
  });

  it('refuses a signature made by another key than the one the stamp names', async () => {
    const a = keyPair();
    const byB = decode(await turnkeyStamp(payload));
    const forged = encode({ ...byB, publicKey: a.publicKey });
    expect(verifyStamp(forged, payload)).toMatchObject({ ok: false, code: 'WALLET_SIGNATURE_INVALID' });
  });

  it('reports which key signed, so a valid stamp by a stranger key is still refused by the session check', async () => {
    const a = keyPair();
    const b = keyPair();
    const result = verifyStamp(await turnkeyStamp(payload, b), payload);
    expect(result).toEqual({ ok: true, publicKey: b.publicKey });
    expect(result.ok && result.publicKey).not.toBe(a.publicKey);
  });

  it('accepts high-S signatures', () => {
    const key = keyPair();
    const privateKey = createPrivateKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        d: Buffer.from(key.privateKey, 'hex').toString('base64url'),
        x: Buffer.from(key.uncompressed.slice(2, 66), 'hex').toString('base64url'),
        y: Buffer.from(key.uncompressed.slice(66), 'hex').toString('base64url'),
      },
      format: 'jwk',
    });
    const low = sign('sha256', Buffer.from(payload), { key: privateKey, dsaEncoding: 'der' }).toString('hex');
    const high = toHighS(low);
    expect(high).not.toBe(low);
    for (const signature of [low, high]) {
      expect(verifyStamp(encode({ publicKey: key.publicKey, scheme: STAMP_SCHEME, signature }), payload)).toEqual({
        ok: true,
        publicKey: key.publicKey,
      });
    }
  });

  it('accepts an uppercase public key and returns it normalized', async () => {
    const key = keyPair();
    const stamp = decode(await turnkeyStamp(payload, key));
    const result = verifyStamp(encode({ ...stamp, publicKey: key.publicKey.toUpperCase() }), payload);
    expect(result).toEqual({ ok: true, publicKey: key.publicKey });
  });

  describe('malformed stamps are told apart from bad signatures', () => {
    const valid = { publicKey: keyPair().publicKey, scheme: STAMP_SCHEME, signature: '3006020101020101' };
    const offCurve = (() => {
      for (let x = 1; ; x += 1) {
        const candidate = '02' + x.toString(16).padStart(64, '0');
        if (!normalizeCompressedPublicKey(candidate)) return candidate;
      }
    })();
    const cases: Array<[string, unknown]> = [
      ['empty', ''],
      ['not a string', 42],
      ['not base64url', 'a+b/c'],
      ['padded base64', encode(valid) + '=='],
      ['not JSON', Buffer.from('not json').toString('base64url')],
      ['a JSON array', encode([valid])],
      ['a missing field', encode({ publicKey: valid.publicKey, scheme: STAMP_SCHEME })],
      ['an extra field', encode({ ...valid, extra: 1 })],
      ['a wrong scheme', encode({ ...valid, scheme: 'SIGNATURE_SCHEME_TK_API_SECP256K1' })],
      ['an uncompressed key', encode({ ...valid, publicKey: keyPair().uncompressed })],
      ['a key off the curve', encode({ ...valid, publicKey: offCurve })],
      ['a non-hex signature', encode({ ...valid, signature: 'zz' })],
      ['an oversized signature', encode({ ...valid, signature: 'ab'.repeat(80) })],
    ];
    it.each(cases)('%s', (_name, header) => {
      const result = verifyStamp(header, payload);
      expect(result).toMatchObject({ ok: false, code: 'WALLET_SIGNATURE_MALFORMED' });
      expect(parseStamp(header).ok).toBe(false);
    });

    it('garbage DER in a well-formed stamp is an invalid signature, not a malformed stamp', () => {
      expect(verifyStamp(encode({ ...valid, signature: 'deadbeef' }), payload)).toMatchObject({
        ok: false,
        code: 'WALLET_SIGNATURE_INVALID',
      });
    });
  });

  it('keeps the keys used lately within its bound, creating a key once while it is kept', () => {
    const cache = new BoundedKeyCache<number>(4);
    let created = 0;
    const make = () => ++created;
    cache.get('a', make);
    cache.get('b', make);
    cache.get('a', make); // used again: a outlives b
    cache.get('c', make);
    expect(cache.has('a')).toBe(true);
    expect(cache.has('c')).toBe(true);
    expect(cache.has('b')).toBe(false);
    expect(created).toBe(3);
    for (let i = 0; i < 100; i++) cache.get(`k${i}`, make);
    expect(Array.from({ length: 100 }, (_, i) => cache.has(`k${i}`)).filter(Boolean).length).toBeLessThanOrEqual(4);
  });
});
