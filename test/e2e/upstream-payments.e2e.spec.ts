import { describe, expect, it } from '@jest/globals';
import type { Client } from '../support/service.js';
import { fundingQuoteBody, type Customer, useMoneyService } from './money-support.js';
import { uniqueValue } from '../support/sequence.js';
import { pendingIncoming } from '../support/sandbox-payments.js';

const START = Date.UTC(2026, 4, 11, 9);
const enc = encodeURIComponent;

/**
 * Quotes, transactions and transfers sent as the public API's examples shape them: real-time funding, UMA
 * destinations with a currency, transaction filters by side, approve/reject bodies, refunds and transfer amounts.
 */
describe('quotes, transactions and transfers shaped like the public API', () => {
  const { t, api, m, ledgerOk } = useMoneyService({ start: START });

  describe('POST /quotes', () => {
    it('takes a REALTIME_FUNDING source: instructions to pay, then the payment starts when funds arrive', async () => {
      const payer = await m.customer(['USD', 'EUR']);
      const res = await m.quote(
        fundingQuoteBody(payer.id, 'USD', payer.accounts.EUR, 'RECEIVING', 10_000, { immediatelyExecute: true }),
      );
      expect(res.status).toBe(201);
      const quote = res.body;
      expect(quote).toMatchObject({
        status: 'PENDING',
        source: { sourceType: 'REALTIME_FUNDING', customerId: payer.id, currency: 'USD' },
        destination: { destinationType: 'ACCOUNT', accountId: payer.accounts.EUR },
        sendingCurrency: { code: 'USD' },
        receivingCurrency: { code: 'EUR' },
        totalReceivingAmount: 10_000,
      });
      expect(quote.source.accountId).toBeUndefined();
      expect(quote.paymentInstructions).toEqual([
        {
          accountOrWalletInfo: expect.objectContaining({ accountType: 'USD_ACCOUNT', reference: expect.any(String) }),
          instructionsNotes: expect.any(String),
          isPlatformAccount: true,
        },
      ]);
      const pending = await m.transaction(quote.transactionId);
      expect(pending).toMatchObject({
        type: 'OUTGOING',
        status: 'PENDING',
        source: { sourceType: 'REALTIME_FUNDING', customerId: payer.id, currency: 'USD' },
        paymentInstructions: quote.paymentInstructions,
      });
      const sent = await api.post('/sandbox/send', { quoteId: quote.id, currencyCode: 'USD' });
      expect(sent.status).toBe(200);
      expect((await m.transaction(quote.transactionId)).status).toBe('COMPLETED');
      expect(await m.balance(payer.accounts.EUR)).toBe(10_000);
      await ledgerOk();
    });

    it('pays a REALTIME_FUNDING quote out to an external account, the payer being its owner by default', async () => {
      const owner = await m.customer(['USD']);
      const wallet = await m.external(owner.id, 'USD', '777');
      const res = await m.quote({
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' },
        destination: { destinationType: 'ACCOUNT', accountId: wallet },
        lockedCurrencySide: 'RECEIVING',
        lockedCurrencyAmount: 10_000,
        immediatelyExecute: true,
      });
      expect(res.status).toBe(201);
      expect(res.body.source).toEqual({ sourceType: 'REALTIME_FUNDING', customerId: owner.id, currency: 'USD' });
      expect((await m.transaction(res.body.transactionId)).customerId).toBe(owner.id);
      const noPayer = await m.quote({
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' },
        destination: { destinationType: 'ACCOUNT', accountId: await m.external(undefined, 'USD', '777') },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
      });
      expect({ status: noPayer.status, code: noPayer.body.code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
      const mixed = await m.quote({
        source: { sourceType: 'REALTIME_FUNDING', currency: 'USD', accountId: owner.accounts.USD },
        destination: { destinationType: 'ACCOUNT', accountId: wallet },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
      });
      expect(mixed.status).toBe(400);
    });

    it('asks a stablecoin REALTIME_FUNDING source for its network and names that network’s wallet', async () => {
      const payer = await m.customer(['USD']);
      const body = (source: Record<string, unknown>) => ({
        source: { sourceType: 'REALTIME_FUNDING', customerId: payer.id, currency: 'USDC', ...source },
        destination: { destinationType: 'ACCOUNT', accountId: payer.accounts.USD },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 5_000_000,
      });
      const missing = await m.quote(body({}));
      expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
      expect(missing.body.details.errors[0].field).toBe('cryptoNetwork');
      expect((await m.quote(body({ cryptoNetwork: 'LIGHTNING' }))).status).toBe(400);
      const res = await m.quote(body({ cryptoNetwork: 'SOLANA' }));
      expect(res.status).toBe(201);
      expect(res.body.source).toEqual({
        sourceType: 'REALTIME_FUNDING',
        customerId: payer.id,
        currency: 'USDC',
        cryptoNetwork: 'SOLANA',
      });
      expect(res.body.paymentInstructions[0]).toMatchObject({
        accountOrWalletInfo: { accountType: 'SOLANA_WALLET', assetType: 'USDC', address: expect.any(String) },
        isPlatformAccount: true,
      });
    });

    it('takes a UMA destination’s currency and shows it on the quote', async () => {
      const ada = await m.funded(50_000);
      const lookup = await api.get(`/receiver/uma/${enc('$success.EUR@uma.domain.com')}`);
      const body = (currency: string) => ({
        lookupId: lookup.body.lookupId ?? lookup.body.id,
        source: { sourceType: 'ACCOUNT', accountId: ada.accounts.USD },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.EUR@uma.domain.com', currency },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
        senderCustomerInfo: { FULL_NAME: 'Ada Lovelace', BIRTH_DATE: '1815-12-10' },
      });
      const res = await m.quote(body('EUR'));
      expect(res.status).toBe(201);
      expect(res.body.destination).toMatchObject({
        destinationType: 'UMA_ADDRESS',
        umaAddress: '$success.EUR@uma.domain.com',
        currency: 'EUR',
      });
      expect(res.body.receivingCurrency.code).toBe('EUR');
      expect((await api.get(`/quotes/${res.body.id}`)).body.destination.currency).toBe('EUR');
      const wrong = await m.quote(body('MXN'));
      expect({ status: wrong.status, code: wrong.body.code }).toEqual({ status: 400, code: 'INVALID_CURRENCY' });
    });
  });

  describe('GET /transactions', () => {
    it('filters by senderAccountIdentifier and receiverAccountIdentifier', async () => {
      const ada = await m.customer(['USD']);
      const bob = await m.customer(['USD'], { umaAddress: `$${uniqueValue('bob')}@sandbox.uma.local` });
      await m.fund(ada.accounts.USD, 10_000);
      const quote = (await m.accountQuote(ada.accounts.USD, bob.accounts.USD, 1_000)).body;
      await api.post(`/quotes/${quote.id}/execute`);
      const ids = async (query: string, a: Client = api) =>
        (await a.get(`/transactions?${query}`)).body.data.map((d: { id: string }) => d.id);
      expect(await ids(`senderAccountIdentifier=${enc(ada.accounts.USD)}`)).toEqual([quote.transactionId]);
      expect(await ids(`receiverAccountIdentifier=${enc(bob.accounts.USD)}`)).toEqual([quote.transactionId]);
      expect(await ids(`senderAccountIdentifier=${enc(bob.accounts.USD)}`)).toEqual([]);
      expect(await ids(`receiverAccountIdentifier=${enc(ada.accounts.USD)}`)).toEqual([]);
      const other = await t.otherPlatform();
      expect(await ids(`senderAccountIdentifier=${enc(ada.accounts.USD)}`, other.api)).toEqual([]);
    });
  });

  describe('POST /transactions/{transactionId}/approve and /reject', () => {
    const pending = async (c: Customer) => (await pendingIncoming(api, c.id, 2_500)).id;

    it('keeps receiverCustomerInfo of an approval and the reason of a rejection', async () => {
      const c = await m.customer(['USD']);
      const [one, two, three] = [await pending(c), await pending(c), await pending(c)];
      const info = { FULL_NAME: 'Bob Receiver', BIRTH_DATE: '1990-01-01', NATIONALITY: 'US' };
      const approved = await api.post(`/transactions/${one}/approve`, { receiverCustomerInfo: info });
      expect(approved.status).toBe(200);
      expect(approved.body).toMatchObject({ type: 'INCOMING', status: 'COMPLETED', receiverCustomerInfo: info });
      expect((await m.transaction(one)).receiverCustomerInfo).toEqual(info);
      const rejected = await api.post(`/transactions/${two}/reject`, { reason: 'RESTRICTED_JURISDICTION' });
      expect(rejected.body).toMatchObject({ status: 'REJECTED', rejectionReason: 'RESTRICTED_JURISDICTION' });
      expect((await m.transaction(two)).rejectionReason).toBe('RESTRICTED_JURISDICTION');
      const bare = await api.post(`/transactions/${three}/approve`);
      expect(bare.body.status).toBe('COMPLETED');
      expect(bare.body.receiverCustomerInfo).toBeUndefined();
      expect(await m.balance(c.accounts.USD)).toBe(5_000);
      const again = await api.post(`/transactions/${one}/reject`, { reason: 'late' });
      expect({ status: again.status, code: again.body.code }).toEqual({
        status: 409,
        code: 'TRANSACTION_NOT_PENDING_PLATFORM_APPROVAL',
      });
      expect((await api.post(`/transactions/${two}/approve`, { receiverCustomerInfo: [] })).status).toBe(400);
      await ledgerOk();
    });
  });

  describe('OutgoingTransaction refund', () => {
    it('shows the refund of a cancelled quote and of a transfer the bank rejected', async () => {
      const ada = await m.funded(100_000);
      const cancelled = await m.external(ada.id, 'USD', '006');
      const quote = (await m.accountQuote(ada.accounts.USD, cancelled, 1_000)).body;
      expect((await api.post(`/quotes/${quote.id}/execute`)).status).toBe(200);
      expect((await m.transaction(quote.transactionId)).refund).toBeUndefined();
      await m.advance(30);
      const refunded = await m.eventually(quote.transactionId, 'REFUNDED');
      expect(refunded.refund).toEqual({
        reference: `${refunded.reconciliationInstructions.reference}-REFUND`,
        initiatedAt: refunded.updatedAt,
        settledAt: refunded.updatedAt,
        status: 'COMPLETED',
        reason: 'USER_CANCELLATION',
      });
      const bank = await m.external(ada.id, 'USD', '004');
      const out = await api.post('/transfer-out', {
        source: { accountId: ada.accounts.USD },
        destination: { accountId: bank, paymentRail: 'ACH' },
        amount: 12_550,
      });
      expect(out.status).toBe(201);
      await m.advance(10);
      const rejected = await m.eventually(out.body.id, 'REJECTED');
      expect(rejected.refund).toMatchObject({ status: 'COMPLETED', reason: 'TRANSACTION_FAILED' });
      expect(await m.balance(ada.accounts.USD)).toBe(100_000);
      await ledgerOk();
    });
  });

  describe('POST /transfer-in and /transfer-out amount', () => {
    it('sends the whole available balance when a transfer-out leaves amount out; a transfer-in needs it', async () => {
      const ada = await m.funded(7_000);
      const ext = await m.external(ada.id, 'USD', '777');
      const out = await api.post('/transfer-out', {
        source: { accountId: ada.accounts.USD },
        destination: { accountId: ext, paymentRail: 'ACH' },
      });
      expect(out.status).toBe(201);
      expect(out.body).toMatchObject({ type: 'OUTGOING', status: 'COMPLETED', sentAmount: { amount: 7_000 } });
      expect(await m.balance(ada.accounts.USD)).toBe(0);
      const empty = await api.post('/transfer-out', {
        source: { accountId: ada.accounts.USD },
        destination: { accountId: ext },
      });
      expect({ status: empty.status, code: empty.body.code }).toEqual({ status: 400, code: 'INVALID_AMOUNT' });
      const pull = await api.post('/transfer-in', {
        source: { accountId: ext },
        destination: { accountId: ada.accounts.USD },
      });
      expect({ status: pull.status, code: pull.body.code }).toEqual({ status: 400, code: 'INVALID_AMOUNT' });
      const withAmount = await api.post('/transfer-in', {
        source: { accountId: ext },
        destination: { accountId: ada.accounts.USD },
        amount: 12_550,
      });
      expect(withAmount.body).toMatchObject({ type: 'INCOMING', status: 'COMPLETED' });
      await ledgerOk();
    });
  });
});
