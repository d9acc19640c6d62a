import { describe, expect, it } from '@jest/globals';
import type { PaymentStep } from '../payments/transactions/payment-plan.js';
import type { TransactionRecord, TransactionStatus } from '../payments/transactions/transaction.js';
import {
  awaitsApproval,
  paymentWebhookTypes,
  refundReason,
  requestedReceiverFields,
  type PaymentChange,
} from './payment-webhooks.js';

const tx = (over: Partial<TransactionRecord>): TransactionRecord =>
  ({
    id: 'Transaction:00000000-0000-4000-8000-000000000001',
    platformId: 'Platform:00000000-0000-4000-8000-000000000002',
    type: 'OUTGOING',
    status: 'PENDING',
    source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:a', currency: 'USD' },
    destination: { destinationType: 'ACCOUNT', accountId: 'ExternalAccount:b', currency: 'USD' },
    customerId: 'Customer:c',
    platformCustomerId: 'p',
    sentAmount: '100',
    receivedAmount: '100',
    fees: '0',
    reference: 'TX-1',
    plan: {},
    createdAt: 't0',
    updatedAt: 't1',
    ...over,
  }) as TransactionRecord;

const moved = (from: TransactionStatus, over: Partial<TransactionRecord>): PaymentChange => ({
  kind: 'status',
  transaction: tx(over),
  previousStatus: from,
});
const step = (s: PaymentStep, over: Partial<TransactionRecord> = {}): PaymentChange => ({
  kind: 'step',
  transaction: tx({ status: 'PROCESSING', ...over }),
  step: s,
});

describe('payment webhook types (the public API list)', () => {
  it('outgoing: one status type for the public statuses, nothing for CREATED', () => {
    expect(paymentWebhookTypes({ kind: 'created', transaction: tx({ status: 'CREATED' }) })).toEqual([]);
    expect(paymentWebhookTypes({ kind: 'created', transaction: tx({}) })).toEqual(['OUTGOING_PAYMENT.PENDING']);
    expect(paymentWebhookTypes(moved('PENDING', { status: 'PROCESSING' }))).toEqual(['OUTGOING_PAYMENT.PROCESSING']);
    expect(paymentWebhookTypes(moved('PROCESSING', { status: 'COMPLETED' }))).toEqual(['OUTGOING_PAYMENT.COMPLETED']);
    expect(paymentWebhookTypes(moved('PENDING', { status: 'EXPIRED' }))).toEqual(['OUTGOING_PAYMENT.EXPIRED']);
    expect(paymentWebhookTypes(moved('PROCESSING', { status: 'FAILED', failureReason: 'OFFRAMP_FAILED' }))).toEqual([
      'OUTGOING_PAYMENT.FAILED',
    ]);
  });

  it('outgoing refunds: pending when the step starts, completed or failed when it ends', () => {
    expect(paymentWebhookTypes(step({ type: 'RETURN', status: 'FAILED' }, { status: 'COMPLETED' }))).toEqual([
      'OUTGOING_PAYMENT.REFUND_PENDING',
    ]);
    expect(paymentWebhookTypes(step({ type: 'FAIL', status: 'REFUNDED' }))).toEqual([
      'OUTGOING_PAYMENT.REFUND_PENDING',
    ]);
    expect(paymentWebhookTypes(step({ type: 'LOSE' }))).toEqual(['OUTGOING_PAYMENT.REFUND_PENDING']);
    // A step that only releases a hold refunds nothing.
    expect(paymentWebhookTypes(step({ type: 'FAIL', status: 'FAILED' }))).toEqual([]);
    expect(paymentWebhookTypes(step({ type: 'COMPLETE' }))).toEqual([]);
    expect(paymentWebhookTypes(moved('COMPLETED', { status: 'FAILED' }))).toEqual([
      'OUTGOING_PAYMENT.FAILED',
      'OUTGOING_PAYMENT.REFUND_COMPLETED',
    ]);
    expect(paymentWebhookTypes(moved('PROCESSING', { status: 'REFUNDED' }))).toEqual([
      'OUTGOING_PAYMENT.REFUND_COMPLETED',
    ]);
    expect(paymentWebhookTypes(moved('PROCESSING', { status: 'REJECTED' }))).toEqual([
      'OUTGOING_PAYMENT.REFUND_COMPLETED',
    ]);
    expect(
      paymentWebhookTypes(moved('PROCESSING', { status: 'FAILED', failureDetail: 'PAYOUT_AND_REFUND_FAILED' })),
    ).toEqual(['OUTGOING_PAYMENT.FAILED', 'OUTGOING_PAYMENT.REFUND_FAILED']);
    expect(refundReason(tx({ failureDetail: 'USER_CANCELLED' }))).toBe('USER_CANCELLATION');
    expect(refundReason(tx({ failureDetail: 'BANK_TIMEOUT' }))).toBe('TIMEOUT');
    expect(refundReason(tx({}))).toBe('TRANSACTION_FAILED');
  });

  it('incoming: PENDING only as an approval request, FAILED for every way of not completing', () => {
    const uma = { type: 'INCOMING' as const, source: { sourceType: 'UMA_ADDRESS' as const, currency: 'USD' } };
    const waiting = tx({ ...uma, plan: { later: { afterMs: 1, step: { type: 'FAIL', status: 'FAILED' } } } });
    expect(awaitsApproval(waiting)).toBe(true);
    expect(paymentWebhookTypes(moved('CREATED', waiting))).toEqual(['INCOMING_PAYMENT.PENDING']);
    const credited = { ...uma, plan: { immediate: { type: 'COMPLETE' as const } } };
    expect(paymentWebhookTypes(moved('CREATED', credited))).toEqual([]);
    // A transfer in is never approved by the platform.
    expect(awaitsApproval(tx({ type: 'INCOMING' }))).toBe(false);
    expect(paymentWebhookTypes(moved('PENDING', { ...uma, status: 'PROCESSING' }))).toEqual([]);
    expect(paymentWebhookTypes(moved('PROCESSING', { ...uma, status: 'COMPLETED' }))).toEqual([
      'INCOMING_PAYMENT.COMPLETED',
    ]);
    for (const status of ['FAILED', 'REJECTED', 'REFUNDED', 'EXPIRED'] as const)
      expect(paymentWebhookTypes(moved('PENDING', { ...uma, status }))).toEqual(['INCOMING_PAYMENT.FAILED']);
    expect(paymentWebhookTypes(step({ type: 'FAIL', status: 'REJECTED' }, uma))).toEqual([]);
  });

  it('asks only for the receiver fields its registration lacks', () => {
    expect(requestedReceiverFields({ customerType: 'INDIVIDUAL', fullName: 'A', birthDate: '1990-01-01' })).toEqual([
      { name: 'NATIONALITY', mandatory: true },
      { name: 'POSTAL_ADDRESS', mandatory: false },
    ]);
    expect(
      requestedReceiverFields({
        customerType: 'BUSINESS',
        address: { line1: 'x' },
        businessInfo: { legalName: 'Acme' },
      }),
    ).toEqual([{ name: 'REGISTRATION_NUMBER', mandatory: true }]);
  });
});
