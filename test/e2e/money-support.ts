import { expect } from '@jest/globals';
import { useTestService, type FixtureOptions } from '../support/fixture.js';
import { expectBalancedLedger } from '../support/ledger-check.js';
import type { Client, TestService } from '../support/service.js';
import { uniqueDigits, uniqueValue } from '../support/sequence.js';

/** Helpers shared by the money-movement end-to-end tests. */
export interface Customer {
  id: string;
  accounts: Record<string, string>;
}

/** The body of a quote between two internal accounts, locked on the sending side. */
export const accountQuoteBody = (
  sourceAccountId: string,
  destinationAccountId: string,
  amount: number,
  extra: Record<string, unknown> = {},
) => ({
  source: { sourceType: 'ACCOUNT', accountId: sourceAccountId },
  destination: { destinationType: 'ACCOUNT', accountId: destinationAccountId },
  lockedCurrencySide: 'SENDING',
  lockedCurrencyAmount: amount,
  ...extra,
});

/** The body of a quote paid in by `customerId` in `currency` (REALTIME_FUNDING) to an internal account. */
export const fundingQuoteBody = (
  customerId: string,
  currency: string,
  destinationAccountId: string,
  lockedCurrencySide: 'SENDING' | 'RECEIVING',
  amount: number,
  extra: Record<string, unknown> = {},
) => ({
  source: { sourceType: 'REALTIME_FUNDING', customerId, currency },
  destination: { destinationType: 'ACCOUNT', accountId: destinationAccountId },
  lockedCurrencySide,
  lockedCurrencyAmount: amount,
  ...extra,
});

export function money(t: TestService, api: Client = t.api) {
  const customer = async (currencies: string[] = ['USD'], extra: Record<string, unknown> = {}): Promise<Customer> => {
    const res = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: uniqueValue('m'),
      fullName: 'Ada Lovelace',
      currencies,
      ...extra,
    });
    expect(res.status).toBe(201);
    const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(res.body.id)}`);
    const byCurrency: Record<string, string> = {};
    for (const a of accounts.body.data) byCurrency[a.balance.currency.code] = a.id;
    return { id: res.body.id, accounts: byCurrency };
  };
  const fund = async (accountId: string, amount: number) => {
    const res = await api.post(`/sandbox/internal-accounts/${accountId}/fund`, { amount });
    expect(res.status).toBe(200);
  };
  const balance = async (accountId: string): Promise<number> => {
    const res = await api.get(`/internal-accounts/${accountId}`);
    expect(res.status).toBe(200);
    return res.body.balance.amount;
  };
  /** An external account whose primary identifier ends with `suffix` (sandbox outcomes). */
  const external = async (customerId: string | undefined, currency: string, suffix: string): Promise<string> => {
    const digits = uniqueDigits('external', 6) + suffix;
    const beneficiary = { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' };
    const address = { line1: 'Unter den Linden 1', postalCode: '10117', country: 'DE' };
    const accountInfo: Record<string, unknown> =
      currency === 'USD'
        ? { accountType: 'USD_ACCOUNT', accountNumber: digits, routingNumber: '021000021', beneficiary }
        : currency === 'EUR'
          ? {
              accountType: 'EUR_ACCOUNT',
              iban: `DE89370400440532${digits.slice(-9).padStart(9, '0')}`,
              beneficiary: { ...beneficiary, address },
            }
          : currency === 'MXN'
            ? { accountType: 'MXN_ACCOUNT', clabeNumber: digits.padStart(18, '0'), beneficiary }
            : {
                accountType: 'GBP_ACCOUNT',
                accountNumber: digits.slice(-8).padStart(8, '0'),
                sortCode: '123456',
                beneficiary,
              };
    const path = customerId ? '/customers/external-accounts' : '/platform/external-accounts';
    const res = await api.post(path, { ...(customerId ? { customerId } : {}), currency, accountInfo });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 201,
      body: expect.objectContaining({ id: expect.any(String) }),
    });
    return res.body.id;
  };
  const quote = async (body: Record<string, unknown>, headers?: Record<string, string>) =>
    api.post('/quotes', body, headers);
  const accountQuote = (
    sourceAccountId: string,
    destinationAccountId: string,
    amount: number,
    extra: Record<string, unknown> = {},
  ) => quote(accountQuoteBody(sourceAccountId, destinationAccountId, amount, extra));
  /** A customer with a USD account funded with `amount` (none when 0). */
  const funded = async (amount: number, extra: Record<string, unknown> = {}): Promise<Customer> => {
    const c = await customer(['USD'], extra);
    if (amount > 0) await fund(c.accounts.USD, amount);
    return c;
  };
  /** Two USD customers: `ada` pays (funded with `funds` when given), `bob` receives. */
  const payerAndPayee = async (funds = 0) => {
    const ada = await funded(funds);
    const bob = await customer(['USD']);
    return { ada, bob };
  };
  /** `payerAndPayee`, and a quote of `amount` from ada's USD account to bob's (`q`, created). */
  const usdQuote = async (amount: number, funds = 0) => {
    const { ada, bob } = await payerAndPayee(funds);
    const q = (await accountQuote(ada.accounts.USD, bob.accounts.USD, amount)).body;
    return { ada, bob, q };
  };
  /**
   * A funded customer's executed payment of 10,000 from its USD account to an external account whose number ends
   * with `suffix` (the sandbox's outcomes).
   */
  const payout = async (suffix: string) => {
    const c = await funded(100_000);
    const ext = await external(c.id, 'USD', suffix);
    const q = await accountQuote(c.accounts.USD, ext, 10_000);
    expect(q.status).toBe(201);
    const run = await api.post(`/quotes/${q.body.id}/execute`);
    expect(run.status).toBe(200);
    return { transactionId: run.body.transactionId as string, customer: c };
  };
  const transaction = async (id: string) => {
    const res = await api.get(`/transactions/${id}`);
    expect(res.status).toBe(200);
    return res.body;
  };
  /** Polls a transaction until it reaches `status` (timers run asynchronously); bounded. */
  const eventually = async (id: string, status: string, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    let last: any;
    while (Date.now() < deadline) {
      last = await transaction(id);
      if (last.status === status) return last;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(last.status).toBe(status);
    return last;
  };
  const advance = async (seconds: number) => {
    const res = await api.post('/sandbox/clock/advance', { seconds });
    expect(res.status).toBe(200);
    return res.body;
  };
  return {
    customer,
    fund,
    balance,
    external,
    quote,
    accountQuote,
    funded,
    payerAndPayee,
    usdQuote,
    payout,
    transaction,
    eventually,
    advance,
  };
}

/**
 * The file's service (`useTestService`) with the money helpers, and `ledgerOk`: the sandbox platform's ledger
 * still balances.
 */
export function useMoneyService(options: FixtureOptions = {}) {
  const t = useTestService(options);
  const ledgerOk = () => expectBalancedLedger(t.service.infra.eventStore, t.service.sandbox!.platformId);
  return { t, api: t.api, clock: t.clock, m: money(t), ledgerOk };
}
