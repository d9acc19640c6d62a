import { beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { useTestService } from '../support/fixture.js';
import { type ReceivedRequest } from '../support/webhook-receiver.js';
import { money } from './money-support.js';
import { pendingIncoming } from '../support/sandbox-payments.js';

const START = Date.UTC(2026, 3, 8, 10);

/** The incoming-payment webhook as the approval channel: the platform's reply decides. */
describe('incoming payments approved or rejected by the reply to INCOMING_PAYMENT.PENDING', () => {
  const clock = new ManualClock(START);
  /** The reply for approval requests, by the receiving customer. */
  const replies = new Map<string, { status: number; body?: unknown }>();

  const t = useTestService({ clock, webhooks: 'ok' });
  const api = t.api;
  const m = money(t);
  beforeAll(async () => {
    t.receiver.replyWith((r) =>
      r.json?.type === 'INCOMING_PAYMENT.PENDING' ? replies.get(r.json.data.customerId) : undefined,
    );
  });

  /** A payment to a new customer waiting for approval; the reply to its approval request is `reply`. */
  const incoming = async (reply: { status: number; body?: unknown }, profile: Record<string, unknown> = {}) => {
    const c = await m.customer(['USD'], profile);
    replies.set(c.id, reply);
    return { c, id: (await pendingIncoming(api, c.id, 7_000)).id };
  };
  const requestsFor = (id: string, type: string) =>
    t.receiver.requests.filter((r: ReceivedRequest) => r.json?.type === type && r.json.data.id === id);
  const answered = async (id: string) => {
    await t.receiver.waitFor(
      () => requestsFor(id, 'INCOMING_PAYMENT.PENDING').some((r) => r.answered !== undefined),
      10_000,
      `the approval request for ${id}`,
    );
    return requestsFor(id, 'INCOMING_PAYMENT.PENDING')[0].json!;
  };
  const delivery = async (webhookId: string) => {
    const list = await api.get(`/webhooks/deliveries?type=INCOMING_PAYMENT.PENDING&limit=100`);
    expect(list.status).toBe(200);
    const found = list.body.data.find((d: any) => d.webhookId === webhookId);
    return (await api.get(`/webhooks/deliveries/${found.id}`)).body;
  };

  it('200 with receiverCustomerInfo approves: COMPLETED and credited', async () => {
    const { c, id } = await incoming(
      { status: 200, body: { receiverCustomerInfo: { BIRTH_DATE: '1990-01-31', NATIONALITY: 'US' } } },
      { fullName: 'Ada Lovelace' },
    );
    const request = await answered(id);
    expect(request).toMatchObject({
      type: 'INCOMING_PAYMENT.PENDING',
      data: {
        id,
        status: 'PENDING',
        type: 'INCOMING',
        customerId: c.id,
        receivedAmount: { amount: 7_000, currency: { code: 'USD' } },
        counterpartyInformation: expect.any(Object),
        reconciliationInstructions: { reference: expect.any(String) },
        requestedReceiverCustomerInfoFields: [
          { name: 'BIRTH_DATE', mandatory: true },
          { name: 'NATIONALITY', mandatory: true },
          { name: 'POSTAL_ADDRESS', mandatory: false },
        ],
      },
    });
    expect(await m.eventually(id, 'COMPLETED')).toMatchObject({ type: 'INCOMING' });
    expect(await m.balance(c.accounts.USD)).toBe(7_000);
    await t.receiver.waitFor((r) =>
      r.some((x) => x.json?.type === 'INCOMING_PAYMENT.COMPLETED' && x.json.data.id === id),
    );
    const d = await delivery(request.id);
    expect(d).toMatchObject({ status: 'DELIVERED', attemptCount: 1 });
    expect(d.attempts[0].approval).toEqual({
      decision: 'APPROVE',
      receiverCustomerInfo: { BIRTH_DATE: '1990-01-31', NATIONALITY: 'US' },
    });
  });

  it('200 without a mandatory requested field fails the payment with MISSING_MANDATORY_PAYEE_DATA', async () => {
    const { c, id } = await incoming({ status: 200, body: { receiverCustomerInfo: { BIRTH_DATE: '1990-01-31' } } });
    await answered(id);
    expect(await m.eventually(id, 'FAILED')).toMatchObject({ failureReason: 'MISSING_MANDATORY_PAYEE_DATA' });
    expect(await m.balance(c.accounts.USD)).toBe(0);
  });

  it('403 rejects: REJECTED, delivered once, INCOMING_PAYMENT.FAILED follows', async () => {
    const { c, id } = await incoming({
      status: 403,
      body: { code: 'FORBIDDEN', message: 'Payment rejected', reason: 'RESTRICTED_JURISDICTION' },
    });
    const request = await answered(id);
    expect(await m.eventually(id, 'REJECTED')).toMatchObject({ type: 'INCOMING' });
    expect(await m.balance(c.accounts.USD)).toBe(0);
    await t.receiver.waitFor((r) => r.some((x) => x.json?.type === 'INCOMING_PAYMENT.FAILED' && x.json.data.id === id));
    const d = await delivery(request.id);
    expect(d).toMatchObject({ status: 'DELIVERED', attemptCount: 1, lastStatusCode: 403 });
    expect(d.attempts[0].approval).toEqual({ decision: 'REJECT', reason: 'RESTRICTED_JURISDICTION' });
    expect(requestsFor(id, 'INCOMING_PAYMENT.PENDING')).toHaveLength(1);
  });

  it('422 asks for counterparty information: REJECTED, naming the fields', async () => {
    const { id } = await incoming({
      status: 422,
      body: {
        code: 'MISSING_INFO',
        message: 'More information needed',
        requiredFields: ['TAX_ID', 'REGISTRATION_NUMBER'],
      },
    });
    const request = await answered(id);
    expect(await m.eventually(id, 'REJECTED')).toMatchObject({ type: 'INCOMING' });
    expect((await delivery(request.id)).attempts[0].approval).toEqual({
      decision: 'REJECT',
      reason: 'counterparty information required: TAX_ID, REGISTRATION_NUMBER',
      requiredFields: ['TAX_ID', 'REGISTRATION_NUMBER'],
    });
  });

  it('202 leaves it PENDING until POST /transactions/{id}/approve', async () => {
    const { c, id } = await incoming({ status: 202 });
    const request = await answered(id);
    expect(await delivery(request.id)).toMatchObject({
      status: 'DELIVERED',
      attempts: [{ approval: { decision: 'WAIT' } }],
    });
    expect((await m.transaction(id)).status).toBe('PENDING');
    const approved = await api.post(`/transactions/${id}/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('COMPLETED');
    expect(await m.balance(c.accounts.USD)).toBe(7_000);
  });

  it('any other reply is a failed delivery, retried; the payment times out', async () => {
    const { id } = await incoming({ status: 500, body: { code: 'INTERNAL_ERROR' } });
    const request = await answered(id);
    const d = await delivery(request.id);
    expect(d).toMatchObject({ status: 'PENDING', lastStatusCode: 500 });
    expect(d.attempts[0].approval).toBeUndefined();
    expect((await m.transaction(id)).status).toBe('PENDING');
    await m.advance(3_600);
    expect(await m.eventually(id, 'FAILED')).toMatchObject({ failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' });
    // Decided: the next retry is not sent, and the delivery ends FAILED.
    await m.advance(1_800);
    const deadline = Date.now() + 10_000;
    let ended = await delivery(request.id);
    while (ended.status !== 'FAILED' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      ended = await delivery(request.id);
    }
    expect(ended).toMatchObject({ status: 'FAILED', lastError: expect.stringContaining('decided') });
    const sent = requestsFor(id, 'INCOMING_PAYMENT.PENDING').length;
    expect(ended.attempts.at(-1)).toMatchObject({ outcome: 'FAILED', latencyMs: 0 });
    expect(ended.attemptCount).toBe(sent + 1);
  });

  it('a reply after the payment was decided changes nothing', async () => {
    const { id } = await incoming({ status: 202 });
    await answered(id);
    expect((await api.post(`/transactions/${id}/reject`)).body.status).toBe('REJECTED');
    const { id: late } = await incoming({ status: 403 });
    await answered(late);
    expect(await m.eventually(late, 'REJECTED')).toMatchObject({ status: 'REJECTED' });
    expect((await m.transaction(id)).status).toBe('REJECTED');
  });
});
