import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { idempotencyStream } from '#domain/idempotency/idempotency.js';
import { expectBalancedLedger } from '../support/ledger-check.js';
import { useTestService } from '../support/fixture.js';
import { emailOtpSession } from '../support/wallet-session.js';
import { CASES, DECLARED_ELSEWHERE, EXCLUDED, type Prepared, type Req } from './idempotency-cases.js';
import { fixtures, unique } from './idempotency-fixtures.js';

const clock = new ManualClock(Date.UTC(2026, 3, 6, 9));

describe('Idempotency-Key on every POST that creates or moves something', () => {
  const t = useTestService({ clock });
  const api = t.api;
  const f = fixtures(t, clock);

  const send = (p: Prepared, req: Req, headers: Record<string, string>) =>
    p.send ? p.send(req, headers) : api.post(req.path, req.body, headers);
  const stream = (key: string) => idempotencyStream(t.service.sandbox!.platformId, key);
  const events = (key: string) => t.service.infra.eventStore.readStream(stream(key));
  const eventTypes = async (key: string) => (await events(key)).map((e) => e.type);

  const title = 'POST %s: runs once per key, replays the first response, 422 for another request';
  it.each(CASES.map((c) => [c.op, c] as const))(title, async (_op, c) => {
    const p = await c.setup(f);
    const before = await p.effect();
    const headers = { 'idempotency-key': unique('key') };
    const first = await send(p, p.request, headers);
    expect({ status: first.status, body: first.body }).toEqual({ status: c.status, body: expect.anything() });
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await send(p, p.request, headers);
    // A secret shown once is left out of the replay.
    const shown = { ...first.body };
    for (const field of p.secretsOnce ?? []) delete shown[field];
    expect({ status: again.status, body: again.body }).toEqual({ status: first.status, body: shown });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await p.effect()).toBe(before + p.delta);
    const reused = await send(p, p.other, headers);
    expect({ status: reused.status, code: reused.body.code }).toEqual({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await p.effect()).toBe(before + p.delta);
  });

  it('keeps the ledger balanced after all of them', async () => {
    await expectBalancedLedger(t.service.infra.eventStore, t.service.sandbox!.platformId);
  });

  it('declares Idempotency-Key on exactly these operations; every other POST is excluded for a reason', async () => {
    const doc = (await t.anonymous.get('/openapi.json')).body;
    const posts = Object.entries(doc.paths as Record<string, Record<string, any>>)
      .filter(([, ops]) => ops.post)
      .map(([path, ops]) => [path, ops.post] as const);
    const declares = (op: any) =>
      (op.parameters ?? []).some((p: any) => p.name === 'Idempotency-Key' && p.in === 'header');
    const declaring = posts.filter(([, op]) => declares(op)).map(([path]) => path);
    expect(declaring.sort()).toEqual([...CASES.map((c) => c.op), ...Object.keys(DECLARED_ELSEWHERE)].sort());
    for (const [path, op] of posts) {
      if (!declares(op)) expect({ path, excluded: typeof EXCLUDED[path] }).toEqual({ path, excluded: 'string' });
      else expect({ path, has422: '422' in op.responses }).toEqual({ path, has422: true });
    }
  });

  it('seals stored responses; a new token’s secret is returned once: not replayed, never stored', async () => {
    const headers = { 'idempotency-key': unique('token') };
    const first = await api.post('/tokens', { name: 'sealed' }, headers);
    expect(first.body.clientSecret).toEqual(expect.any(String));
    const again = await api.post('/tokens', { name: 'sealed' }, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const { clientSecret, ...token } = first.body;
    expect(again.body).toEqual(token);
    expect(JSON.stringify(again.body)).not.toContain(clientSecret);
    const recorded = await events(headers['idempotency-key']);
    expect(recorded.map((e) => e.type)).toEqual(['IdempotencyKeyClaimed', 'IdempotentResponseRecorded']);
    const stored = JSON.stringify(recorded.map((e) => ({ data: e.data, metadata: e.metadata })));
    expect(stored).toContain('sealedBody');
    expect(stored).not.toContain(clientSecret);
    expect(stored).not.toContain(first.body.id);
  });

  it('signed retry: a 202 challenge does not spend the key; the signed answer is replayed, never rerun', async () => {
    const h = await f.holder();
    const session = await emailOtpSession(api, h.wallet.emailOtpId);
    const body = f.oauthBody(h.wallet.accountId, 'google-signed');
    const key = unique('signed');
    const headers = { 'idempotency-key': key };
    const challenge = await api.post('/auth/credentials', body, headers);
    expect(challenge.status).toBe(202);
    expect(await eventTypes(key)).toEqual(['IdempotencyKeyClaimed', 'IdempotencyKeyReleased']);
    const signature = await session.stamp(challenge.body.payloadToSign);
    const proof = { 'service-wallet-signature': signature, 'request-id': challenge.body.requestId };
    const added = await api.post('/auth/credentials', body, { ...headers, ...proof });
    expect(added.status).toBe(201);
    expect((await eventTypes(key)).slice(2)).toEqual(['IdempotencyKeyClaimed', 'IdempotentResponseRecorded']);
    // The same signed request again: its request id is spent, yet with the key it gets the stored answer.
    const retried = await api.post('/auth/credentials', body, { ...headers, ...proof });
    expect({ status: retried.status, body: retried.body }).toEqual({ status: 201, body: added.body });
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect((await api.post('/auth/credentials', body, headers)).body).toEqual(added.body);
    // Without the key the spent proof is refused: the replay above did not run it.
    expect((await api.post('/auth/credentials', body, proof)).status).toBe(401);
    const credentials = (await api.get(`/auth/credentials?accountId=${encodeURIComponent(h.wallet.accountId)}`)).body
      .data;
    expect(credentials.filter((c: { type: string }) => c.type === 'OAUTH')).toHaveLength(1);
  });
});
