import { describe, expect, it } from '@jest/globals';
import { useMoneyService, type Customer } from './money-support.js';

/** What happens after the first answer: still PROCESSING `pending` seconds on, then `status` `after` seconds more. */
interface Later {
  pending?: number;
  after: number;
  status: string;
  detail?: Record<string, unknown>;
}

/** A quote destination's row: the quote's first status, the balance then, what follows, the quote's last status. */
interface QuoteRow {
  first?: string;
  before?: number;
  later?: Later;
  quoteStatus?: string;
  balance: number;
}

/** One test per row of the spec's sandbox outcome table for transfers and quote destinations. */
describe('sandbox outcomes', () => {
  const { api, m, ledgerOk } = useMoneyService({ start: Date.UTC(2026, 2, 9, 8) });

  /** The transaction `id` (PROCESSING) moves on as `later` says. */
  const settlesLater = async (id: string, { pending, after, status, detail = {} }: Later) => {
    if (pending) {
      await m.advance(pending);
      expect((await m.transaction(id)).status).toBe('PROCESSING');
    }
    await m.advance(after);
    expect(await m.eventually(id, status)).toMatchObject(detail);
  };
  /** A test of a transfer (started by `start`) that fails at once with `failureDetail`, leaving `balance`. */
  const failsAtOnce =
    (start: (suffix: string) => Promise<{ c: Customer; tx: any }>, balance: number) =>
    async (_name: string, suffix: string, failureDetail: string) => {
      const { c, tx } = await start(suffix);
      expect(tx).toMatchObject({ status: 'FAILED', failureDetail });
      await settled(c, balance);
    };
  /** The customer's USD balance in the end, and the sandbox ledger still balanced. */
  const settled = async (c: Customer, balance: number) => {
    expect(await m.balance(c.accounts.USD)).toBe(balance);
    await ledgerOk();
  };

  describe('transfer-in (external account suffix)', () => {
    const transferIn = async (suffix: string) => {
      const c = await m.funded(0);
      const ext = await m.external(c.id, 'USD', suffix);
      const res = await api.post('/transfer-in', {
        source: { accountId: ext },
        destination: { accountId: c.accounts.USD },
        amount: 2_500,
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        type: 'INCOMING',
        source: { accountId: ext },
        destination: { accountId: c.accounts.USD },
        receivedAmount: { amount: 2_500 },
      });
      return { c, tx: res.body };
    };

    it.each([
      ['002 fails at once (insufficient funds): nothing credited', '002', 'INSUFFICIENT_FUNDS'],
      ['003 fails at once (account closed or invalid)', '003', 'ACCOUNT_CLOSED_OR_INVALID'],
    ])('%s', failsAtOnce(transferIn, 0));

    it.each<[string, string, Later]>([
      [
        '004 is rejected by the bank',
        '004',
        { after: 10, status: 'REJECTED', detail: { failureDetail: 'REJECTED_BY_BANK' } },
      ],
      [
        '005 stays pending about 30 seconds, then fails',
        '005',
        { pending: 20, after: 10, status: 'FAILED', detail: { failureDetail: 'BANK_TIMEOUT' } },
      ],
    ])('%s', async (_name, suffix, later) => {
      const { c, tx } = await transferIn(suffix);
      expect(tx.status).toBe('PROCESSING');
      await settlesLater(tx.id, later);
      await settled(c, 0);
    });

    it('any other suffix succeeds: credited from the settlement account', async () => {
      const { c, tx } = await transferIn('123');
      expect(tx.status).toBe('COMPLETED');
      await settled(c, 2_500);
    });
  });

  describe('transfer-out (external account suffix)', () => {
    const transferOut = async (suffix: string) => {
      const c = await m.funded(10_000);
      const ext = await m.external(c.id, 'USD', suffix);
      const res = await api.post('/transfer-out', {
        source: { accountId: c.accounts.USD },
        destination: { accountId: ext, paymentRail: 'ACH' },
        amount: 4_000,
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ type: 'OUTGOING', destination: { accountId: ext, paymentRail: 'ACH' } });
      return { c, tx: res.body };
    };

    /** A transfer-out of more than the available balance, to a new external account: refused; that account. */
    const refusedOverdraft = async (c: Customer, amount: number, suffix: string) => {
      const ext = await m.external(c.id, 'USD', suffix);
      const res = await api.post('/transfer-out', {
        source: { accountId: c.accounts.USD },
        destination: { accountId: ext },
        amount,
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INSUFFICIENT_FUNDS');
      return ext;
    };

    it.each([
      ['002 fails at once: no hold, balance untouched', '002', 'INSUFFICIENT_FUNDS'],
      ['003 fails at once (account closed or invalid)', '003', 'ACCOUNT_CLOSED_OR_INVALID'],
    ])('%s', failsAtOnce(transferOut, 10_000));

    it('004 is rejected by the bank: the hold is released', async () => {
      const { c, tx } = await transferOut('004');
      expect(tx.status).toBe('PROCESSING');
      // The hold reserves the amount: a second transfer beyond the rest is refused.
      await refusedOverdraft(c, 6_001, '111');
      await settlesLater(tx.id, { after: 10, status: 'REJECTED', detail: { failureDetail: 'REJECTED_BY_BANK' } });
      await settled(c, 10_000);
    });

    it('005 stays pending about 30 seconds, then fails and releases the hold', async () => {
      const { c, tx } = await transferOut('005');
      expect(tx.status).toBe('PROCESSING');
      await settlesLater(tx.id, { after: 30, status: 'FAILED' });
      await settled(c, 10_000);
    });

    it('any other suffix succeeds: the amount leaves to the settlement account', async () => {
      const { c, tx } = await transferOut('321');
      expect(tx.status).toBe('COMPLETED');
      await settled(c, 6_000);
    });

    it('refuses more than the balance before recording anything', async () => {
      const c = await m.funded(1_000);
      const ext = await refusedOverdraft(c, 1_001, '999');
      const list = await api.get(`/transactions?accountIdentifier=${encodeURIComponent(ext)}`);
      expect(list.body.totalCount).toBe(0);
    });
  });

  describe('external account as a quote destination', () => {
    const execute = async (suffix: string) => {
      const c = await m.funded(100_000);
      const ext = await m.external(c.id, 'USD', suffix);
      const q = await m.accountQuote(c.accounts.USD, ext, 10_000);
      expect(q.status).toBe(201);
      expect(q.body).toMatchObject({
        destination: { paymentRail: 'RTP' },
        feesIncluded: 50,
        totalReceivingAmount: 9_950,
      });
      const run = await api.post(`/quotes/${q.body.id}/execute`);
      expect(run.status).toBe(200);
      return { c, quote: run.body };
    };

    it('002 execution failed: FAILED with QUOTE_EXECUTION_FAILED, nothing moves', async () => {
      const { c, quote } = await execute('002');
      expect(quote.status).toBe('FAILED');
      expect(await m.transaction(quote.transactionId)).toMatchObject({
        status: 'FAILED',
        failureReason: 'QUOTE_EXECUTION_FAILED',
      });
      await settled(c, 100_000);
    });

    const offrampFailed = (failureDetail?: string) => ({
      failureReason: 'OFFRAMP_FAILED',
      ...(failureDetail ? { failureDetail } : {}),
    });
    it.each<[string, string, QuoteRow]>([
      [
        '003 completes after about 6 minutes',
        '003',
        {
          first: 'PROCESSING',
          later: { pending: 300, after: 60, status: 'COMPLETED' },
          quoteStatus: 'COMPLETED',
          balance: 90_000,
        },
      ],
      [
        '004 counterparty delivery failed: FAILED with OFFRAMP_FAILED, hold released',
        '004',
        {
          first: 'PROCESSING',
          before: 100_000,
          later: { after: 30, status: 'FAILED', detail: offrampFailed() },
          balance: 100_000,
        },
      ],
      [
        '005 completes, then is returned by the receiving bank: FAILED and refunded',
        '005',
        {
          first: 'COMPLETED',
          before: 90_000,
          later: { after: 300, status: 'FAILED', detail: offrampFailed('RETURNED_BY_RECEIVING_BANK') },
          quoteStatus: 'FAILED',
          balance: 100_000,
        },
      ],
      [
        '006 user cancellation: REFUNDED, hold released',
        '006',
        { later: { after: 30, status: 'REFUNDED', detail: { failureDetail: 'USER_CANCELLED' } }, balance: 100_000 },
      ],
      [
        '007 payout and refund failed: FAILED, the money is not returned',
        '007',
        { later: { after: 30, status: 'FAILED', detail: offrampFailed('PAYOUT_AND_REFUND_FAILED') }, balance: 90_000 },
      ],
      ['any other suffix succeeds at once', '555', { first: 'COMPLETED', balance: 90_000 }],
    ])('%s', async (_name, suffix, row) => {
      const { c, quote } = await execute(suffix);
      if (row.first) expect(quote.status).toBe(row.first);
      if (row.before !== undefined) expect(await m.balance(c.accounts.USD)).toBe(row.before);
      if (row.later) await settlesLater(quote.transactionId, row.later);
      if (row.quoteStatus) expect((await api.get(`/quotes/${quote.id}`)).body.status).toBe(row.quoteStatus);
      await settled(c, row.balance);
    });
  });
});
