import { describe, expect, it } from '@jest/globals';
import { SignedRetryService } from '#application/wallet/signed-retry.service.js';
import type { Actor } from '#application/tokens.js';
import { CARD_ISSUANCE_DELAY_MS } from '#domain/cards/card-issuer.js';
import { ManualClock } from '#domain/clock.js';
import { streams } from '#domain/primitives.js';
import type { Reply } from '../support/service.js';
import { emailOtpSession, walletHolder, type WalletSession } from '../support/wallet-session.js';
import { useTestService } from '../support/fixture.js';

const START = Date.UTC(2026, 0, 5, 12);

/**
 * Signed PATCHes whose change lands in another stream than the wallet (cards, a customer's email):
 * a spent requestId is 401 before the target's state is looked at, and a request consumed in the
 * wallet whose change never reached the target (the process died between the two appends) is
 * finished by an identical retry, exactly once. The crash itself is shown with a real process in
 * wallet-signed-retry-crash.e2e.spec.ts; here the consumption is done alone, as the edge does it.
 */
describe('signed retries that change a card or a customer', () => {
  const clock = new ManualClock(START);
  let n = 0;

  const t = useTestService({ clock });
  const api = t.api;

  async function holder(): Promise<{ customerId: string; usd: string; wallet: WalletSession }> {
    n += 1;
    return walletHolder(api, { name: `targets-${n}`, email: `targets${n}@example.com` });
  }

  async function activeCard(h: { customerId: string; usd: string; wallet: WalletSession }): Promise<string> {
    const fundingSources = [h.usd, h.wallet.accountId];
    const created = await api.post('/cards', { customerId: h.customerId, form: 'VIRTUAL', fundingSources });
    expect(created.status).toBe(201);
    clock.advance(CARD_ISSUANCE_DELAY_MS);
    await t.service.infra.jobs.promoteDue();
    for (let i = 0; i < 500; i++) {
      if ((await api.get(`/cards/${created.body.id}`)).body.state === 'ACTIVE') return created.body.id;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('the card was not issued');
  }

  const events = async (stream: string, type: string) =>
    (await t.service.infra.eventStore.readStream(stream)).filter((e) => e.type === type);
  const data = (e: { data: unknown }) => e.data as any;
  const actor = (): Actor => {
    const { platformId, tokenId } = t.service.sandbox!;
    return { platformId, actor: `ApiToken:${tokenId}`, correlationId: 'test' };
  };
  const refusal = (res: Reply) => ({ status: res.status, code: res.body.code, reason: res.body.reason });
  const expectSpent = (res: Reply) =>
    expect(refusal(res)).toEqual({ status: 401, code: 'UNAUTHORIZED', reason: 'requestId was already used' });

  /** Step 1, then the step-2 headers stamped by `session`. */
  async function signedHeaders(path: string, body: Record<string, unknown>, session: WalletSession) {
    const challenge = await api.patch(path, body);
    expect(challenge.status).toBe(202);
    const payloadToSign = challenge.body.payloadToSign as string;
    const requestId = challenge.body.requestId as string;
    const signature = await session.stamp(payloadToSign);
    return { headers: { 'service-wallet-signature': signature, 'request-id': requestId }, payloadToSign };
  }

  /** Another session on the same wallet account (OTP challenges are at most one per 30 s). */
  async function secondSession(session: WalletSession): Promise<WalletSession> {
    clock.advance(31_000);
    return emailOtpSession(api, session.authMethodId);
  }

  /** What the edge does before appending the change: the consumption alone, as if the process died right after it. */
  async function consumeOnly(
    accountId: string,
    path: string,
    targetId: string,
    body: Record<string, unknown>,
    headers: Record<string, string>,
    authorizes: { stream: string; change: Record<string, unknown> },
  ) {
    const signedRetry = t.service.app.get(SignedRetryService);
    const signature = headers['service-wallet-signature'];
    const request = { method: 'PATCH', path, body, headers: { signature, requestId: headers['request-id'] } };
    const step = await signedRetry.step(accountId, { intent: 'EXTERNAL', targetId }, request, actor());
    expect(step.kind).toBe('proof');
    if (step.kind === 'proof') await signedRetry.consume(accountId, targetId, step.proof, authorizes, actor());
  }

  describe('a card PATCH', () => {
    it('answers a reused requestId 401 although the card is already in the requested state (no 409)', async () => {
      const h = await holder();
      const cardId = await activeCard(h);
      const { headers } = await signedHeaders(`/cards/${cardId}`, { state: 'FROZEN' }, h.wallet);
      expect((await api.patch(`/cards/${cardId}`, { state: 'FROZEN' }, headers)).status).toBe(200);
      expectSpent(await api.patch(`/cards/${cardId}`, { state: 'FROZEN' }, headers));
      // With another body the stamp no longer matches the body, but the spent request is named first.
      expectSpent(await api.patch(`/cards/${cardId}`, { state: 'CLOSED' }, headers));
      const states = (await events(streams.card(cardId), 'CardStateChanged')).map((e) => data(e).card.state);
      expect(states).toEqual(['ACTIVE', 'FROZEN']);
      expect((await api.get(`/cards/${cardId}`)).body.state).toBe('FROZEN');
    });

    it('answers an unknown requestId 401 before the 409 of a transition the card cannot make', async () => {
      const h = await holder();
      const cardId = await activeCard(h);
      // Step 1 refuses ACTIVE -> ACTIVE before any challenge; step 2 names the request first.
      expect((await api.patch(`/cards/${cardId}`, { state: 'ACTIVE' })).status).toBe(409);
      const unknown = { 'service-wallet-signature': 'x', 'request-id': 'Request:00000000-0000-4000-8000-000000000000' };
      const res = await api.patch(`/cards/${cardId}`, { state: 'ACTIVE' }, unknown);
      const reason = 'requestId is unknown or has expired';
      expect(refusal(res)).toEqual({ status: 401, code: 'UNAUTHORIZED', reason });
    });

    it('finishes a consumed change that never reached the card on an identical retry, once', async () => {
      const h = await holder();
      const cardId = await activeCard(h);
      const path = `/cards/${cardId}`;
      const { headers } = await signedHeaders(path, { state: 'FROZEN' }, h.wallet);
      const freeze = { stream: streams.card(cardId), change: { state: 'FROZEN' } };
      await consumeOnly(h.wallet.accountId, path, cardId, { state: 'FROZEN' }, headers, freeze);
      expect((await api.get(path)).body.state).toBe('ACTIVE');

      // The consumption says what it authorized.
      const consumptions = await events(streams.wallet(h.wallet.accountId), 'SignedRetryConsumed');
      const consumed = consumptions.find((e) => data(e).requestId === headers['request-id']);
      expect(data(consumed!).authorizes).toEqual(freeze);

      const retry = () => api.patch(path, { state: 'FROZEN' }, headers);
      const replies = await Promise.all([retry(), retry()]);
      expect(replies.map((r) => r.status).sort()).toEqual([200, 401]);
      const ok = replies.find((r) => r.status === 200)!;
      expect(ok.body).toMatchObject({ id: cardId, state: 'FROZEN' });
      expectSpent(replies.find((r) => r.status === 401)!);
      expectSpent(await api.patch(path, { state: 'FROZEN' }, headers));

      const changes = await events(streams.card(cardId), 'CardStateChanged');
      expect(changes.map((e) => (e.data as any).card.state)).toEqual(['ACTIVE', 'FROZEN']);
      const applied = await events(streams.card(cardId), 'SignedRequestApplied');
      expect(applied.map((e) => data(e).requestId)).toEqual([headers['request-id']]);
    });

    it('does not finish it with another body, another session, or once the challenge expired', async () => {
      const h = await holder();
      const cardId = await activeCard(h);
      const path = `/cards/${cardId}`;
      const { headers, payloadToSign } = await signedHeaders(path, { state: 'FROZEN' }, h.wallet);
      const freeze = { stream: streams.card(cardId), change: { state: 'FROZEN' } };
      await consumeOnly(h.wallet.accountId, path, cardId, { state: 'FROZEN' }, headers, freeze);

      expectSpent(await api.patch(path, { state: 'CLOSED' }, headers));
      const other = await secondSession(h.wallet);
      const otherStamp = { ...headers, 'service-wallet-signature': await other.stamp(payloadToSign) };
      expectSpent(await api.patch(path, { state: 'FROZEN' }, otherStamp));
      expect((await api.get(path)).body.state).toBe('ACTIVE');

      clock.advance(300_000);
      const late = await api.patch(path, { state: 'FROZEN' }, headers);
      const reason = 'the signed-retry challenge has expired';
      expect(refusal(late)).toEqual({ status: 401, code: 'CHALLENGE_EXPIRED', reason });
      expect((await api.get(path)).body.state).toBe('ACTIVE');
      expect(await events(streams.card(cardId), 'SignedRequestApplied')).toEqual([]);
    });
  });

  describe('a customer email change', () => {
    it('answers a reused requestId 401 although the email is already the new one', async () => {
      const h = await holder();
      const path = `/customers/${h.customerId}`;
      const body = { email: `changed${n}@example.com` };
      const { headers } = await signedHeaders(path, body, h.wallet);
      const first = await api.patch(path, body, headers);
      expect({ status: first.status, email: first.body.email }).toEqual({ status: 200, email: body.email });
      expectSpent(await api.patch(path, body, headers));
      expect(await events(streams.customer(h.customerId), 'CustomerUpdated')).toHaveLength(1);
    });

    it('finishes a consumed email change that never reached the customer on an identical retry, once', async () => {
      const h = await holder();
      const path = `/customers/${h.customerId}`;
      const body = { email: `resumed${n}@example.com` };
      const { headers } = await signedHeaders(path, body, h.wallet);
      const authorizes = { stream: streams.customer(h.customerId), change: body };
      await consumeOnly(h.wallet.accountId, path, h.customerId, body, headers, authorizes);
      expect((await api.get(path)).body.email).toBe(`targets${n}@example.com`);

      const replies = await Promise.all([api.patch(path, body, headers), api.patch(path, body, headers)]);
      expect(replies.map((r) => r.status).sort()).toEqual([200, 401]);
      expect(replies.find((r) => r.status === 200)!.body.email).toBe(body.email);
      expectSpent(await api.patch(path, body, headers));
      expect(await events(streams.customer(h.customerId), 'CustomerUpdated')).toHaveLength(1);
      // The wallet's EMAIL_OTP credential followed the email.
      const credentials = await api.get(`/auth/credentials?accountId=${encodeURIComponent(h.wallet.accountId)}`);
      expect(credentials.body.data.find((c: any) => c.type === 'EMAIL_OTP').nickname).toBe(body.email);
    });
  });

  it('answers a reused requestId of a session revocation 401, not the 409 of an already revoked session', async () => {
    const h = await holder();
    const spare = await secondSession(h.wallet);
    const path = `/auth/sessions/${spare.id}`;
    const challenge = await api.request('DELETE', path);
    expect(challenge.status).toBe(202);
    const signature = await h.wallet.stamp(challenge.body.payloadToSign);
    const headers = { 'service-wallet-signature': signature, 'request-id': challenge.body.requestId };
    expect((await api.request('DELETE', path, undefined, headers)).status).toBe(204);
    expectSpent(await api.request('DELETE', path, undefined, headers));
  });
});
