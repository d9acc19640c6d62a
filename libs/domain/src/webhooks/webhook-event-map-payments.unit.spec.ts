import { describe, expect, it } from '@jest/globals';
import { currency } from '#domain/primitives.js';
import { accountDoc, alice, customerId, map, platformId, recorded, sources } from './webhook-event-map.fixtures.js';

describe('the event -> webhook table: payments, account status, verifications', () => {
  it('payment webhooks use the public API types and carry the Transaction resource', async () => {
    const transaction = {
      id: 'Transaction:00000000-0000-4000-8000-000000000031',
      platformId,
      type: 'OUTGOING',
      status: 'COMPLETED',
      source: { sourceType: 'ACCOUNT', accountId: alice, currency: 'USD' },
      destination: {
        destinationType: 'ACCOUNT',
        accountId: 'ExternalAccount:00000000-0000-4000-8000-000000000041',
        currency: 'EUR',
      },
      customerId,
      platformCustomerId: 'p-1',
      sentAmount: '1000',
      receivedAmount: '900',
      fees: '10',
      reference: 'TX-1',
      plan: {},
      settledAt: 't7',
      createdAt: 't1',
      updatedAt: 't7',
    };
    const changed = await map(
      recorded('TransactionStatusChanged', { platformId, transaction, previousStatus: 'PROCESSING' }),
    );
    expect(changed.platform).toBe(platformId);
    expect(changed.webhooks).toEqual([
      {
        type: 'OUTGOING_PAYMENT.COMPLETED',
        timestamp: 't7',
        data: expect.objectContaining({
          id: transaction.id,
          status: 'COMPLETED',
          sentAmount: { amount: 1000, currency: currency('USD') },
        }),
      },
    ]);
    // Returned after completion: FAILED, then the refund that brought the money back.
    const returned = await map(
      recorded('TransactionStatusChanged', {
        platformId,
        transaction: { ...transaction, status: 'FAILED', failureDetail: 'RETURNED_BY_RECEIVING_BANK', updatedAt: 't9' },
        previousStatus: 'COMPLETED',
      }),
    );
    expect(returned.webhooks.map((w) => w.type)).toEqual([
      'OUTGOING_PAYMENT.FAILED',
      'OUTGOING_PAYMENT.REFUND_COMPLETED',
    ]);
    expect(returned.webhooks[1].data.refund).toEqual({
      reference: 'TX-1-REFUND',
      initiatedAt: 't9',
      settledAt: 't9',
      status: 'COMPLETED',
      reason: 'TRANSACTION_FAILED',
    });
    const started = await map(
      recorded('TransactionStepStarted', {
        platformId,
        transaction: { ...transaction, status: 'PROCESSING', activeStep: { type: 'FAIL', status: 'REFUNDED' } },
        startedAt: 't8',
      }),
    );
    expect(started.webhooks).toEqual([
      expect.objectContaining({ type: 'OUTGOING_PAYMENT.REFUND_PENDING', timestamp: 't8' }),
    ]);
    expect(started.webhooks[0].data.refund).toMatchObject({ status: 'PENDING' });
    // An incoming payment waiting for approval asks for what the receiver's registration lacks.
    const receiver = { id: customerId, platformId, customerType: 'INDIVIDUAL', fullName: 'Ann Lee' };
    const incoming = {
      ...transaction,
      type: 'INCOMING',
      status: 'PENDING',
      source: { sourceType: 'UMA_ADDRESS', umaAddress: '$s@x.example', currency: 'USD' },
      updatedAt: 't1',
    };
    const pending = await map(
      recorded('TransactionStatusChanged', { platformId, transaction: incoming, previousStatus: 'CREATED' }),
      sources([receiver], []),
    );
    expect(pending.webhooks).toHaveLength(1);
    expect(pending.webhooks[0]).toMatchObject({ type: 'INCOMING_PAYMENT.PENDING', timestamp: 't1' });
    expect(pending.webhooks[0].data.requestedReceiverCustomerInfoFields).toEqual([
      { name: 'BIRTH_DATE', mandatory: true },
      { name: 'NATIONALITY', mandatory: true },
      { name: 'POSTAL_ADDRESS', mandatory: false },
    ]);
    // Credited at once (no approval): nothing while PENDING.
    const credited = { ...incoming, plan: { immediate: { type: 'COMPLETE' } } };
    expect((await map(recorded('TransactionCreated', { platformId, transaction: credited }))).webhooks).toEqual([]);
  });

  it('INTERNAL_ACCOUNT.STATUS_UPDATED and VERIFICATION.<status> carry their resources', async () => {
    const closed = await map(
      recorded('InternalAccountStatusChanged', {
        platformId,
        customerId,
        accountId: alice,
        status: 'CLOSED',
        updatedAt: 't5',
      }),
      sources([accountDoc(alice, customerId)], []),
    );
    expect(closed.webhooks).toEqual([
      {
        type: 'INTERNAL_ACCOUNT.STATUS_UPDATED',
        timestamp: 't5',
        data: expect.objectContaining({ id: alice, customerId, status: 'CLOSED', updatedAt: 't5' }),
      },
    ]);
    expect(closed.webhooks[0].data).not.toHaveProperty('platformId');
    const verification = {
      id: 'Verification:00000000-0000-4000-8000-000000000061',
      platformId,
      customerId,
      customerType: 'INDIVIDUAL',
      verificationStatus: 'PENDING',
      errors: [],
      createdAt: 't6',
      updatedAt: 't6',
    };
    const recordedVerification = await map(
      recorded('VerificationCreated', { verificationId: verification.id, platformId, customerId, verification }),
    );
    expect(recordedVerification.webhooks).toEqual([
      {
        type: 'VERIFICATION.IN_PROGRESS',
        timestamp: 't6',
        data: {
          id: verification.id,
          customerId,
          verificationStatus: 'IN_PROGRESS',
          errors: [],
          createdAt: 't6',
          updatedAt: 't6',
        },
      },
    ]);
  });
});
