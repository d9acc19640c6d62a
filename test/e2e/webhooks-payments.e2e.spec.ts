import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { INCOMING_PAYMENT_WEBHOOK_TYPES, OUTGOING_PAYMENT_WEBHOOK_TYPES } from '#domain/webhooks/payment-webhooks.js';
import { useTestService } from '../support/fixture.js';
import { money } from './money-support.js';

const START = Date.UTC(2026, 3, 6, 8);

describe('payment webhooks: the public API types for every status change', () => {
  const clock = new ManualClock(START);

  const t = useTestService({ clock, webhooks: 'ok' });
  const api = t.api;
  const m = money(t);

  /** The webhook types received for one transaction, sorted (deliveries run in parallel). */
  const typesFor = (transactionId: string) =>
    t.receiver.requests
      .filter((r) => r.json?.data?.id === transactionId && r.answered === 200)
      .map((r) => r.json!.type)
      .sort();
  const waitForTypes = async (transactionId: string, expected: string[]) => {
    const sorted = [...expected].sort();
    await t.receiver.waitFor(
      () => JSON.stringify(typesFor(transactionId)) === JSON.stringify(sorted),
      10_000,
      `${expected.join(', ')} for ${transactionId} (got ${typesFor(transactionId).join(', ')})`,
    );
  };
  const hookOf = (transactionId: string, type: string) =>
    t.receiver.requests.find((r) => r.json?.data?.id === transactionId && r.json.type === type)!.json!;

  const execute = async (suffix: string) => (await m.payout(suffix)).transactionId;

  it('a quote that completes: PENDING, PROCESSING, COMPLETED', async () => {
    const tx = await execute('555');
    await waitForTypes(tx, ['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.COMPLETED']);
    const completed = hookOf(tx, 'OUTGOING_PAYMENT.COMPLETED');
    expect(completed).toMatchObject({
      id: expect.stringMatching(/^Webhook:/),
      timestamp: expect.any(String),
      data: {
        id: tx,
        status: 'COMPLETED',
        type: 'OUTGOING',
        source: { sourceType: 'ACCOUNT' },
        destination: { destinationType: 'ACCOUNT' },
        sentAmount: { amount: 10_000, currency: { code: 'USD' } },
        quoteId: expect.stringMatching(/^Quote:/),
      },
    });
    expect(completed.data.refund).toBeUndefined();
  });

  it('returned by the receiving bank: REFUND_PENDING, then FAILED and REFUND_COMPLETED with the refund', async () => {
    const tx = await execute('005');
    await waitForTypes(tx, ['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.COMPLETED']);
    await m.advance(300);
    await waitForTypes(tx, [
      'OUTGOING_PAYMENT.PENDING',
      'OUTGOING_PAYMENT.PROCESSING',
      'OUTGOING_PAYMENT.COMPLETED',
      'OUTGOING_PAYMENT.REFUND_PENDING',
      'OUTGOING_PAYMENT.FAILED',
      'OUTGOING_PAYMENT.REFUND_COMPLETED',
    ]);
    // On the platform's clock: the return starts once it was advanced, before the payment ends FAILED.
    const at = (type: string) => Date.parse(hookOf(tx, type).timestamp);
    expect(at('OUTGOING_PAYMENT.REFUND_PENDING')).toBeGreaterThanOrEqual(at('OUTGOING_PAYMENT.COMPLETED') + 300_000);
    expect(at('OUTGOING_PAYMENT.REFUND_PENDING')).toBeLessThanOrEqual(at('OUTGOING_PAYMENT.FAILED'));
    expect(hookOf(tx, 'OUTGOING_PAYMENT.REFUND_PENDING').data.refund).toMatchObject({
      status: 'PENDING',
      reason: 'TRANSACTION_FAILED',
    });
    expect(hookOf(tx, 'OUTGOING_PAYMENT.REFUND_COMPLETED').data).toMatchObject({
      status: 'FAILED',
      refund: {
        reference: expect.any(String),
        initiatedAt: expect.any(String),
        settledAt: expect.any(String),
        status: 'COMPLETED',
        reason: 'TRANSACTION_FAILED',
      },
    });
  });

  it('user cancellation: REFUND_COMPLETED (USER_CANCELLATION); payout and refund failed: REFUND_FAILED', async () => {
    const cancelled = await execute('006');
    const lost = await execute('007');
    await m.advance(30);
    await waitForTypes(cancelled, [
      'OUTGOING_PAYMENT.PENDING',
      'OUTGOING_PAYMENT.PROCESSING',
      'OUTGOING_PAYMENT.REFUND_PENDING',
      'OUTGOING_PAYMENT.REFUND_COMPLETED',
    ]);
    expect(hookOf(cancelled, 'OUTGOING_PAYMENT.REFUND_COMPLETED').data).toMatchObject({
      status: 'REFUNDED',
      refund: { status: 'COMPLETED', reason: 'USER_CANCELLATION' },
    });
    await waitForTypes(lost, [
      'OUTGOING_PAYMENT.PENDING',
      'OUTGOING_PAYMENT.PROCESSING',
      'OUTGOING_PAYMENT.REFUND_PENDING',
      'OUTGOING_PAYMENT.FAILED',
      'OUTGOING_PAYMENT.REFUND_FAILED',
    ]);
    expect(hookOf(lost, 'OUTGOING_PAYMENT.REFUND_FAILED').data.refund).toMatchObject({ status: 'FAILED' });
  });

  it('a failed execution and an expired quote: FAILED (QUOTE_EXECUTION_FAILED), EXPIRED', async () => {
    const failed = await execute('002');
    await waitForTypes(failed, ['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.FAILED']);
    expect(hookOf(failed, 'OUTGOING_PAYMENT.FAILED').data).toMatchObject({
      status: 'FAILED',
      failureReason: 'QUOTE_EXECUTION_FAILED',
    });
    const c = await m.funded(1_000);
    const q = await m.accountQuote(c.accounts.USD, await m.external(c.id, 'USD', '555'), 500);
    expect(q.status).toBe(201);
    await m.advance(3_600);
    await waitForTypes(q.body.transactionId, ['OUTGOING_PAYMENT.PENDING', 'OUTGOING_PAYMENT.EXPIRED']);
  });

  it('incoming: COMPLETED when credited, FAILED when rejected by compliance; no CREATED or PROCESSING', async () => {
    const c = await m.customer(['USD']);
    const receive = (senderUmaAddress: string) =>
      api.post('/sandbox/uma/receive', {
        senderUmaAddress,
        customerId: c.id,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 2_500,
      });
    const credited = await receive('$alice@other.example.com');
    expect(credited.body.status).toBe('COMPLETED');
    const rejected = await receive('$fail.compliance.USD@bank.example.com');
    expect(rejected.body.status).toBe('REJECTED');
    await waitForTypes(credited.body.id, ['INCOMING_PAYMENT.COMPLETED']);
    await waitForTypes(rejected.body.id, ['INCOMING_PAYMENT.FAILED']);
    expect(hookOf(rejected.body.id, 'INCOMING_PAYMENT.FAILED').data).toMatchObject({
      type: 'INCOMING',
      status: 'REJECTED',
      receivedAmount: { amount: 2_500, currency: { code: 'USD' } },
    });
  });

  it('never sends a payment type the public API lacks', () => {
    const sent = new Set(
      t.receiver.requests.map((r) => r.json?.type).filter((type) => /_PAYMENT\./.test(String(type))) as string[],
    );
    expect(sent.size).toBeGreaterThan(0);
    // The types the document's `webhooks:` section lists (apps/api/src/docs/webhook-docs.ts).
    const documented: string[] = [...OUTGOING_PAYMENT_WEBHOOK_TYPES, ...INCOMING_PAYMENT_WEBHOOK_TYPES];
    for (const type of sent) expect(documented).toContain(type);
  });
});
