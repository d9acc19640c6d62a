import { createPublicKey, randomBytes, randomUUID, verify, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { hashSecret, secretMatches } from '#crypto/secrets.js';
import { requestBody } from '../support/request-body.js';
import { guardedLog, openGuarded, perTurn } from './raw-guarded-log.js';
import { isMain, serveBenchProcess, startBenchProcess, type BenchProcess } from './bench-process.js';

const SPKI_COMPRESSED_P256 = Buffer.from('3039301306072a8648ce3d020106082a8648ce3d030107032200', 'hex');

export interface RawSignedRetryServer {
  /** Origin, e.g. http://127.0.0.1:1234 (resources are registered with their full path). */
  origin: string;
  /** Registers a resource at `path` whose changes must be stamped by `sessionPublicKey` (compressed hex). */
  register(path: string, sessionPublicKey: string, state: Record<string, unknown>): void;
  close(): Promise<void>;
}

/**
 * `guarded` keeps the service's guarantees (see `guardedLog`) in a file in `dir`: each request authenticated by
 * `auth` (a Basic Authorization header, its secret checked against a SHA-256 hash as the service checks its tokens);
 * step 1's challenge and step 2's consumption with the change it authorizes appended as events of the resource's
 * stream, chained by hash, the resource's document written beside step 2's; each reply sent once its turn's
 * transaction is synced.
 */
export type RawSignedRetryOptions = { guarded?: false } | { guarded: true; dir: string; auth: string };

const PLATFORM = 'Platform:raw';

/** A fresh Authorization header for a guarded server: `Basic` with a token id and a secret of 32 random bytes. */
export const guardedAuth = () =>
  `Basic ${Buffer.from(`raw-token:${randomBytes(32).toString('base64url')}`).toString('base64')}`;

/**
 * The raw reference of the signed-retry benchmarks: a bare node:http server doing the same work
 * for `PATCH <path>` as the service's signed retry, with node:crypto and nothing else. Step 1
 * stores a challenge; step 2 checks the single-use requestId, expiry, target and body echo, the
 * stamp's scheme and session key, verifies ECDSA P-256/SHA-256 over the stored payload with a
 * cached KeyObject, and merges the body into the resource held in memory. No framework, no
 * authentication, no storage, unless `guarded` (RawSignedRetryOptions).
 */
export async function startRawSignedRetryServer(options: RawSignedRetryOptions = {}): Promise<RawSignedRetryServer> {
  const guard = options.guarded ? guarded(options.dir, options.auth) : undefined;
  const resources = new Map<string, { sessionKey: string; state: Record<string, unknown> }>();
  const challenges = new Map<
    string,
    { path: string; payloadToSign: string; body: string; expiresAt: number; consumed: boolean }
  >();
  const keys = new Map<string, KeyObject>();
  const keyObject = (hex: string) => {
    let key = keys.get(hex);
    if (!key)
      keys.set(
        hex,
        (key = createPublicKey({
          key: Buffer.concat([SPKI_COMPRESSED_P256, Buffer.from(hex, 'hex')]),
          format: 'der',
          type: 'spki',
        })),
      );
    return key;
  };
  const server: Server = createServer(async (req, res) => {
    const reply = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const raw = await requestBody(req);
    if (guard && !guard.authenticated(req.headers.authorization)) return reply(401, { reason: 'authorization' });
    const path = decodeURIComponent(req.url ?? '');
    const resource = resources.get(path);
    if (req.method !== 'PATCH' || !resource) return reply(404, {});
    const body = JSON.parse(raw) as Record<string, unknown>;
    const signature = req.headers['service-wallet-signature'];
    const requestId = req.headers['request-id'];
    if (typeof signature !== 'string' || typeof requestId !== 'string') {
      const id = `Request:${randomUUID()}`;
      const expiresAt = Date.now() + 300_000;
      const payloadToSign = JSON.stringify({
        body,
        expiresAt: new Date(expiresAt).toISOString(),
        operation: `PATCH ${path}`,
        requestId: id,
        signer: resource.sessionKey,
      });
      challenges.set(id, { path, payloadToSign, body: JSON.stringify(body), expiresAt, consumed: false });
      const challenged = () =>
        reply(202, { payloadToSign, requestId: id, expiresAt: new Date(expiresAt).toISOString() });
      if (!guard) return challenged();
      const issued = { requestId: id, operation: `PATCH ${path}`, payloadToSign, expiresAt, issuedAt: Date.now() };
      return guard.commit(
        () => guard.log.append(path, [{ type: 'SignedRetryChallengeIssued', data: issued }], guard.actor),
        challenged,
      );
    }
    const challenge = challenges.get(requestId);
    if (!challenge || challenge.consumed || challenge.expiresAt <= Date.now() || challenge.path !== path)
      return reply(401, { reason: 'requestId' });
    if (challenge.body !== JSON.stringify(body)) return reply(401, { reason: 'body' });
    let stamp: { publicKey: string; scheme: string; signature: string };
    try {
      stamp = JSON.parse(Buffer.from(signature, 'base64url').toString('utf8'));
    } catch {
      return reply(401, { reason: 'malformed' });
    }
    if (stamp.scheme !== 'SIGNATURE_SCHEME_TK_API_P256' || stamp.publicKey !== resource.sessionKey)
      return reply(401, { reason: 'key' });
    if (
      !verify(
        'sha256',
        Buffer.from(challenge.payloadToSign, 'utf8'),
        { key: keyObject(stamp.publicKey), dsaEncoding: 'der' },
        Buffer.from(stamp.signature, 'hex'),
      )
    ) {
      return reply(401, { reason: 'signature' });
    }
    challenge.consumed = true;
    Object.assign(resource.state, body);
    if (!guard) return reply(200, resource.state);
    const state = { ...resource.state };
    return guard.commit(
      () => {
        const consumed = { requestId, sessionPublicKey: stamp.publicKey, consumedAt: new Date().toISOString() };
        guard.log.append(
          path,
          [
            { type: 'SignedRetryConsumed', data: consumed },
            { type: 'ResourceChanged', data: { changes: body, state } },
          ],
          guard.actor,
        );
        guard.log.putDoc('resources', path, state);
      },
      () => reply(200, state),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    register: (path, sessionKey, state) => void resources.set(path, { sessionKey, state }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          guard?.close();
          resolve();
        });
      }),
  };
}

/** What the guarded server keeps: its file, its log, its turn's commit, and the check of its one token. */
function guarded(dir: string, auth: string) {
  const db = openGuarded(join(dir, 'raw-signed-retry-guarded.db'));
  const [id, secret] = Buffer.from(auth.replace(/^Basic /, ''), 'base64')
    .toString('utf8')
    .split(':');
  const tokens = new Map([[id, hashSecret(secret)]]);
  return {
    /** Who the events are recorded as: the one token. */
    actor: `Token:${id}`,
    log: guardedLog(db, PLATFORM),
    commit: perTurn(db),
    authenticated(header: string | undefined): boolean {
      if (!header?.startsWith('Basic ')) return false;
      const [tokenId, tokenSecret] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
      const stored = tokens.get(tokenId);
      return stored !== undefined && tokenSecret !== undefined && secretMatches(tokenSecret, stored);
    },
    close: () => db.close(),
  };
}

/** One resource of the raw server: its path, the session key that must stamp its changes, its state. */
export interface RawResource {
  path: string;
  sessionPublicKey: string;
  state: Record<string, unknown>;
}

/**
 * The raw server in a process of its own, as the service runs in the benchmarks: `register` takes a list of
 * `RawResource`s, and `cpu` (see `bench-process.ts`) its CPU time.
 */
export const startRawSignedRetryProcess = (options: RawSignedRetryOptions = {}) =>
  startBenchProcess<{ origin: string }>(import.meta.url, options) as Promise<BenchProcess<{ origin: string }>>;

if (isMain(import.meta.url)) {
  serveBenchProcess(async (options: RawSignedRetryOptions) => {
    const raw = await startRawSignedRetryServer(options);
    return {
      ready: { origin: raw.origin },
      handlers: {
        register: (resources: RawResource[]) =>
          resources.forEach((r) => raw.register(r.path, r.sessionPublicKey, r.state)),
      },
      close: raw.close,
    };
  });
}
