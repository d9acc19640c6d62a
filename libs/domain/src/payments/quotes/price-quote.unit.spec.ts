import { describe, expect, it } from '@jest/globals';
import { DomainError } from '../../errors.js';
import { INTERNAL_RAIL, UMA_RAIL } from '../rates/rate-table.js';
import { SUCCESS_PLAN } from '../transactions/payment-plan.js';
import { parsePayloadToSign } from '../../wallet/signed-retry.js';
import {
  assertImmediateExecution,
  priceQuote,
  type QuoteDestinationFacts,
  type QuoteRequest,
  type QuoteSource,
} from './price-quote.js';

const NOW = new Date(Date.UTC(2026, 0, 5, 12));
const ids = {
  quoteId: 'Quote:00000000-0000-4000-8000-000000000001',
  transactionId: 'Transaction:00000000-0000-4000-8000-000000000002',
};
const source = (funding: QuoteSource['funding'] = 'INTERNAL', currency = 'USD'): QuoteSource => ({
  accountId: 'InternalAccount:a',
  customerId: 'Customer:c',
  platformCustomerId: 'ada',
  currency,
  funding,
});
const toAccount: QuoteDestinationFacts = {
  quote: { destinationType: 'ACCOUNT', accountId: 'InternalAccount:b', paymentRail: 'INTERNAL' },
  transaction: { destinationType: 'ACCOUNT', accountId: 'InternalAccount:b', currency: 'USD', paymentRail: 'INTERNAL' },
  rail: INTERNAL_RAIL,
  plan: SUCCESS_PLAN,
};
const request = (extra: Partial<QuoteRequest> = {}): QuoteRequest => ({
  source: { sourceType: 'ACCOUNT', accountId: 'InternalAccount:a' },
  destination: { destinationType: 'ACCOUNT', accountId: 'InternalAccount:b' },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: 1_000,
  ...extra,
});
const price = (req: QuoteRequest, src = source(), destination = toAccount) =>
  priceQuote(req, { platformId: 'Platform:p', source: src, destination, ids }, NOW);
const failure = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return { code: (error as DomainError).code, details: (error as DomainError).details };
  }
  throw new Error('expected a DomainError');
};

describe('priceQuote', () => {
  it('prices an internal transfer: the locked side, expiry on the rail window, the transaction pending', () => {
    const { quote, transaction } = price(request());
    expect(quote).toMatchObject({
      id: ids.quoteId,
      transactionId: ids.transactionId,
      createdAt: NOW.toISOString(),
      expiresAt: new Date(NOW.getTime() + INTERNAL_RAIL.quoteWindowSeconds * 1000).toISOString(),
      totalSendingAmount: '1000',
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: '1000',
      funding: 'INTERNAL',
    });
    expect(quote.paymentInstructions).toBeUndefined();
    expect(transaction).toMatchObject({
      id: ids.transactionId,
      type: 'OUTGOING',
      status: 'PENDING',
      quoteId: ids.quoteId,
    });
    expect(BigInt(quote.totalSendingAmount) - BigInt(quote.feesIncluded)).toBe(BigInt(quote.totalReceivingAmount));
  });

  it('locks the receiving side: the receiver gets exactly the amount', () => {
    const { quote } = price(request({ lockedCurrencySide: 'RECEIVING', lockedCurrencyAmount: 2_500 }));
    expect(quote.totalReceivingAmount).toBe('2500');
  });

  it('refuses a zero amount and missing payer data the receiver asked for, naming the fields', () => {
    expect(failure(() => price(request({ lockedCurrencyAmount: 0 }))).code).toBe('INVALID_AMOUNT');
    const uma: QuoteDestinationFacts = {
      ...toAccount,
      rail: UMA_RAIL,
      lookup: { requiredPayerDataFields: ['FULL_NAME', 'BIRTH_DATE'] } as QuoteDestinationFacts['lookup'],
    };
    const refused = failure(() => price(request({ senderCustomerInfo: { FULL_NAME: 'Ada' } }), source(), uma));
    expect(refused.code).toBe('INVALID_INPUT');
    expect(refused.details?.errors?.map((e) => e.field)).toEqual(['senderCustomerInfo.BIRTH_DATE']);
  });

  it('gives an embedded wallet the payload to sign for executing this quote', () => {
    expect(() => price(request(), source('EMBEDDED_WALLET'), toAccount)).toThrow(/request id/);
    const withRequest = priceQuote(
      request(),
      {
        platformId: 'Platform:p',
        source: source('EMBEDDED_WALLET'),
        destination: toAccount,
        ids: { ...ids, requestId: 'Request:r' },
      },
      NOW,
    ).quote;
    const signed = withRequest.paymentInstructions![0].accountOrWalletInfo as { payloadToSign: string };
    expect(parsePayloadToSign(signed.payloadToSign)).toMatchObject({
      targetId: ids.quoteId,
      accountId: 'InternalAccount:a',
      requestId: 'Request:r',
      operation: `POST /quotes/${ids.quoteId}/execute`,
    });
  });

  it('gives an externally funded quote bank details with the transaction reference, the same every time', () => {
    const first = price(request(), source('EXTERNAL')).quote;
    const again = price(request(), source('EXTERNAL')).quote;
    const info = first.paymentInstructions![0].accountOrWalletInfo as Record<string, unknown>;
    expect(info).toMatchObject({ accountType: 'USD_ACCOUNT', reference: expect.any(String) });
    expect(again.paymentInstructions).toEqual(first.paymentInstructions);
  });

  it('lets only an internally funded quote execute at once', () => {
    expect(() => assertImmediateExecution({ immediatelyExecute: true }, 'INTERNAL')).not.toThrow();
    expect(() => assertImmediateExecution({ immediatelyExecute: false }, 'EXTERNAL')).not.toThrow();
    for (const funding of ['EMBEDDED_WALLET', 'EXTERNAL'] as const) {
      expect(failure(() => assertImmediateExecution({ immediatelyExecute: true }, funding)).code).toBe(
        'IMMEDIATE_EXECUTION_NOT_SUPPORTED',
      );
    }
  });
});
