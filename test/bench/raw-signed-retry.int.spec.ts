import { createECDH } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { verifyChain } from '#event-store/hash-chain.js';
import { Sqlite } from '#sqlite/driver.js';
import { nodeStamper } from './cards-load.js';
import { guardedAuth, startRawSignedRetryServer, type RawSignedRetryServer } from './raw-signed-retry.js';

const PATH = '/cards/Card:1';

/** A session key pair: the compressed public key the server knows, and stamps made with its private key. */
function sessionKey() {
  const ecdh = createECDH('prime256v1');
  // A private key of 32 bytes (one in 256 has a leading zero byte, which the stamp's JWK would not take).
  do ecdh.generateKeys();
  while (ecdh.getPrivateKey().length !== 32);
  const publicKey = ecdh.getPublicKey('hex', 'compressed');
  return { publicKey, stamp: nodeStamper(publicKey, ecdh.getPrivateKey('hex')) };
}

describe('the guarded raw signed-retry reference', () => {
  let dir: string;
  let raw: RawSignedRetryServer;
  const auth = guardedAuth();
  const session = sessionKey();

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'raw-signed-retry-'));
    raw = await startRawSignedRetryServer({ guarded: true, dir, auth });
    raw.register(PATH, session.publicKey, { id: 'Card:1', state: 'ACTIVE' });
  });

  afterEach(async () => {
    await raw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const patch = async (body: unknown, headers: Record<string, string>) => {
    const response = await fetch(`${raw.origin}${PATH}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };

  const events = () => {
    const db = new Sqlite(join(dir, 'raw-signed-retry-guarded.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT stream, revision, type, data, metadata FROM events ORDER BY position').all() as {
        stream: string;
        revision: number;
        type: string;
        data: string;
        metadata: string;
      }[];
      const doc = db.prepare('SELECT body FROM docs WHERE collection = ? AND id = ?').get('resources', PATH) as
        { body: string } | undefined;
      return {
        events: rows.map((row) => ({
          streamName: row.stream,
          revision: BigInt(row.revision),
          type: row.type,
          data: JSON.parse(row.data) as unknown,
          metadata: JSON.parse(row.metadata) as Record<string, unknown>,
        })),
        doc: doc && (JSON.parse(doc.body) as unknown),
      };
    } finally {
      db.close();
    }
  };

  it('records the challenge, then its consumption with the change, chained by hash, and the document', async () => {
    const challenge = await patch({ state: 'FROZEN' }, { authorization: auth });
    expect(challenge.status).toBe(202);
    const done = await patch(
      { state: 'FROZEN' },
      {
        authorization: auth,
        'request-id': challenge.body.requestId,
        'service-wallet-signature': await session.stamp(challenge.body.payloadToSign),
      },
    );

    expect(done).toEqual({ status: 200, body: { id: 'Card:1', state: 'FROZEN' } });
    const { events: log, doc } = events();
    expect(log.map((e) => e.type)).toEqual(['SignedRetryChallengeIssued', 'SignedRetryConsumed', 'ResourceChanged']);
    expect(verifyChain(log)).toBeUndefined();
    expect(doc).toEqual({ id: 'Card:1', state: 'FROZEN' });
  });

  it('refuses a request without the token, or with another secret, and records nothing', async () => {
    const [id] = Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':');
    const other = `Basic ${Buffer.from(`${id}:another-secret`).toString('base64')}`;

    expect((await patch({ state: 'FROZEN' }, {})).status).toBe(401);
    expect((await patch({ state: 'FROZEN' }, { authorization: other })).status).toBe(401);
    expect(events()).toEqual({ events: [], doc: undefined });
  });
});
