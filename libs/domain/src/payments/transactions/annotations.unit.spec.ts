import { describe, expect, it } from '@jest/globals';
import { deciderSpec } from '../../testing/decider-spec.js';
import { refundFor } from './annotations.js';
import { referenceFor, transactionDecider, type TransactionEvent, type TransactionRecord } from './transaction.js';

const CREATED = '2026-01-01T00:00:00.000Z';
const NOW = '2026-01-01T01:00:00.000Z';
const id = 'Transaction:11111111-2222-4333-8444-555555555555';

function tx(overrides: Partial<TransactionRecord> = {}): TransactionRecord {
  return {
    id,
    platformId: 'Platform:11111111-2222-4333-8444-000000000000',
    type: 'INCOMING',
    status: 'PENDING',
    source: { sourceType: 'UMA_ADDRESS', umaAddress: '$pending.long.USD@else.example', currency: 'USD' },
    destination: {
      destinationType: 'ACCOUNT',
      accountId: 'InternalAccount:11111111-2222-4333-8444-000000000002',
      currency: 'USD',
    },
    customerId: 'Customer:11111111-2222-4333-8444-000000000003',
    platformCustomerId: 'c-1',
    sentAmount: '700',
    receivedAmount: '700',
    fees: '0',
    reference: referenceFor(id),
    plan: { later: { afterMs: 3_600_000, step: { type: 'FAIL', status: 'FAILED' } } },
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

const created = (t: TransactionRecord): TransactionEvent[] => [
  { type: 'TransactionCreated', data: { platformId: t.platformId, transaction: t } },
];
const spec = deciderSpec(transactionDecider);

describe('receipt delivery confirmation', () => {
  it('records the given time, or now when none is given', () => {
    const given = spec.given(created(tx({ status: 'COMPLETED' })));
    const [at] = given.when({ type: 'ConfirmReceiptDelivery', at: '2026-01-01T00:30:00Z', now: NOW }).thenEmits();
    expect(at.type).toBe('TransactionAnnotated');
    expect(at.data.transaction).toMatchObject({
      receiptDeliveryConfirmedAt: '2026-01-01T00:30:00.000Z',
      updatedAt: NOW,
      status: 'COMPLETED',
    });
    const [now] = given.when({ type: 'ConfirmReceiptDelivery', now: NOW }).thenEmits();
    expect(now.data.transaction.receiptDeliveryConfirmedAt).toBe(NOW);
  });

  it('moves the time when confirmed again, and records nothing for the same time', () => {
    const first = spec.history(
      { type: 'CreateTransaction', transaction: tx() },
      { type: 'ConfirmReceiptDelivery', at: '2026-01-01T00:10:00.000Z', now: NOW },
    );
    spec.given(first).when({ type: 'ConfirmReceiptDelivery', at: '2026-01-01T00:10:00Z', now: NOW }).then([]);
    const [moved] = spec.given(first).when({ type: 'ConfirmReceiptDelivery', now: NOW }).thenEmits();
    expect(moved.data.transaction.receiptDeliveryConfirmedAt).toBe(NOW);
  });

  it('refuses a time in the future or before the transaction existed', () => {
    const given = spec.given(created(tx()));
    given.when({ type: 'ConfirmReceiptDelivery', at: '2026-01-01T02:00:00Z', now: NOW }).thenFails({
      kind: 'invalid',
      code: 'INVALID_INPUT',
      details: { errors: [expect.objectContaining({ field: 'receiptDeliveryConfirmedAt' })] },
    });
    given
      .when({ type: 'ConfirmReceiptDelivery', at: '2025-12-31T23:59:59Z', now: NOW })
      .thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
  });

  it('answers 404 for an unknown transaction', () => {
    spec.given([]).when({ type: 'ConfirmReceiptDelivery', now: NOW }).thenFails({ code: 'TRANSACTION_NOT_FOUND' });
  });
});

describe('the platform’s decision on an incoming payment', () => {
  it('keeps receiverCustomerInfo of an approval and the reason of a rejection', () => {
    const given = spec.given(created(tx()));
    const info = { FULL_NAME: 'Bob Receiver', BIRTH_DATE: '1990-01-01' };
    const [approved] = given
      .when({ type: 'RecordPlatformDecision', decision: 'APPROVE', receiverCustomerInfo: info, now: NOW })
      .thenEmits();
    expect(approved.data.transaction).toMatchObject({ receiverCustomerInfo: info, status: 'PENDING' });
    const [rejected] = given
      .when({ type: 'RecordPlatformDecision', decision: 'REJECT', reason: 'RESTRICTED_JURISDICTION', now: NOW })
      .thenEmits();
    expect(rejected.data.transaction.rejectionReason).toBe('RESTRICTED_JURISDICTION');
  });

  it('records nothing when the platform says nothing', () => {
    spec.given(created(tx())).when({ type: 'RecordPlatformDecision', decision: 'APPROVE', now: NOW }).then([]);
    spec
      .given(created(tx()))
      .when({ type: 'RecordPlatformDecision', decision: 'REJECT', reason: '', now: NOW })
      .then([]);
  });

  it('answers 409 TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL unless the payment waits for the platform', () => {
    for (const other of [
      tx({ status: 'COMPLETED' }),
      tx({ type: 'OUTGOING' }),
      tx({ plan: { immediate: { type: 'COMPLETE' } } }),
      tx({ activeStep: { type: 'COMPLETE' } }),
    ]) {
      spec
        .given(created(other))
        .when({ type: 'RecordPlatformDecision', decision: 'REJECT', reason: 'x', now: NOW })
        .thenFails({ kind: 'conflict', code: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL' });
    }
  });
});

describe('refunds of outgoing payments', () => {
  const out = (overrides: Partial<TransactionRecord>) => refundFor(tx({ type: 'OUTGOING', ...overrides }), NOW);
  const completed = (reason: string) => ({
    reference: `${referenceFor(id)}-REFUND`,
    initiatedAt: NOW,
    settledAt: NOW,
    status: 'COMPLETED',
    reason,
  });

  it('follows how the payment ended', () => {
    expect(out({ status: 'REFUNDED', failureDetail: 'USER_CANCELLED' })).toEqual(completed('USER_CANCELLATION'));
    expect(out({ status: 'REJECTED', failureDetail: 'REJECTED_BY_BANK' })).toEqual(completed('TRANSACTION_FAILED'));
    expect(out({ status: 'FAILED', failureDetail: 'BANK_TIMEOUT' })).toEqual(completed('TIMEOUT'));
    expect(
      out({ status: 'FAILED', failureReason: 'OFFRAMP_FAILED', failureDetail: 'RETURNED_BY_RECEIVING_BANK' }),
    ).toEqual(completed('TRANSACTION_FAILED'));
    expect(out({ status: 'FAILED', failureReason: 'OFFRAMP_FAILED' })).toEqual(completed('TRANSACTION_FAILED'));
    expect(out({ status: 'FAILED', failureDetail: 'PAYOUT_AND_REFUND_FAILED' })).toEqual({
      reference: `${referenceFor(id)}-REFUND`,
      initiatedAt: NOW,
      status: 'FAILED',
      reason: 'TRANSACTION_FAILED',
    });
  });

  it('has none when no money moved, for completed payments and for incoming ones', () => {
    expect(out({ status: 'FAILED', failureDetail: 'INSUFFICIENT_FUNDS' })).toBeUndefined();
    expect(out({ status: 'FAILED', failureReason: 'QUOTE_EXECUTION_FAILED' })).toBeUndefined();
    expect(out({ status: 'FAILED', failureReason: 'PAY_REQUEST_FAILED' })).toBeUndefined();
    expect(out({ status: 'COMPLETED' })).toBeUndefined();
    expect(out({ status: 'EXPIRED', failureReason: 'QUOTE_EXPIRED' })).toBeUndefined();
    expect(refundFor(tx({ status: 'REJECTED' }), NOW)).toBeUndefined();
  });

  it('is stamped on the record when the payment reaches its final status', () => {
    const processing = tx({ type: 'OUTGOING', status: 'PROCESSING' });
    const [ended] = spec
      .given(created(processing))
      .when({ type: 'TransitionTransaction', to: 'REFUNDED', failureDetail: 'USER_CANCELLED', now: NOW })
      .thenEmits();
    expect(ended.data.transaction.refund).toEqual(completed('USER_CANCELLATION'));
  });
});
