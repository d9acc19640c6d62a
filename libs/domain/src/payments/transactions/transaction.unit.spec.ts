import { describe, expect, it } from '@jest/globals';
import { deciderSpec } from '../../testing/decider-spec.js';
import { quoteDecider, quoteStatusOf, toQuoteResource, type QuoteCommand, type QuoteRecord } from '../quotes/quote.js';
import { INTERNAL_RAIL } from '../rates/rate-table.js';
import { SUCCESS_PLAN, type PaymentStep } from './payment-plan.js';
import {
  referenceFor,
  toTransactionResource,
  TRANSACTION_STATUSES,
  transactionDecider,
  transition,
  type TransactionRecord,
  type TransactionStatus,
} from './transaction.js';

const NOW = '2026-01-01T00:00:00.000Z';
const LATER = '2026-01-01T00:01:00.000Z';

function tx(overrides: Partial<TransactionRecord> = {}): TransactionRecord {
  const id = 'Transaction:11111111-2222-4333-8444-555555555555';
  return {
    id,
    platformId: 'Platform:11111111-2222-4333-8444-000000000000',
    type: 'OUTGOING',
    status: 'PENDING',
    source: {
      sourceType: 'ACCOUNT',
      accountId: 'InternalAccount:11111111-2222-4333-8444-000000000001',
      currency: 'USD',
    },
    destination: {
      destinationType: 'ACCOUNT',
      accountId: 'InternalAccount:11111111-2222-4333-8444-000000000002',
      currency: 'EUR',
    },
    customerId: 'Customer:11111111-2222-4333-8444-000000000003',
    platformCustomerId: 'c-1',
    sentAmount: '1000',
    receivedAmount: '915',
    fees: '0',
    reference: referenceFor(id),
    plan: { immediate: { type: 'COMPLETE' } },
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

const move = (from: TransactionStatus, to: TransactionStatus) =>
  transition(tx({ status: from }), { type: 'TransitionTransaction', to, now: LATER });

describe('transaction lifecycle', () => {
  it('allows exactly the documented moves', () => {
    // As the lifecycle documents them: each state with the states it may move to; the final ones have none.
    const documented = [
      'CREATED -> PENDING PROCESSING FAILED REJECTED EXPIRED',
      'PENDING -> PROCESSING FAILED REJECTED EXPIRED',
      'PROCESSING -> COMPLETED FAILED REJECTED REFUNDED',
      'COMPLETED -> FAILED REFUNDED',
    ].flatMap((line) => {
      const [from, to] = line.split(' -> ');
      return to!.split(' ').map((target) => `${from} -> ${target}`);
    });
    for (const from of TRANSACTION_STATUSES) {
      for (const to of TRANSACTION_STATUSES) {
        if (from === to) expect(move(from, to)).toBeUndefined();
        else if (documented.includes(`${from} -> ${to}`)) expect(move(from, to)?.status).toBe(to);
        else expect(() => move(from, to)).toThrow(expect.objectContaining({ code: 'INVALID_STATE_TRANSITION' }));
      }
    }
  });

  it('refuses to start a quote at or after its expiry', () => {
    expect(() =>
      transition(tx(), { type: 'TransitionTransaction', to: 'PROCESSING', now: LATER, notAfter: LATER }),
    ).toThrow(expect.objectContaining({ code: 'QUOTE_EXPIRED' }));
    expect(
      transition(tx(), { type: 'TransitionTransaction', to: 'PROCESSING', now: NOW, notAfter: LATER })?.status,
    ).toBe('PROCESSING');
  });

  it('stamps settledAt on completion and a hash for crypto payouts', () => {
    const fiat = transition(tx({ status: 'PROCESSING' }), {
      type: 'TransitionTransaction',
      to: 'COMPLETED',
      now: LATER,
    })!;
    expect(fiat).toMatchObject({ settledAt: LATER });
    expect(fiat.transactionHash).toBeUndefined();
    const btc = transition(
      tx({
        status: 'PROCESSING',
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$a@b.com', currency: 'BTC' },
      }),
      { type: 'TransitionTransaction', to: 'COMPLETED', now: LATER },
    )!;
    expect(btc.transactionHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('lets one step at a time claim a payment', () => {
    const decide = (state: TransactionRecord, step: PaymentStep) =>
      transactionDecider.decide(
        { type: 'BeginPaymentStep', step, from: ['PROCESSING'], now: LATER },
        { transaction: state },
      );
    const complete: PaymentStep = { type: 'COMPLETE' };
    const fail: PaymentStep = { type: 'FAIL', status: 'FAILED', failureReason: 'OFFRAMP_FAILED' };
    const [started] = decide(tx({ status: 'PROCESSING' }), complete);
    expect(started.type).toBe('TransactionStepStarted');
    const claimed = started.data.transaction;
    expect(decide(claimed, complete)).toEqual([]);
    expect(() => decide(claimed, fail)).toThrow(expect.objectContaining({ code: 'PAYMENT_BUSY' }));
    expect(() =>
      transactionDecider.decide({ type: 'TransitionTransaction', to: 'FAILED', now: LATER }, { transaction: claimed }),
    ).toThrow(expect.objectContaining({ code: 'PAYMENT_BUSY' }));
    const [done] = transactionDecider.decide(
      { type: 'TransitionTransaction', to: 'COMPLETED', now: LATER, step: complete, endsStep: true },
      { transaction: claimed },
    );
    expect(done.data.transaction.activeStep).toBeUndefined();
    // A step that cannot end from the current status is not claimed at all.
    expect(decide(tx({ status: 'PENDING' }), complete)).toEqual([]);
    expect(
      transactionDecider.decide(
        { type: 'BeginPaymentStep', step: { type: 'FAIL', status: 'REFUNDED' }, from: ['PENDING'], now: LATER },
        { transaction: tx() },
      ),
    ).toEqual([]);
  });

  it('starts a payment and claims its immediate step in one decision', () => {
    const complete: PaymentStep = { type: 'COMPLETE' };
    const start = (state: TransactionRecord, from: TransactionStatus[] = ['PROCESSING']) =>
      transactionDecider.decide(
        {
          type: 'TransitionTransaction',
          to: 'PROCESSING',
          from: ['PENDING'],
          now: LATER,
          thenBegin: { step: complete, from },
        },
        { transaction: state },
      );
    const events = start(tx());
    expect(events.map((e) => e.type)).toEqual(['TransactionStatusChanged', 'TransactionStepStarted']);
    const state = deciderSpec(transactionDecider).fold(events);
    expect(state.transaction).toMatchObject({ status: 'PROCESSING', activeStep: complete, updatedAt: LATER });
    // Already PROCESSING and claimed: nothing new (a repeated start).
    expect(start(state.transaction!)).toEqual([]);
    // A step that does not apply from the new status is not claimed; the change itself stands.
    expect(start(tx(), ['COMPLETED']).map((e) => e.type)).toEqual(['TransactionStatusChanged']);
    // A refused change claims nothing.
    expect(() => start(tx({ status: 'FAILED' }))).toThrow(
      expect.objectContaining({ code: 'INVALID_STATE_TRANSITION' }),
    );
  });

  it('creates a transaction and passes it through statuses in one decision', () => {
    const events = transactionDecider.decide(
      { type: 'CreateTransaction', transaction: tx({ status: 'CREATED' }), then: ['PENDING'] },
      {},
    );
    expect(events.map((e) => e.type)).toEqual(['TransactionCreated', 'TransactionStatusChanged']);
    const state = deciderSpec(transactionDecider).fold(events);
    expect(state.transaction?.status).toBe('PENDING');
    expect(transactionDecider.decide({ type: 'CreateTransaction', transaction: tx() }, state)).toEqual([]);
  });

  it('shows reconciliation instructions for every status but CREATED and only the gridApi rate fields', () => {
    const rateDetails = {
      counterpartyMultiplier: 1,
      counterpartyFixedFee: 0,
      gridApiMultiplier: 0.9,
      gridApiFixedFee: 5,
      gridApiVariableFeeRate: 0,
      gridApiVariableFeeAmount: 0,
    };
    expect(toTransactionResource(tx({ status: 'CREATED' })).reconciliationInstructions).toBeUndefined();
    const shown = toTransactionResource(tx({ rateDetails }));
    expect(shown.reconciliationInstructions).toEqual({ reference: referenceFor(tx().id) });
    expect(shown.rateDetails).toEqual({
      gridApiMultiplier: 0.9,
      gridApiFixedFee: 5,
      gridApiVariableFeeRate: 0,
      gridApiVariableFeeAmount: 0,
    });
    expect(shown).toMatchObject({
      sentAmount: { amount: 1000, currency: { code: 'USD' } },
      receivedAmount: { amount: 915, currency: { code: 'EUR' } },
    });
    expect(shown.plan).toBeUndefined();
  });
});

describe('quote', () => {
  it('derives its status from its transaction', () => {
    expect(TRANSACTION_STATUSES.map(quoteStatusOf)).toEqual([
      'PENDING',
      'PENDING',
      'PROCESSING',
      'COMPLETED',
      'FAILED',
      'FAILED',
      'FAILED',
      'EXPIRED',
    ]);
  });

  it('is created once, with its transaction, in one decision', () => {
    const quote = {
      id: 'Quote:11111111-2222-4333-8444-555555555555',
      platformId: tx().platformId,
      totalSendingAmount: '1000',
      totalReceivingAmount: '915',
      feesIncluded: '0',
      lockedCurrencyAmount: '1000',
      sendingCurrency: 'USD',
      receivingCurrency: 'EUR',
    } as QuoteRecord;
    const create: QuoteCommand = {
      type: 'CreateQuote',
      request: {
        source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:a' },
        destination: { destinationType: 'ACCOUNT', accountId: 'InternalAccount:b' },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1000,
      },
      facts: {
        platformId: quote.platformId,
        source: {
          accountId: 'InternalAccount:a',
          customerId: 'Customer:c',
          platformCustomerId: 'c',
          currency: 'USD',
          funding: 'INTERNAL',
        },
        destination: {
          quote: { destinationType: 'ACCOUNT', accountId: 'InternalAccount:b', paymentRail: 'INTERNAL' },
          transaction: {
            destinationType: 'ACCOUNT',
            accountId: 'InternalAccount:b',
            currency: 'USD',
            paymentRail: 'INTERNAL',
          },
          rail: INTERNAL_RAIL,
          plan: SUCCESS_PLAN,
        },
        ids: { quoteId: quote.id, transactionId: tx().id },
      },
      now: '2026-01-05T12:00:00.000Z',
    };
    const events = quoteDecider.decide(create, {});
    expect(events.map((e) => e.type)).toEqual(['QuoteCreated', 'TransactionCreated']);
    const state = deciderSpec(quoteDecider).fold(events);
    expect(() => quoteDecider.decide(create, state)).toThrow(expect.objectContaining({ code: 'QUOTE_EXISTS' }));
    expect(toQuoteResource(quote, 'PROCESSING')).toMatchObject({
      status: 'PROCESSING',
      totalSendingAmount: 1000,
      sendingCurrency: { code: 'USD' },
    });
  });
});
