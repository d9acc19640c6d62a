import { beforeAll, describe, expect, it } from '@jest/globals';
import { performance } from 'node:perf_hooks';
import { processorSignature } from '#domain/cards/card-processor.js';
import { expectBalancedLedger, loadLedger } from '../support/ledger-check.js';
import { cardsHarness } from './cards-support.js';
import { CARDS, platformVerifier, registerCardEndpoint, useDecisionReceivers } from './decisions-support.js';

const merchant = { descriptor: 'CORNER COFFEE', mcc: '5814', country: 'US' };
const AUTH_ID = /^CardAuthorization:[0-9a-f-]{36}$/;
const TX_ID = /^CardTransaction:[0-9a-f-]{36}$/;
/** How much later than its deadline an answer may come (timers, the stand-in's own append, a busy machine). */
const SLACK_MS = 100;

/**
 * The platform's decision endpoint in the loop of the card processor's inbound AUTHORIZATION messages: what the
 * endpoint answers (or fails to) decides the processor's answer, the hold and what the card's history records; the
 * processor's own deadline bounds the whole, the platform's late decision changing nothing.
 */
describe('card processor authorizations decided by the platform’s endpoint', () => {
  const h = cardsHarness(Date.UTC(2026, 6, 1, 9));
  const { t, clock, platformId, availableOf } = h;
  const receiver = useDecisionReceivers();
  let secret: string;
  let counter = 0;

  beforeAll(async () => {
    const rotated = await t.api.post('/config/card-processor/secret', {});
    expect(rotated.status).toBe(200);
    secret = rotated.body.cardProcessorSecret;
  });

  /** The processor's signed POST of a message, its answer and how long it took (real time). */
  async function send(body: Record<string, unknown>) {
    const raw = JSON.stringify(body);
    const at = Math.floor(clock.now().getTime() / 1000);
    const start = performance.now();
    const res = await t.anonymous.post('/card-processor/messages', raw, {
      'content-type': 'application/json',
      'x-processor-platform': platformId(),
      'x-processor-signature': `t=${at},v1=${processorSignature(secret, at, raw)}`,
    });
    const ms = performance.now() - start;
    expect(res.status).toBe(200);
    return { answer: res.body, ms };
  }

  /** An AUTHORIZATION of `amount` sent by the processor: its answer and how long it took. */
  async function authorize(cardId: string, amount: number) {
    const networkTransactionId = `auth-${++counter}`;
    const body = { type: 'AUTHORIZATION', networkTransactionId, cardId, amount, currency: 'USD', merchant };
    return { ...(await send(body)), networkTransactionId };
  }

  /** A holder's ACTIVE card on a USD account funded with `usd`. */
  async function fundedCard(usd = 10_000) {
    const { holder, cardId } = await h.funded(usd);
    return { accountId: holder.usd, cardId: cardId as string };
  }

  const processorSettings = async (settings: Record<string, unknown>) =>
    expect((await t.api.patch('/config/card-processor', settings)).status).toBe(200);

  const ledger = () => loadLedger(t.service.infra.eventStore, platformId());
  /** The holds (pending transfers) an authorization placed on the ledger, with how they ended. */
  const holdsOf = async (reference: string) =>
    [...(await ledger()).transfers.values()]
      .filter((x) => x.reference === reference && x.pending)
      .map((x) => ({ amount: x.amount, pending: x.pending, resolution: x.resolution }));
  /** What the card's audit history recorded of its authorizations, oldest first. */
  const recorded = async (cardId: string) =>
    ((await t.api.get(`/audit/cards/${cardId}/history?limit=100`)).body.data as any[])
      .filter((e) => e.type === 'CardAuthorizationRecorded')
      .map((e) => e.changes.authorization);

  it('a decline by the endpoint answers DECLINED with its reason recorded; the signed request verifies', async () => {
    const r = await receiver();
    await registerCardEndpoint(t.api, r, { deadlineMs: 1500 });
    r.answer({ body: { decision: 'DECLINE', reason: 'merchant not allowed for this card' } });
    const { accountId, cardId } = await fundedCard();
    const { answer, networkTransactionId } = await authorize(cardId, 1_250);
    expect(answer).toEqual({
      decision: 'DECLINED',
      approvedAmount: 0,
      declineReason: 'PLATFORM_DECLINED',
      authorizationId: expect.stringMatching(AUTH_ID),
    });
    // The endpoint got the authorization, signed as webhooks are: the client package's verifier accepts it.
    const seen = r.requests.at(-1)!;
    const verified = (await platformVerifier(t.api)).verify(seen.body, seen.headers as Record<string, string>);
    expect(verified).toMatchObject({
      type: CARDS,
      id: expect.stringMatching(/^Webhook:/),
      data: { id: answer.authorizationId, cardId, amount: 1_250, currency: 'USD', merchant },
    });
    expect(await recorded(cardId)).toEqual([
      expect.objectContaining({
        id: answer.authorizationId,
        networkTransactionId,
        status: 'DECLINED',
        declineReason: 'PLATFORM_DECLINED',
        decision: {
          decidedBy: 'PLATFORM',
          reason: 'merchant not allowed for this card',
          elapsedMs: expect.any(Number),
        },
      }),
    ]);
    expect(await availableOf(accountId)).toBe(10_000n);
    expect(await holdsOf(answer.authorizationId)).toEqual([]);
  });

  it('a partial approval answers the approved amount, holds it and records what was asked', async () => {
    const r = await receiver();
    await registerCardEndpoint(t.api, r);
    r.answer({ body: { decision: 'APPROVE', approvedAmount: 600 } });
    const { accountId, cardId } = await fundedCard();
    const { answer } = await authorize(cardId, 1_000);
    expect(answer).toEqual({
      decision: 'APPROVED',
      approvedAmount: 600,
      authorizationId: expect.stringMatching(AUTH_ID),
      cardTransactionId: expect.stringMatching(TX_ID),
    });
    expect(await holdsOf(answer.authorizationId)).toEqual([{ amount: 600n, pending: true, resolution: undefined }]);
    expect(await availableOf(accountId)).toBe(9_400n);
    const [entry] = await recorded(cardId);
    expect(entry).toMatchObject({
      status: 'APPROVED',
      amount: '600',
      requestedAmount: '1000',
      decision: { decidedBy: 'PLATFORM', elapsedMs: expect.any(Number) },
    });
    const transaction = (await t.api.get(`/card-transactions/${answer.cardTransactionId}`)).body;
    expect(transaction).toMatchObject({ status: 'AUTHORIZED', authorizedAmount: { amount: 600 } });
    await expectBalancedLedger(t.service.infra.eventStore, platformId());
  });

  it('an endpoint slower than the platform’s deadline: its default answers within the deadline', async () => {
    // The processor's own deadline is longer than the platform's: the platform's default decides.
    await processorSettings({ decisionDeadlineMs: 3000 });
    const r = await receiver();
    await registerCardEndpoint(t.api, r, { deadlineMs: 2000, defaultDecision: 'APPROVE' });
    const { accountId, cardId } = await fundedCard();
    r.answer({ body: { decision: 'APPROVE' } });
    await authorize(cardId, 10); // warm: connections, caches
    r.answer({ body: { decision: 'DECLINE' }, delayMs: 3000 });
    const { answer, ms } = await authorize(cardId, 1_000);
    console.log(`the platform's default answered ${Math.round(ms - 2000)} ms after its 2,000 ms deadline`);
    expect(ms).toBeLessThanOrEqual(2000 + SLACK_MS);
    expect(answer).toMatchObject({ decision: 'APPROVED', approvedAmount: 1_000 });
    expect(await availableOf(accountId)).toBe(10_000n - 10n - 1_000n);
    const entry = (await recorded(cardId)).at(-1);
    expect(entry).toMatchObject({ id: answer.authorizationId, status: 'APPROVED' });
    expect(entry.decision).toEqual({ decidedBy: 'DEFAULT', fallback: 'TIMEOUT', elapsedMs: expect.any(Number) });
    // Timers fire on whole milliseconds: the elapsed time may round a little below the deadline.
    expect(entry.decision.elapsedMs).toBeGreaterThanOrEqual(1990);
    expect(entry.decision.elapsedMs).toBeLessThanOrEqual(2000 + SLACK_MS);
    await processorSettings({ decisionDeadlineMs: 1500 });
  });

  it('an endpoint that answers 500 or garbage: the default decides (BAD_STATUS, MALFORMED_ANSWER)', async () => {
    const r = await receiver();
    await registerCardEndpoint(t.api, r, { deadlineMs: 1500 });
    const { accountId, cardId } = await fundedCard();
    const cases: [unknown, number, string][] = [
      [{ decision: 'APPROVE' }, 500, 'BAD_STATUS'],
      ['<html>not json</html>', 200, 'MALFORMED_ANSWER'],
      [{ decision: 'SURE' }, 200, 'MALFORMED_ANSWER'],
    ];
    for (const [body, status, fallback] of cases) {
      r.answer({ body, status });
      const { answer } = await authorize(cardId, 1_000);
      expect(answer).toMatchObject({ decision: 'DECLINED', approvedAmount: 0, declineReason: 'PLATFORM_DECLINED' });
      const entry = (await recorded(cardId)).at(-1);
      expect(entry).toMatchObject({ id: answer.authorizationId, status: 'DECLINED' });
      expect(entry.decision).toEqual({ decidedBy: 'DEFAULT', fallback, elapsedMs: expect.any(Number) });
    }
    expect(await availableOf(accountId)).toBe(10_000n);
  });

  describe('an endpoint slower than the processor’s deadline', () => {
    const PROCESSOR_DEADLINE_MS = 300;

    /** The processor waits PROCESSOR_DEADLINE_MS; the platform (deadline 2,000 ms) answers `late` after 800 ms. */
    async function lateEndpoint(late: Record<string, unknown>, standInDecision: 'APPROVE' | 'DECLINE') {
      await processorSettings({ decisionDeadlineMs: PROCESSOR_DEADLINE_MS, standInDecision });
      const r = await receiver();
      await registerCardEndpoint(t.api, r, { deadlineMs: 2000, defaultDecision: 'DECLINE' });
      const card = await fundedCard();
      r.answer({ body: { decision: 'APPROVE' } });
      const first = await authorize(card.cardId, 10); // warm, and the card's first authorization approved at once
      r.answer({ body: late, delayMs: 800 });
      return { r, first, ...card };
    }

    const restore = () => processorSettings({ decisionDeadlineMs: 1500, standInDecision: 'DECLINE' });

    it('the processor gets the stand-in decline in time; the late approval leaves no hold', async () => {
      const { r, accountId, cardId } = await lateEndpoint({ decision: 'APPROVE' }, 'DECLINE');
      const { answer, ms } = await authorize(cardId, 1_000);
      console.log(`the stand-in answered ${Math.round(ms - PROCESSOR_DEADLINE_MS)} ms after the processor's deadline`);
      expect(ms).toBeLessThanOrEqual(PROCESSOR_DEADLINE_MS + SLACK_MS);
      expect(answer).toMatchObject({ decision: 'DECLINED', approvedAmount: 0, declineReason: 'STAND_IN' });
      // The platform approves late: its hold is placed after the stand-in was recorded, and released again.
      await h.until(
        () => holdsOf(answer.authorizationId),
        (list) => list.some((x) => x.resolution === 'VOIDED'),
        'the late decision’s hold released',
      );
      expect(r.requests.at(-1)!.json.data.id).toBe(answer.authorizationId);
      expect(await holdsOf(answer.authorizationId)).toEqual([{ amount: 1_000n, pending: true, resolution: 'VOIDED' }]);
      expect(await availableOf(accountId)).toBe(10_000n - 10n);
      const entries = (await recorded(cardId)).filter((e) => e.id === answer.authorizationId);
      expect(entries).toEqual([
        expect.objectContaining({
          status: 'DECLINED',
          declineReason: 'STAND_IN',
          decision: {
            decidedBy: 'STAND_IN',
            elapsedMs: expect.any(Number),
            reason: expect.stringContaining(`${PROCESSOR_DEADLINE_MS} ms`),
          },
        }),
      ]);
      await expectBalancedLedger(t.service.infra.eventStore, platformId());
      await restore();
    });

    it('an increment gets the stand-in decline in time too; its late approval holds nothing', async () => {
      const { first, accountId, cardId } = await lateEndpoint({ decision: 'APPROVE' }, 'DECLINE');
      const body = {
        type: 'INCREMENTAL_AUTHORIZATION',
        networkTransactionId: `increment-${++counter}`,
        originalNetworkTransactionId: first.networkTransactionId,
        cardId,
        amount: 500,
      };
      const { answer, ms } = await send(body);
      expect(ms).toBeLessThanOrEqual(PROCESSOR_DEADLINE_MS + SLACK_MS);
      expect(answer).toMatchObject({ decision: 'DECLINED', approvedAmount: 0, declineReason: 'STAND_IN' });
      const authorizationId = first.answer.authorizationId;
      await h.until(
        () => holdsOf(authorizationId),
        (list) => list.some((x) => x.resolution === 'VOIDED'),
        'the late decision’s increment hold released',
      );
      expect(await holdsOf(authorizationId)).toEqual([
        { amount: 10n, pending: true, resolution: undefined },
        { amount: 500n, pending: true, resolution: 'VOIDED' },
      ]);
      expect(await availableOf(accountId)).toBe(10_000n - 10n);
      expect((await t.api.get(`/card-transactions/${first.answer.cardTransactionId}`)).body).toMatchObject({
        authorizedAmount: { amount: 10 },
      });
      await expectBalancedLedger(t.service.infra.eventStore, platformId());
      await restore();
    });

    it('the stand-in approval stands against a late partial approval: the late hold is released', async () => {
      const { r, accountId, cardId } = await lateEndpoint({ decision: 'APPROVE', approvedAmount: 400 }, 'APPROVE');
      const { answer, ms } = await authorize(cardId, 1_000);
      expect(ms).toBeLessThanOrEqual(PROCESSOR_DEADLINE_MS + SLACK_MS);
      expect(answer).toMatchObject({ decision: 'APPROVED', approvedAmount: 1_000 });
      await restore();
      r.answer({ body: { decision: 'APPROVE' } });
      // The next message on the card waits for the card's lock, which the late decision holds until it is done.
      expect((await authorize(cardId, 100)).answer.decision).toBe('APPROVED');
      // The late decision held its own amount apart (its hold id names the amount) and released it on losing.
      expect(await holdsOf(answer.authorizationId)).toEqual([
        { amount: 1_000n, pending: true, resolution: undefined },
        { amount: 400n, pending: true, resolution: 'VOIDED' },
      ]);
      expect(await availableOf(accountId)).toBe(10_000n - 10n - 1_000n - 100n);
      const entries = (await recorded(cardId)).filter((e) => e.id === answer.authorizationId);
      expect(entries).toEqual([
        expect.objectContaining({
          status: 'APPROVED',
          amount: '1000',
          decision: expect.objectContaining({ decidedBy: 'STAND_IN' }),
        }),
      ]);
      await expectBalancedLedger(t.service.infra.eventStore, platformId());
    });
  });
});
