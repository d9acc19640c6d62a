import { describe, expect, it } from '@jest/globals';
import { deciderSpec } from '../testing/decider-spec.js';
import { approvalReply } from './payment-approval.js';
import { attemptOutcome, webhookDeliveryDecider, type WebhookDeliveryEvent } from './webhook-delivery.js';

const requested = [
  { name: 'NATIONALITY', mandatory: true },
  { name: 'POSTAL_ADDRESS', mandatory: false },
];

describe('the reply to an incoming-payment approval request', () => {
  it('200 approves with the requested fields; a missing mandatory one fails the payment', () => {
    const info = { receiverCustomerInfo: { NATIONALITY: 'US' } };
    expect(approvalReply(200, JSON.stringify(info), requested)).toEqual({
      decision: 'APPROVE',
      receiverCustomerInfo: { NATIONALITY: 'US' },
    });
    expect(approvalReply(200, '', [])).toEqual({ decision: 'APPROVE' });
    expect(approvalReply(204, undefined, [])).toEqual({ decision: 'APPROVE' });
    for (const body of ['', 'not json', '{"receiverCustomerInfo":{"NATIONALITY":""}}', '[]'])
      expect(approvalReply(200, body, requested)).toEqual({
        decision: 'FAIL',
        failureReason: 'MISSING_MANDATORY_PAYEE_DATA',
        missingFields: ['NATIONALITY'],
      });
  });

  it('202 waits, 403 rejects with its reason, 422 rejects naming the required fields', () => {
    expect(approvalReply(202, '{}', requested)).toEqual({ decision: 'WAIT' });
    expect(approvalReply(403, '{"code":"FORBIDDEN","reason":"RESTRICTED_JURISDICTION"}')).toEqual({
      decision: 'REJECT',
      reason: 'RESTRICTED_JURISDICTION',
    });
    expect(approvalReply(403, 'nope')).toEqual({ decision: 'REJECT' });
    expect(approvalReply(422, '{"requiredFields":["TAX_ID",7]}')).toEqual({
      decision: 'REJECT',
      reason: 'counterparty information required: TAX_ID',
      requiredFields: ['TAX_ID'],
    });
  });

  it('anything else decides nothing', () => {
    for (const status of [undefined, 301, 400, 401, 409, 500]) expect(approvalReply(status, '{}')).toBeUndefined();
  });

  it('403 and 422 deliver an approval request (and only it)', () => {
    const input = { attempt: 1, maxAttempts: 5 };
    for (const statusCode of [403, 422]) {
      expect(attemptOutcome({ ...input, statusCode, webhookType: 'INCOMING_PAYMENT.PENDING' })).toBe('DELIVERED');
      expect(attemptOutcome({ ...input, statusCode, webhookType: 'INCOMING_PAYMENT.COMPLETED' })).toBe('RETRYING');
    }
    expect(attemptOutcome({ ...input, statusCode: 500, webhookType: 'INCOMING_PAYMENT.PENDING' })).toBe('RETRYING');
  });
});

describe('a delivery keeps the decision of the reply that delivered it', () => {
  const spec = deciderSpec(webhookDeliveryDecider);
  const ids = { deliveryId: 'WebhookDelivery:d', platformId: 'Platform:p' };
  const scheduled: WebhookDeliveryEvent = {
    type: 'WebhookDeliveryScheduled',
    data: {
      ...ids,
      url: 'https://example.com/hooks',
      payload: { id: 'Webhook:w', type: 'INCOMING_PAYMENT.PENDING', timestamp: 't0', data: {} },
      maxAttempts: 5,
      createdAt: 't0',
    },
  };
  const attempted = (
    statusCode: number,
    outcome: 'DELIVERED' | 'RETRYING',
    approval?: object,
  ): WebhookDeliveryEvent => ({
    type: 'WebhookDeliveryAttempted',
    data: {
      ...ids,
      attempt: 1,
      attemptedAt: 't1',
      statusCode,
      latencyMs: 3,
      outcome,
      ...(approval ? { approval } : {}),
    } as never,
  });

  it('records the decision with the attempt and keeps the first one', () => {
    const reject = { decision: 'REJECT', reason: 'no' };
    const events = spec
      .given([scheduled])
      .when({ type: 'RecordAttempt', attempt: attempted(403, 'DELIVERED', reject).data as never })
      .thenEmits();
    expect(events).toEqual([attempted(403, 'DELIVERED', reject)]);
    const state = spec.fold([
      scheduled,
      attempted(500, 'RETRYING'),
      ...events,
      attempted(200, 'DELIVERED', { decision: 'APPROVE' }),
    ]);
    expect(state).toMatchObject({ status: 'DELIVERED', attemptCount: 3, approval: reject });
  });
});
