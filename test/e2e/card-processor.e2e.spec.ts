import { afterEach, describe, expect, it } from '@jest/globals';
import { testHooks } from '#application/command-context.js';
import { processorSignature } from '#domain/cards/card-processor.js';
import { loadLedger, expectBalancedLedger } from '../support/ledger-check.js';
import { cliJson } from '../support/cli.js';
import type { Client } from '../support/service.js';
import { cardsHarness } from './cards-support.js';

const merchant = { descriptor: 'CORNER COFFEE', mcc: '5814', country: 'US' };
const AUTH_ID = /^CardAuthorization:[0-9a-f-]{36}$/;
const TX_ID = /^CardTransaction:[0-9a-f-]{36}$/;

describe('card processor messages', () => {
  const h = cardsHarness(Date.UTC(2026, 2, 2, 9));
  const { t, clock, ntid, platformId, funded, availableOf, balance } = h;
  let secret: string;

  afterEach(() => {
    delete testHooks.slowDecision;
  });

  /** Holds every decision at the platform-decision step until `release`; `lateDecision` settles when one gets there. */
  function slowDecisions() {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const lateDecision = new Promise<void>((resolve) => (reached = resolve));
    testHooks.slowDecision = async () => {
      reached();
      await released;
    };
    return { release, lateDecision };
  }

  /** The ledger transfers that name `reference` (holds and their voids), with how they ended. */
  const transfersOf = async (reference: string) =>
    [...(await loadLedger(t.service.infra.eventStore, platformId())).transfers.values()]
      .filter((x) => x.reference === reference)
      .map((x) => ({ id: x.id, pending: x.pending, resolution: x.resolution }));

  /** The processor's POST: the exact bytes signed with `key` at `at` (seconds), unless told otherwise. */
  async function send(body: Record<string, unknown>, o: { key?: string; at?: number; sig?: string; to?: string } = {}) {
    const raw = JSON.stringify(body);
    const at = o.at ?? Math.floor(clock.now().getTime() / 1000);
    const signature = o.sig ?? `t=${at},v1=${processorSignature(o.key ?? secret, at, raw)}`;
    return t.anonymous.post('/card-processor/messages', raw, {
      'content-type': 'application/json',
      'x-processor-platform': o.to ?? platformId(),
      'x-processor-signature': signature,
    });
  }

  const authorization = (cardId: string, amount: number, extra: Record<string, unknown> = {}) => ({
    type: 'AUTHORIZATION',
    networkTransactionId: ntid('auth'),
    cardId,
    amount,
    currency: 'USD',
    merchant,
    entryMode: 'CHIP',
    ...extra,
  });

  const history = async (cardId: string) => (await t.api.get(`/audit/cards/${cardId}/history?limit=100`)).body.data;
  const recorded = async (cardId: string) =>
    (await history(cardId)).filter((e: { type: string }) => e.type === 'CardAuthorizationRecorded');

  it('sets the secret once and the settings through /config/card-processor', async () => {
    expect((await t.api.get('/config/card-processor')).body).toEqual({
      decisionDeadlineMs: 1500,
      standInDecision: 'DECLINE',
      secretSet: false,
      secretSetAt: null,
    });
    const rotated = await t.api.post('/config/card-processor/secret', {});
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ cardProcessorSecret: expect.stringMatching(/^cpsec_/), secretSet: true });
    secret = rotated.body.cardProcessorSecret;
    // Each call sets a new secret; a replayed Idempotency-Key answers the first call without showing it again.
    const key = { 'idempotency-key': 'card-processor-secret-1' };
    const keyed = await t.api.post('/config/card-processor/secret', {}, key);
    const replay = await t.api.post('/config/card-processor/secret', {}, key);
    expect(replay.body).not.toHaveProperty('cardProcessorSecret');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    secret = keyed.body.cardProcessorSecret;
    expect(secret).not.toBe(rotated.body.cardProcessorSecret);
    expect((await t.api.get('/config/card-processor')).body).not.toHaveProperty('cardProcessorSecret');
    const bad = await t.api.patch('/config/card-processor', { decisionDeadlineMs: 60_000 });
    expect(bad.status).toBe(400);
  });

  it('approves an authorization with a hold, records what the network sent and who decided', async () => {
    const { holder, cardId } = await funded(1000);
    const message = authorization(cardId, 400);
    const res = await send(message);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      decision: 'APPROVED',
      approvedAmount: 400,
      authorizationId: expect.stringMatching(AUTH_ID),
      cardTransactionId: expect.stringMatching(TX_ID),
    });
    expect(await availableOf(holder.usd)).toBe(600n);
    expect((await t.api.get(`/card-transactions/${res.body.cardTransactionId}`)).body.status).toBe('AUTHORIZED');
    const [entry] = await recorded(cardId);
    expect(entry.changes.authorization).toMatchObject({
      networkTransactionId: message.networkTransactionId,
      entryMode: 'CHIP',
      merchant: { mcc: '5814', country: 'US' },
      decision: { decidedBy: 'RULES', elapsedMs: expect.any(Number) },
    });
  });

  it('declines without the funds, and a replay gets the same answer without applying anything twice', async () => {
    const { holder, cardId } = await funded(1000);
    const declined = await send(authorization(cardId, 5000));
    expect(declined.body).toMatchObject({
      decision: 'DECLINED',
      approvedAmount: 0,
      declineReason: 'INSUFFICIENT_FUNDS',
    });
    const message = authorization(cardId, 300);
    const answers = await Promise.all([send(message), send(message)]);
    const again = await send(message);
    expect(answers[0].body).toEqual(answers[1].body);
    expect(again.body).toEqual(answers[0].body);
    expect(again.body.decision).toBe('APPROVED');
    expect(await availableOf(holder.usd)).toBe(700n);
    expect(await recorded(cardId)).toHaveLength(2);
    await expectBalancedLedger(t.service.infra.eventStore, platformId());
  });

  it('clears, refunds and reverses by the original network transaction id, each once', async () => {
    const { holder, cardId } = await funded(1000);
    const first = authorization(cardId, 400);
    await send(first);
    const follow = (type: string, original: string, amount?: number) => ({
      type,
      networkTransactionId: ntid(type.toLowerCase()),
      originalNetworkTransactionId: original,
      cardId,
      ...(amount === undefined ? {} : { amount }),
    });
    const clearing = follow('CLEARING', first.networkTransactionId, 400);
    const cleared = await send(clearing);
    expect(cleared.body).toMatchObject({ decision: 'APPROVED', approvedAmount: 400 });
    expect((await send(clearing)).body).toEqual(cleared.body);
    expect(await balance(holder.usd)).toBe(600);
    const refund = follow('REFUND', first.networkTransactionId, 150);
    expect((await send(refund)).body).toMatchObject({ decision: 'APPROVED', approvedAmount: 150 });
    expect((await send(refund)).body).toMatchObject({ decision: 'APPROVED', approvedAmount: 150 });
    expect(await balance(holder.usd)).toBe(750);
    // A partial reversal releases part of another authorization's hold, a reversal the whole rest.
    const second = authorization(cardId, 200);
    await send(second);
    expect(await availableOf(holder.usd)).toBe(550n);
    const partial = await send(follow('REVERSAL', second.networkTransactionId, 50));
    expect(partial.body).toMatchObject({ decision: 'APPROVED', approvedAmount: 50 });
    expect(await availableOf(holder.usd)).toBe(600n);
    const reversal = await send(follow('REVERSAL', second.networkTransactionId));
    expect(reversal.body).toMatchObject({ decision: 'APPROVED', approvedAmount: 150 });
    expect(await availableOf(holder.usd)).toBe(750n);
    // Reversing a settled transaction is refused.
    const late = await send(follow('REVERSAL', first.networkTransactionId));
    expect(late.body).toMatchObject({ decision: 'DECLINED' });
    await expectBalancedLedger(t.service.infra.eventStore, platformId());
  });

  it('records advices as the network decided them', async () => {
    const { holder, cardId } = await funded(1000);
    const frozen = await h.patch(cardId, { state: 'FROZEN' }, holder.wallet);
    expect(frozen.result.status).toBe(200);
    // The card's rules would decline (FROZEN): the network approved in stand-in, so the hold is placed.
    const approved = await send(authorization(cardId, 250, { type: 'ADVICE', networkDecision: 'APPROVED' }));
    expect(approved.body).toMatchObject({ decision: 'APPROVED', approvedAmount: 250 });
    expect(await availableOf(holder.usd)).toBe(750n);
    const declined = await send(authorization(cardId, 100, { type: 'ADVICE', networkDecision: 'DECLINED' }));
    expect(declined.body).toMatchObject({ decision: 'DECLINED', declineReason: 'NETWORK_DECLINED' });
    const decisions = (await recorded(cardId)).map((e: any) => e.changes.authorization.decision.decidedBy);
    expect(decisions).toEqual(['STAND_IN', 'STAND_IN']);
  });

  it('declines by the card’s spending controls; an advice past them is recorded as the network decided', async () => {
    const holder = await h.holder();
    expect((await t.api.post(`/sandbox/internal-accounts/${holder.usd}/fund`, { amount: 1000 })).status).toBe(200);
    const controls = { fundingSources: [holder.usd], spendingControls: { perAuthorizationLimit: 200 } };
    const { id: cardId } = await h.activeCard(holder, controls);
    const declined = await send(authorization(cardId, 300));
    expect(declined.body).toMatchObject({ decision: 'DECLINED', declineReason: 'SPENDING_LIMIT_PER_AUTHORIZATION' });
    expect((await send(authorization(cardId, 200))).body.decision).toBe('APPROVED');
    const advice = await send(authorization(cardId, 300, { type: 'ADVICE', networkDecision: 'APPROVED' }));
    expect(advice.body).toMatchObject({ decision: 'APPROVED', approvedAmount: 300 });
    expect(await availableOf(holder.usd)).toBe(500n);
  });

  it('declines by each kind of spending control, each with its own code, over the processor interface', async () => {
    const holder = await h.holder();
    expect((await t.api.post(`/sandbox/internal-accounts/${holder.usd}/fund`, { amount: 5_000 })).status).toBe(200);
    const spendingControls = {
      perAuthorizationLimit: 400,
      dailyLimit: 600,
      monthlyLimit: 900,
      blockedMerchantCategories: ['7995'],
      allowedMerchantCountries: ['US', 'CA'],
    };
    const { id: cardId } = await h.activeCard(holder, { fundingSources: [holder.usd], spendingControls });
    const at = (amount: number, where: Partial<typeof merchant> = {}) =>
      send(authorization(cardId, amount, { merchant: { ...merchant, ...where } }));
    const outcome = async (amount: number, where: Partial<typeof merchant> = {}) => {
      const { body } = await at(amount, where);
      return body.decision === 'APPROVED' ? 'APPROVED' : body.declineReason;
    };
    expect(await outcome(500)).toBe('SPENDING_LIMIT_PER_AUTHORIZATION');
    expect(await outcome(100, { mcc: '7995' })).toBe('MERCHANT_CATEGORY_BLOCKED');
    expect(await outcome(100, { country: 'FR' })).toBe('MERCHANT_COUNTRY_NOT_ALLOWED');
    expect(await outcome(400)).toBe('APPROVED');
    expect(await outcome(300)).toBe('SPENDING_LIMIT_DAILY');
    clock.advance(24 * 3600 * 1000);
    expect(await outcome(400)).toBe('APPROVED');
    expect(await outcome(200)).toBe('SPENDING_LIMIT_MONTHLY');
    expect(await availableOf(holder.usd)).toBe(5_000n - 800n);
    const allowedOnly = { allowedMerchantCategories: ['5814'] };
    const other = await h.activeCard(holder, { fundingSources: [holder.usd], spendingControls: allowedOnly });
    const grocery = await send(authorization(other.id, 100, { merchant: { ...merchant, mcc: '5411' } }));
    expect(grocery.body).toMatchObject({ decision: 'DECLINED', declineReason: 'MERCHANT_CATEGORY_NOT_ALLOWED' });
  });

  it('declines an unknown card and another platform’s card, recording nothing', async () => {
    const { cardId } = await funded(1000);
    const unknown = await send(authorization('Card:00000000-0000-4000-8000-000000000000', 100));
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ decision: 'DECLINED', declineReason: 'CARD_NOT_FOUND' });
    const other: { platformId: string; api: Client } = await t.otherPlatform({ sandbox: false });
    const otherSecret = (await other.api.post('/config/card-processor/secret', {})).body.cardProcessorSecret;
    const foreign = await send(authorization(cardId, 100), { key: otherSecret, to: other.platformId });
    expect(foreign.body).toMatchObject({ decision: 'DECLINED', declineReason: 'CARD_NOT_FOUND' });
    expect(await recorded(cardId)).toHaveLength(0);
  });

  it('sets a new secret from the CLI; the previous one stops verifying', async () => {
    const { cardId } = await funded(1000);
    const rotated = await cliJson(t.dataDir, 'cards:processor-secret', '--platform', platformId());
    expect(rotated.cardProcessorSecret).toMatch(/^cpsec_/);
    expect((await send(authorization(cardId, 100))).status).toBe(401);
    secret = rotated.cardProcessorSecret;
    expect((await send(authorization(cardId, 100))).body.decision).toBe('APPROVED');
  });

  it('refuses a bad, missing or stale signature with 401 and records nothing', async () => {
    const { cardId } = await funded(1000);
    const message = authorization(cardId, 100);
    expect((await send(message, { key: 'cpsec_wrong' })).status).toBe(401);
    const missing = await send(message, { sig: '' });
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe('PROCESSOR_SIGNATURE_INVALID');
    const stale = await send(message, { at: Math.floor(clock.now().getTime() / 1000) - 301 });
    expect(stale.status).toBe(401);
    expect((await send(message, { to: 'Platform:00000000-0000-4000-8000-000000000000' })).status).toBe(401);
    expect(await recorded(cardId)).toHaveLength(0);
  });

  it('answers the stand-in decision when it cannot decide in time; the late decision changes nothing', async () => {
    const { holder, cardId } = await funded(1000);
    expect((await t.api.patch('/config/card-processor', { decisionDeadlineMs: 50 })).status).toBe(200);
    const { release, lateDecision } = slowDecisions();
    const answer = await send(authorization(cardId, 300));
    expect(answer.body).toMatchObject({ decision: 'DECLINED', approvedAmount: 0, declineReason: 'STAND_IN' });
    await lateDecision;
    release();
    // The late decision placed its hold after the stand-in was recorded: it is released again.
    const holds = () => transfersOf(answer.body.authorizationId);
    await h.until(holds, (list) => list.some((x) => x.resolution === 'VOIDED'), 'the late hold released');
    expect(await availableOf(holder.usd)).toBe(1000n);
    const [entry] = await recorded(cardId);
    expect(entry.changes.authorization).toMatchObject({
      status: 'DECLINED',
      declineReason: 'STAND_IN',
      decision: { decidedBy: 'STAND_IN', reason: expect.stringContaining('50 ms') },
    });
    expect(await recorded(cardId)).toHaveLength(1);
    expect((await t.api.patch('/config/card-processor', { decisionDeadlineMs: 1500 })).status).toBe(200);
    await expectBalancedLedger(t.service.infra.eventStore, platformId());
  });

  it('answers APPROVE as the stand-in with a hold the late decision does not place twice', async () => {
    const { holder, cardId } = await funded(1000);
    const settings = { decisionDeadlineMs: 50, standInDecision: 'APPROVE' };
    expect((await t.api.patch('/config/card-processor', settings)).status).toBe(200);
    const { release, lateDecision } = slowDecisions();
    const answer = await send(authorization(cardId, 300));
    expect(answer.body).toMatchObject({ decision: 'APPROVED', approvedAmount: 300 });
    await lateDecision;
    release();
    // The next message on the card waits for the card's lock, which the late decision holds until it is done.
    expect((await send(authorization(cardId, 100))).body.decision).toBe('APPROVED');
    const late = await h.t.api.get(`/card-transactions/${answer.body.cardTransactionId}`);
    expect(late.body.status).toBe('AUTHORIZED');
    // The late decision reaches the same derived hold: one hold, still pending, whatever it did meanwhile.
    await expectBalancedLedger(t.service.infra.eventStore, platformId());
    expect(await transfersOf(answer.body.authorizationId)).toEqual([
      { id: expect.any(String), pending: true, resolution: undefined },
    ]);
    expect(await availableOf(holder.usd)).toBe(600n);
    const [entry] = await recorded(cardId);
    expect(entry.changes.authorization).toMatchObject({ status: 'APPROVED', decision: { decidedBy: 'STAND_IN' } });
    const back = { decisionDeadlineMs: 1500, standInDecision: 'DECLINE' };
    expect((await t.api.patch('/config/card-processor', back)).status).toBe(200);
  });
});
