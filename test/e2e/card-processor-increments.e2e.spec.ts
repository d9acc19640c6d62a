import { describe, expect, it } from '@jest/globals';
import { AUTHORIZATION_VALIDITY_MS } from '#domain/cards/card-authorization.js';
import { processorSignature } from '#domain/cards/card-processor.js';
import { expectBalancedLedger, loadLedger } from '../support/ledger-check.js';
import { cardsHarness } from './cards-support.js';

const merchant = { descriptor: 'HARBOR HOTEL', mcc: '7011', country: 'US' };

/**
 * Incremental authorizations (a hotel raising its hold) and partial reversals from the card processor: each hold a
 * pending ledger transfer, every movement balanced, each message applied once by its network transaction id.
 */
describe('card processor increments and partial reversals', () => {
  const h = cardsHarness(Date.UTC(2026, 2, 3, 9));
  const { t, clock, ntid, platformId, funded, availableOf, balance } = h;
  let secret: string;

  async function send(body: Record<string, unknown>) {
    secret ??= (await t.api.post('/config/card-processor/secret', {})).body.cardProcessorSecret;
    const raw = JSON.stringify(body);
    const at = Math.floor(clock.now().getTime() / 1000);
    return t.anonymous.post('/card-processor/messages', raw, {
      'content-type': 'application/json',
      'x-processor-platform': platformId(),
      'x-processor-signature': `t=${at},v1=${processorSignature(secret, at, raw)}`,
    });
  }

  /** An approved authorization of `amount` on the card, and a way to send follow-ups about it. */
  async function authorized(cardId: string, amount: number) {
    const original = ntid('auth');
    const message = {
      type: 'AUTHORIZATION',
      networkTransactionId: original,
      cardId,
      amount,
      currency: 'USD',
      merchant,
    };
    const answer = (await send(message)).body;
    expect(answer).toMatchObject({ decision: 'APPROVED', approvedAmount: amount });
    const follow = (type: string, amountOf?: number, networkTransactionId = ntid(type.toLowerCase())) => ({
      type,
      networkTransactionId,
      originalNetworkTransactionId: original,
      cardId,
      ...(amountOf === undefined ? {} : { amount: amountOf }),
    });
    return { answer, follow };
  }

  const transaction = async (id: string) => (await t.api.get(`/card-transactions/${id}`)).body;
  /** A card funded with 1000 whose approved authorization of 300 was incremented by 200, and its follow-ups. */
  async function incremented() {
    const { holder, cardId } = await funded(1000);
    const { answer, follow } = await authorized(cardId, 300);
    await send(follow('INCREMENTAL_AUTHORIZATION', 200));
    return { holder, answer, follow };
  }

  /** How the authorization's ledger transfers ended: its holds (and re-holds), posted, voided or still pending. */
  const holdsOf = async (authorizationId: string) =>
    [...(await loadLedger(t.service.infra.eventStore, platformId())).transfers.values()]
      .filter((x) => x.reference === authorizationId && x.pending)
      .map((x) => x.resolution ?? 'PENDING');
  const balanced = () => expectBalancedLedger(t.service.infra.eventStore, platformId());

  it('holds an approved increment as a second hold; a clearing in full posts both', async () => {
    const { holder, cardId } = await funded(1000);
    const { answer, follow } = await authorized(cardId, 300);
    const increment = await send(follow('INCREMENTAL_AUTHORIZATION', 200));
    expect(increment.status).toBe(200);
    expect(increment.body).toEqual({
      decision: 'APPROVED',
      approvedAmount: 200,
      authorizationId: answer.authorizationId,
      cardTransactionId: answer.cardTransactionId,
    });
    expect(await availableOf(holder.usd)).toBe(500n);
    expect(await transaction(answer.cardTransactionId)).toMatchObject({
      status: 'AUTHORIZED',
      authorizedAmount: { amount: 500 },
      pullSummary: { totalAmount: 500 },
    });
    expect(await holdsOf(answer.authorizationId)).toEqual(['PENDING', 'PENDING']);
    const cleared = await send(follow('CLEARING'));
    expect(cleared.body).toMatchObject({ decision: 'APPROVED', approvedAmount: 500 });
    expect(await holdsOf(answer.authorizationId)).toEqual(['POSTED', 'POSTED']);
    expect(await balance(holder.usd)).toBe(500);
    expect(await availableOf(holder.usd)).toBe(500n);
    expect(await transaction(answer.cardTransactionId)).toMatchObject({
      status: 'SETTLED',
      settledAmount: { amount: 500 },
    });
    await balanced();
  });

  it('declines an increment the funding source cannot hold; the authorization stays as it was', async () => {
    const { holder, cardId } = await funded(1000);
    const { answer, follow } = await authorized(cardId, 800);
    const declined = await send(follow('INCREMENTAL_AUTHORIZATION', 300));
    expect(declined.body).toMatchObject({
      decision: 'DECLINED',
      approvedAmount: 0,
      declineReason: 'INSUFFICIENT_FUNDS',
      authorizationId: answer.authorizationId,
    });
    expect(await availableOf(holder.usd)).toBe(200n);
    expect(await transaction(answer.cardTransactionId)).toMatchObject({
      status: 'AUTHORIZED',
      authorizedAmount: { amount: 800 },
    });
    // An increment names its amount.
    const unnamed = await send(follow('INCREMENTAL_AUTHORIZATION'));
    expect(unnamed.status).toBe(400);
    const history = (await t.api.get(`/audit/cards/${cardId}/history?limit=100`)).body.data;
    const entry = history.find((e: { type: string }) => e.type === 'CardIncrementDeclined');
    expect(entry.changes.authorization.activity.at(-1)).toMatchObject({
      type: 'INCREMENT',
      result: 'DECLINED',
      declineReason: 'INSUFFICIENT_FUNDS',
    });
    expect((await send(follow('CLEARING'))).body).toMatchObject({ decision: 'APPROVED', approvedAmount: 800 });
    expect(await balance(holder.usd)).toBe(200);
    await balanced();
  });

  it("holds an increment to the card's spending controls: the authorization's total, the day's spend", async () => {
    const spendingControls = { perAuthorizationLimit: 500, dailyLimit: 700 };
    const { holder, cardId } = await funded(5000, { spendingControls });
    const { answer, follow } = await authorized(cardId, 400);
    const refused = (reason: string) => ({ decision: 'DECLINED', approvedAmount: 0, declineReason: reason });
    expect((await send(follow('INCREMENTAL_AUTHORIZATION', 101))).body).toMatchObject(
      refused('SPENDING_LIMIT_PER_AUTHORIZATION'),
    );
    expect((await send(follow('INCREMENTAL_AUTHORIZATION', 100))).body).toMatchObject({ decision: 'APPROVED' });
    // The increment counts towards the day: 500 of 700 spent.
    const next = { type: 'AUTHORIZATION', cardId, currency: 'USD', merchant };
    const over = await send({ ...next, networkTransactionId: ntid('auth'), amount: 201 });
    expect(over.body).toMatchObject(refused('SPENDING_LIMIT_DAILY'));
    const second = await send({ ...next, networkTransactionId: ntid('auth'), amount: 200 });
    expect(second.body).toMatchObject({ decision: 'APPROVED' });
    // Nothing is held for what was declined: 400 + 100 + 200.
    expect(await availableOf(holder.usd)).toBe(4300n);
    expect(await transaction(answer.cardTransactionId)).toMatchObject({ authorizedAmount: { amount: 500 } });
    await balanced();
  });

  it('answers a replayed increment the same and holds it once', async () => {
    const { holder, cardId } = await funded(1000);
    const { answer, follow } = await authorized(cardId, 100);
    const increment = follow('INCREMENTAL_AUTHORIZATION', 150);
    const answers = await Promise.all([send(increment), send(increment)]);
    const again = await send(increment);
    expect(answers[1].body).toEqual(answers[0].body);
    expect(again.body).toEqual(answers[0].body);
    expect(again.body).toMatchObject({ decision: 'APPROVED', approvedAmount: 150 });
    expect(await availableOf(holder.usd)).toBe(750n);
    expect(await holdsOf(answer.authorizationId)).toEqual(['PENDING', 'PENDING']);
    // An increment of an authorization that holds nothing any more is declined.
    await send(follow('REVERSAL'));
    const late = await send(follow('INCREMENTAL_AUTHORIZATION', 10));
    expect(late.body).toMatchObject({ decision: 'DECLINED', declineReason: 'INVALID_INPUT' });
    expect(await availableOf(holder.usd)).toBe(1000n);
    await balanced();
  });

  it('releases every hold on a reversal and when the card closes', async () => {
    const { holder, cardId } = await funded(1000);
    const first = await authorized(cardId, 300);
    await send(first.follow('INCREMENTAL_AUTHORIZATION', 100));
    await send(first.follow('INCREMENTAL_AUTHORIZATION', 50));
    expect(await availableOf(holder.usd)).toBe(550n);
    const reversal = await send(first.follow('REVERSAL'));
    expect(reversal.body).toMatchObject({ decision: 'APPROVED', approvedAmount: 450 });
    expect(await holdsOf(first.answer.authorizationId)).toEqual(['VOIDED', 'VOIDED', 'VOIDED']);
    expect(await availableOf(holder.usd)).toBe(1000n);
    const second = await authorized(cardId, 200);
    await send(second.follow('INCREMENTAL_AUTHORIZATION', 100));
    expect(await availableOf(holder.usd)).toBe(700n);
    expect((await h.patch(cardId, { state: 'CLOSED' }, holder.wallet)).result.status).toBe(200);
    expect(await holdsOf(second.answer.authorizationId)).toEqual(['VOIDED', 'VOIDED']);
    expect(await availableOf(holder.usd)).toBe(1000n);
    expect(await balance(holder.usd)).toBe(1000);
    await balanced();
  });

  it('releases part of the hold on a partial reversal; a clearing then clears the rest', async () => {
    const { holder, cardId } = await funded(1000);
    const { answer, follow } = await authorized(cardId, 500);
    const partial = follow('REVERSAL', 200);
    const reversed = await send(partial);
    expect(reversed.body).toMatchObject({ decision: 'APPROVED', approvedAmount: 200 });
    expect(await availableOf(holder.usd)).toBe(700n);
    // A replay answers the same and releases nothing more.
    expect((await send(partial)).body).toEqual(reversed.body);
    expect(await availableOf(holder.usd)).toBe(700n);
    expect(await holdsOf(answer.authorizationId)).toEqual(['VOIDED', 'PENDING']);
    expect(await transaction(answer.cardTransactionId)).toMatchObject({
      status: 'AUTHORIZED',
      pullSummary: { totalAmount: 300 },
    });
    const above = await send(follow('REVERSAL', 301));
    expect(above.body).toMatchObject({ decision: 'DECLINED', declineReason: 'INVALID_AMOUNT' });
    const cleared = await send(follow('CLEARING'));
    expect(cleared.body).toMatchObject({ decision: 'APPROVED', approvedAmount: 300 });
    expect(await balance(holder.usd)).toBe(700);
    expect(await availableOf(holder.usd)).toBe(700n);
    await balanced();
  });

  it('releases a partial reversal from the last increment first', async () => {
    const { holder, answer, follow } = await incremented();
    // 250 reversed: the increment's 200 and 50 of the original (held again as 250).
    expect((await send(follow('REVERSAL', 250))).body).toMatchObject({ decision: 'APPROVED', approvedAmount: 250 });
    expect(await availableOf(holder.usd)).toBe(750n);
    expect(await holdsOf(answer.authorizationId)).toEqual(['VOIDED', 'VOIDED', 'PENDING']);
    // A partial clearing re-holds the rest; the next clearing takes it.
    expect((await send(follow('CLEARING', 100))).body).toMatchObject({ decision: 'APPROVED', approvedAmount: 100 });
    expect(await availableOf(holder.usd)).toBe(750n);
    expect((await send(follow('CLEARING'))).body).toMatchObject({ decision: 'APPROVED', approvedAmount: 150 });
    expect(await balance(holder.usd)).toBe(750);
    expect(await transaction(answer.cardTransactionId)).toMatchObject({ status: 'SETTLED' });
    await balanced();
  });

  it('clears part of an incremented authorization across its holds, holding the rest', async () => {
    const { holder, answer, follow } = await incremented();
    expect((await send(follow('CLEARING', 350))).body).toMatchObject({ decision: 'APPROVED', approvedAmount: 350 });
    expect(await availableOf(holder.usd)).toBe(500n);
    expect(await transaction(answer.cardTransactionId)).toMatchObject({ status: 'PARTIALLY_SETTLED' });
    expect((await send(follow('CLEARING'))).body).toMatchObject({ decision: 'APPROVED', approvedAmount: 150 });
    expect(await balance(holder.usd)).toBe(500);
    await balanced();
  });

  it('voids every hold of an incremented authorization when it expires', async () => {
    const { holder, answer } = await incremented();
    expect(await availableOf(holder.usd)).toBe(500n);
    clock.advance(AUTHORIZATION_VALIDITY_MS + 1000);
    await t.service.infra.jobs.promoteDue();
    await h.until(
      () => availableOf(holder.usd),
      (v) => v === 1000n,
      'the holds released on expiry',
    );
    expect(await holdsOf(answer.authorizationId)).toEqual(['VOIDED', 'VOIDED']);
    await balanced();
  });
});
