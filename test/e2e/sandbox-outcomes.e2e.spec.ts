import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { expectBalancedLedger } from '../support/ledger-check.js';
import { useTestService } from '../support/fixture.js';
import { money, type Customer } from './money-support.js';

const START = Date.UTC(2026, 2, 9, 8);

/** One test per row of the spec's sandbox outcome table for transfers and quote destinations. */
describe('sandbox outcomes', () => {
  const clock = new ManualClock(START);
  const ledgerOk = () => expectBalancedLedger(t.service.infra.eventStore, t.service.sandbox!.platformId);

  const t = useTestService({ clock });
  const api = t.api;
  const m = money(t);

  const funded = async (amount = 100_000): Promise<Customer> => {
    const c = await m.customer(['USD']);
    if (amount > 0) await m.fund(c.accounts.USD, amount);
    return c;
  };

  describe('transfer-in (external account suffix)', () => {
    const transferIn = async (suffix: string) => {
      const c = await funded(0);
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

    it('002 fails at once (insufficient funds): nothing credited', async () => {
      const { c, tx } = await transferIn('002');
      expect(tx).toMatchObject({ status: 'FAILED', failureDetail: 'INSUFFICIENT_FUNDS' });
      expect(await m.balance(c.accounts.USD)).toBe(0);
      await ledgerOk();
    });

    it('003 fails at once (account closed or invalid)', async () => {
      const { c, tx } = await transferIn('003');
      expect(tx).toMatchObject({ status: 'FAILED', failureDetail: 'ACCOUNT_CLOSED_OR_INVALID' });
      expect(await m.balance(c.accounts.USD)).toBe(0);
      await ledgerOk();
    });

    it('004 is rejected by the bank', async () => {
      const { c, tx } = await transferIn('004');
      expect(tx.status).toBe('PROCESSING');
      await m.advance(10);
      expect(await m.eventually(tx.id, 'REJECTED')).toMatchObject({ failureDetail: 'REJECTED_BY_BANK' });
      expect(await m.balance(c.accounts.USD)).toBe(0);
      await ledgerOk();
    });

    it('005 stays pending about 30 seconds, then fails', async () => {
      const { c, tx } = await transferIn('005');
      expect(tx.status).toBe('PROCESSING');
      await m.advance(20);
      expect((await m.transaction(tx.id)).status).toBe('PROCESSING');
      await m.advance(10);
      expect(await m.eventually(tx.id, 'FAILED')).toMatchObject({ failureDetail: 'BANK_TIMEOUT' });
      expect(await m.balance(c.accounts.USD)).toBe(0);
      await ledgerOk();
    });

    it('any other suffix succeeds: credited from the settlement account', async () => {
      const { c, tx } = await transferIn('123');
      expect(tx.status).toBe('COMPLETED');
      expect(await m.balance(c.accounts.USD)).toBe(2_500);
      await ledgerOk();
    });
  });

  describe('transfer-out (external account suffix)', () => {
    const transferOut = async (suffix: string) => {
      const c = await funded(10_000);
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

    it('002 fails at once: no hold, balance untouched', async () => {
      const { c, tx } = await transferOut('002');
      expect(tx).toMatchObject({ status: 'FAILED', failureDetail: 'INSUFFICIENT_FUNDS' });
      expect(await m.balance(c.accounts.USD)).toBe(10_000);
      await ledgerOk();
    });

    it('003 fails at once (account closed or invalid)', async () => {
      const { c, tx } = await transferOut('003');
      expect(tx).toMatchObject({ status: 'FAILED', failureDetail: 'ACCOUNT_CLOSED_OR_INVALID' });
      expect(await m.balance(c.accounts.USD)).toBe(10_000);
      await ledgerOk();
    });

    it('004 is rejected by the bank: the hold is released', async () => {
      const { c, tx } = await transferOut('004');
      expect(tx.status).toBe('PROCESSING');
      // The hold reserves the amount: a second transfer beyond the rest is refused.
      const ext = await m.external(c.id, 'USD', '111');
      const over = await api.post('/transfer-out', {
        source: { accountId: c.accounts.USD },
        destination: { accountId: ext },
        amount: 6_001,
      });
      expect(over.status).toBe(400);
      expect(over.body.code).toBe('INSUFFICIENT_FUNDS');
      await m.advance(10);
      expect(await m.eventually(tx.id, 'REJECTED')).toMatchObject({ failureDetail: 'REJECTED_BY_BANK' });
      expect(await m.balance(c.accounts.USD)).toBe(10_000);
      await ledgerOk();
    });

    it('005 stays pending about 30 seconds, then fails and releases the hold', async () => {
      const { c, tx } = await transferOut('005');
      expect(tx.status).toBe('PROCESSING');
      await m.advance(30);
      await m.eventually(tx.id, 'FAILED');
      expect(await m.balance(c.accounts.USD)).toBe(10_000);
      await ledgerOk();
    });

    it('any other suffix succeeds: the amount leaves to the settlement account', async () => {
      const { c, tx } = await transferOut('321');
      expect(tx.status).toBe('COMPLETED');
      expect(await m.balance(c.accounts.USD)).toBe(6_000);
      await ledgerOk();
    });

    it('refuses more than the balance before recording anything', async () => {
      const c = await funded(1_000);
      const ext = await m.external(c.id, 'USD', '999');
      const res = await api.post('/transfer-out', {
        source: { accountId: c.accounts.USD },
        destination: { accountId: ext },
        amount: 1_001,
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INSUFFICIENT_FUNDS');
      const list = await api.get(`/transactions?accountIdentifier=${encodeURIComponent(ext)}`);
      expect(list.body.totalCount).toBe(0);
    });
  });

  describe('external account as a quote destination', () => {
    const execute = async (suffix: string) => {
      const c = await funded(100_000);
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
      expect(await m.balance(c.accounts.USD)).toBe(100_000);
      await ledgerOk();
    });

    it('003 completes after about 6 minutes', async () => {
      const { c, quote } = await execute('003');
      expect(quote.status).toBe('PROCESSING');
      await m.advance(300);
      expect((await m.transaction(quote.transactionId)).status).toBe('PROCESSING');
      await m.advance(60);
      await m.eventually(quote.transactionId, 'COMPLETED');
      expect((await api.get(`/quotes/${quote.id}`)).body.status).toBe('COMPLETED');
      expect(await m.balance(c.accounts.USD)).toBe(90_000);
      await ledgerOk();
    });

    it('004 counterparty delivery failed: FAILED with OFFRAMP_FAILED, hold released', async () => {
      const { c, quote } = await execute('004');
      expect(quote.status).toBe('PROCESSING');
      expect(await m.balance(c.accounts.USD)).toBe(100_000);
      await m.advance(30);
      expect(await m.eventually(quote.transactionId, 'FAILED')).toMatchObject({ failureReason: 'OFFRAMP_FAILED' });
      expect(await m.balance(c.accounts.USD)).toBe(100_000);
      await ledgerOk();
    });

    it('005 completes, then is returned by the receiving bank: FAILED and refunded', async () => {
      const { c, quote } = await execute('005');
      expect(quote.status).toBe('COMPLETED');
      expect(await m.balance(c.accounts.USD)).toBe(90_000);
      await m.advance(300);
      expect(await m.eventually(quote.transactionId, 'FAILED')).toMatchObject({
        failureReason: 'OFFRAMP_FAILED',
        failureDetail: 'RETURNED_BY_RECEIVING_BANK',
      });
      expect((await api.get(`/quotes/${quote.id}`)).body.status).toBe('FAILED');
      expect(await m.balance(c.accounts.USD)).toBe(100_000);
      await ledgerOk();
    });

    it('006 user cancellation: REFUNDED, hold released', async () => {
      const { c, quote } = await execute('006');
      await m.advance(30);
      expect(await m.eventually(quote.transactionId, 'REFUNDED')).toMatchObject({ failureDetail: 'USER_CANCELLED' });
      expect(await m.balance(c.accounts.USD)).toBe(100_000);
      await ledgerOk();
    });

    it('007 payout and refund failed: FAILED, the money is not returned', async () => {
      const { c, quote } = await execute('007');
      await m.advance(30);
      expect(await m.eventually(quote.transactionId, 'FAILED')).toMatchObject({
        failureReason: 'OFFRAMP_FAILED',
        failureDetail: 'PAYOUT_AND_REFUND_FAILED',
      });
      expect(await m.balance(c.accounts.USD)).toBe(90_000);
      await ledgerOk();
    });

    it('any other suffix succeeds at once', async () => {
      const { c, quote } = await execute('555');
      expect(quote.status).toBe('COMPLETED');
      expect(await m.balance(c.accounts.USD)).toBe(90_000);
      await ledgerOk();
    });
  });
});
