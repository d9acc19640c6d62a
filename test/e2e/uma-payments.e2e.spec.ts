import { describe, expect, it } from '@jest/globals';
import { walletSession } from '../support/wallet-session.js';
import { useMoneyService } from './money-support.js';

const START = Date.UTC(2026, 2, 16, 8);

describe('exchange rates, lookups, UMA payments and externally funded quotes', () => {
  const lookup = async (address: string) => api.get(`/receiver/uma/${encodeURIComponent(address)}`);

  const { t, api, clock, m, ledgerOk } = useMoneyService({ start: START });

  describe('GET /exchange-rates', () => {
    it('lists corridors per destination rail with fixed fees, limits and rounded-down amounts', async () => {
      const res = await api.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=INR&destinationCurrency=EUR');
      expect(res.status).toBe(200);
      const rails = res.body.data.map((r: any) => `${r.destinationCurrency.code}/${r.destinationPaymentRail}`).sort();
      expect(rails).toEqual(['EUR/SEPA', 'EUR/SEPA_INSTANT', 'INR/IMPS', 'INR/UPI']);
      const upi = res.body.data.find((r: any) => r.destinationPaymentRail === 'UPI');
      // (10000 - 20) cents * 83.12 * 0.995 = 825,389.9 paise, rounded down.
      expect(upi).toMatchObject({
        sourceCurrency: { code: 'USD' },
        sendingAmount: 10_000,
        fees: { fixed: 20 },
        minSendingAmount: 100,
        maxSendingAmount: 1_200_000,
        receivingAmount: 825_389,
      });
      expect(upi.exchangeRate).toBeCloseTo(82.7044, 4);
      expect(typeof upi.updatedAt).toBe('string');
    });

    it('defaults to every currency and a sending amount of 10000; validates the query', async () => {
      const all = await api.get('/exchange-rates?sourceCurrency=EUR');
      expect(all.body.data.length).toBeGreaterThan(15);
      expect(all.body.data.every((r: any) => r.sendingAmount === 10_000)).toBe(true);
      expect((await api.get('/exchange-rates?sendingAmount=-1')).status).toBe(400);
      expect((await api.get('/exchange-rates?sendingAmount=1.5')).status).toBe(400);
      // Codes are free ISO 4217-shaped strings: one without rates matches nothing; a malformed one is a 400.
      expect((await api.get('/exchange-rates?destinationCurrency=XXX')).body).toEqual({ data: [] });
      expect((await api.get('/exchange-rates?destinationCurrency=xx')).status).toBe(400);
      const zero = await api.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=USD&sendingAmount=0');
      expect(zero.body.data.every((r: any) => r.receivingAmount === 0)).toBe(true);
    });
  });

  describe('lookups', () => {
    it('finds sandbox UMA receivers and stores the lookup', async () => {
      const res = await lookup('$success.EUR@sandbox.uma.local');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        receiverUmaAddress: '$success.EUR@sandbox.uma.local',
        supportedCurrencies: [{ currency: { code: 'EUR' } }],
        requiredPayerDataFields: [
          { name: 'FULL_NAME', mandatory: true },
          { name: 'BIRTH_DATE', mandatory: true },
        ],
      });
      expect(res.body.id).toMatch(/^Lookup:[0-9a-f-]{36}$/);
      expect(Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt)).toBe(15 * 60_000);
      const events = await t.service.infra.eventStore.readStream(`lookup-${res.body.id.split(':')[1]}`);
      expect(events.map((e) => e.type)).toEqual(['LookupCreated']);
      const names = (await lookup('$pending.long.MXN@any.example.com')).body.requiredPayerDataFields.map(
        (f: { name: string }) => f.name,
      );
      expect(names).toEqual(['FULL_NAME', 'BIRTH_DATE', 'NATIONALITY']);
    });

    it('answers 404 for unknown receivers', async () => {
      for (const address of ['$someone@sandbox.uma.local', '$success.JPY@sandbox.uma.local', 'success.USD@x.com']) {
        const res = await lookup(address);
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('UMA_NOT_FOUND');
      }
    });

    it('looks up an external account of the platform', async () => {
      const c = await m.customer(['USD']);
      const ext = await m.external(c.id, 'EUR', '000');
      const res = await api.get(`/receiver/external-account/${ext}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ accountId: ext, supportedCurrencies: [{ currency: { code: 'EUR' } }] });
      const other = await t.otherPlatform();
      expect((await other.api.get(`/receiver/external-account/${ext}`)).status).toBe(404);
    });
  });

  describe('quotes to UMA addresses', () => {
    const umaQuote = async (address: string, amount: number, info?: Record<string, string>, lookupId?: string) => {
      const c = await m.funded(100_000);
      const l = lookupId ?? (await lookup(address)).body.id;
      const res = await m.quote({
        source: { sourceType: 'ACCOUNT', accountId: c.accounts.USD },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: address },
        lookupId: l,
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: amount,
        ...(info ? { senderCustomerInfo: info } : {}),
      });
      return { c, res };
    };

    it('needs a lookup and the payer data it names', async () => {
      const c = await m.customer(['USD']);
      const noLookup = await m.quote({
        source: { sourceType: 'ACCOUNT', accountId: c.accounts.USD },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.USD@x.com' },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1000,
      });
      expect(noLookup.status).toBe(400);
      expect(noLookup.body.code).toBe('LOOKUP_REQUIRED');
      const missing = await umaQuote('$success.EUR@x.com', 1000, { FULL_NAME: 'Ada Lovelace' });
      expect(missing.res.status).toBe(400);
      expect(missing.res.body.details.errors).toEqual([
        expect.objectContaining({ field: 'senderCustomerInfo.BIRTH_DATE' }),
      ]);
      const otherReceiver = await umaQuote(
        '$success.USD@x.com',
        1000,
        { FULL_NAME: 'A' },
        (await lookup('$success.USD@y.com')).body.id,
      );
      expect(otherReceiver.res.body.code).toBe('LOOKUP_MISMATCH');
      const expiredLookup = (await lookup('$success.USD@x.com')).body.id;
      clock.advance(15 * 60_000);
      const late = await umaQuote('$success.USD@x.com', 1000, { FULL_NAME: 'A' }, expiredLookup);
      expect(late.res.body.code).toBe('LOOKUP_EXPIRED');
    });

    it('$success settles at once', async () => {
      const { c, res } = await umaQuote('$success.MXN@x.com', 10_000, {
        FULL_NAME: 'Ada',
        BIRTH_DATE: '1815-12-10',
        NATIONALITY: 'GB',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$success.MXN@x.com', paymentRail: 'UMA' },
        receivingCurrency: { code: 'MXN' },
        feesIncluded: 10,
      });
      const run = await api.post(`/quotes/${res.body.id}/execute`);
      expect(run.body.status).toBe('COMPLETED');
      expect(await m.transaction(res.body.transactionId)).toMatchObject({
        status: 'COMPLETED',
        destination: { destinationType: 'UMA_ADDRESS', currency: 'MXN' },
      });
      expect(await m.balance(c.accounts.USD)).toBe(90_000);
      await ledgerOk();
    });

    it('$pending.long stays PROCESSING for an hour', async () => {
      const { c, res } = await umaQuote('$pending.long.USD@x.com', 5_000, { FULL_NAME: 'Ada' });
      expect((await api.post(`/quotes/${res.body.id}/execute`)).body.status).toBe('PROCESSING');
      await m.advance(3_000);
      expect((await m.transaction(res.body.transactionId)).status).toBe('PROCESSING');
      await m.advance(600);
      await m.eventually(res.body.transactionId, 'COMPLETED');
      expect(await m.balance(c.accounts.USD)).toBe(95_000);
      await ledgerOk();
    });

    it('$fail.compliance fails the pay request', async () => {
      const { c, res } = await umaQuote('$fail.compliance.USD@x.com', 5_000, { FULL_NAME: 'Ada' });
      expect((await api.post(`/quotes/${res.body.id}/execute`)).body.status).toBe('FAILED');
      expect(await m.transaction(res.body.transactionId)).toMatchObject({
        status: 'FAILED',
        failureReason: 'PAY_REQUEST_FAILED',
      });
      expect(await m.balance(c.accounts.USD)).toBe(100_000);
      await ledgerOk();
    });
  });

  describe('incoming UMA payments (sandbox receive)', () => {
    const receive = async (sender: string, body: Record<string, unknown>) =>
      api.post('/sandbox/uma/receive', {
        senderUmaAddress: sender,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 7_000,
        ...body,
      });

    it('credits the receiver by UMA address', async () => {
      const c = await m.customer(['USD'], { umaAddress: '$grace@sandbox.uma.local' });
      const res = await receive('$alice@other.example.com', { receiverUmaAddress: '$grace@sandbox.uma.local' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        type: 'INCOMING',
        status: 'COMPLETED',
        customerId: c.id,
        source: { sourceType: 'UMA_ADDRESS', umaAddress: '$alice@other.example.com' },
        destination: { accountId: c.accounts.USD },
        receivedAmount: { amount: 7_000 },
      });
      expect(await m.balance(c.accounts.USD)).toBe(7_000);
      await ledgerOk();
    });

    it('waits for approval, then credits', async () => {
      const c = await m.customer(['USD']);
      const res = await receive('$pending.long.USD@bank.example.com', { customerId: c.id });
      expect(res.body).toMatchObject({
        status: 'PENDING',
        reconciliationInstructions: { reference: expect.any(String) },
      });
      expect(await m.balance(c.accounts.USD)).toBe(0);
      const approved = await api.post(`/transactions/${res.body.id}/approve`);
      expect(approved.status).toBe(200);
      expect(approved.body.status).toBe('COMPLETED');
      expect(await m.balance(c.accounts.USD)).toBe(7_000);
      expect((await api.post(`/transactions/${res.body.id}/approve`)).status).toBe(409);
      await ledgerOk();
    });

    it('can be rejected, or times out waiting', async () => {
      const c = await m.customer(['USD']);
      const rejected = await receive('$pending.long.USD@bank.example.com', { customerId: c.id });
      expect((await api.post(`/transactions/${rejected.body.id}/reject`)).body.status).toBe('REJECTED');
      const waiting = await receive('$pending.long.USD@bank.example.com', { customerId: c.id });
      await m.advance(3_600);
      expect(await m.eventually(waiting.body.id, 'FAILED')).toMatchObject({
        failureReason: 'PAYMENT_APPROVAL_TIMED_OUT',
      });
      expect(await m.balance(c.accounts.USD)).toBe(0);
      await ledgerOk();
    });

    it('rejects senders failing compliance and refuses unknown receivers', async () => {
      const c = await m.customer(['USD']);
      expect((await receive('$fail.compliance.USD@bank.example.com', { customerId: c.id })).body.status).toBe(
        'REJECTED',
      );
      expect((await receive('$a@b.com', { receiverUmaAddress: '$nobody@sandbox.uma.local' })).status).toBe(404);
      expect((await receive('$a@b.com', { customerId: c.id, receivingCurrencyCode: 'EUR' })).body.code).toBe(
        'UNSUPPORTED_CURRENCY',
      );
      expect((await receive('$a@b.com', { customerId: c.id, receiverUmaAddress: '$x@y.com' })).status).toBe(400);
      const quoteTx = (await m.accountQuote(c.accounts.USD, (await m.customer(['USD'])).accounts.USD, 100)).body
        .transactionId;
      expect((await api.post(`/transactions/${quoteTx}/approve`)).status).toBe(409);
    });
  });

  describe('quotes funded externally (sandbox send)', () => {
    it('shows payment instructions and starts when they are paid', async () => {
      const c = await m.customer(['USD', 'EUR']);
      const ext = await m.external(c.id, 'USD', '444');
      const q = await m.accountQuote(ext, c.accounts.EUR, 20_000);
      expect(q.status).toBe(201);
      expect(q.body.paymentInstructions[0].accountOrWalletInfo).toMatchObject({
        accountType: 'USD_ACCOUNT',
        reference: expect.stringMatching(/^TX-/),
        paymentRails: ['RTP'],
      });
      expect((await api.post(`/quotes/${q.body.id}/execute`)).body.code).toBe('QUOTE_FUNDED_EXTERNALLY');
      expect((await api.post('/sandbox/send', { quoteId: q.body.id, currencyCode: 'EUR' })).body.code).toBe(
        'CURRENCY_MISMATCH',
      );
      expect(
        (await api.post('/sandbox/send', { quoteId: q.body.id, currencyCode: 'USD', currencyAmount: 1 })).body.code,
      ).toBe('AMOUNT_MISMATCH');
      const paid = await api.post('/sandbox/send', { quoteId: q.body.id, currencyCode: 'USD' });
      expect(paid.status).toBe(200);
      expect(paid.body).toMatchObject({ id: q.body.transactionId, status: 'COMPLETED' });
      expect(await m.balance(c.accounts.EUR)).toBe(q.body.totalReceivingAmount);
      expect((await api.post('/sandbox/send', { quoteId: q.body.id, currencyCode: 'USD' })).status).toBe(409);
      await ledgerOk();
    });

    it('refuses a payment after expiresAt and expires the quote', async () => {
      const c = await m.customer(['USD', 'EUR']);
      const ext = await m.external(c.id, 'USD', '444');
      const q = (await m.accountQuote(ext, c.accounts.EUR, 20_000)).body;
      clock.advance(300_001);
      expect((await api.post('/sandbox/send', { quoteId: q.id, currencyCode: 'USD' })).body.code).toBe('QUOTE_EXPIRED');
      expect((await m.transaction(q.transactionId)).status).toBe('EXPIRED');
      expect(await m.balance(c.accounts.EUR)).toBe(0);
    });
  });

  describe('embedded wallet sources', () => {
    it('carry a payloadToSign, refuse immediatelyExecute and need a signature to execute', async () => {
      const c = await m.customer(['USD'], { email: 'ada@example.com' });
      const session = await walletSession(api, c.id);
      const wallet = session.accountId;
      await m.fund(wallet, 10_000);
      const to = (await m.customer(['USD'])).accounts.USD;
      const immediate = await m.accountQuote(wallet, to, 1_000, { immediatelyExecute: true });
      expect(immediate.status).toBe(400);
      expect(immediate.body.code).toBe('IMMEDIATE_EXECUTION_NOT_SUPPORTED');
      const q = (await m.accountQuote(wallet, to, 1_000)).body;
      const info = q.paymentInstructions[0].accountOrWalletInfo;
      expect(info.accountType).toBe('EMBEDDED_WALLET');
      expect(JSON.parse(info.payloadToSign)).toMatchObject({
        operation: `POST /quotes/${q.id}/execute`,
        targetId: q.id,
        accountId: wallet,
        expiresAt: q.expiresAt,
        body: {},
      });
      const unsigned = await api.post(`/quotes/${q.id}/execute`);
      expect(unsigned.status).toBe(401);
      expect(unsigned.body.code).toBe('WALLET_SIGNATURE_MISSING');
      const garbage = await api.post(`/quotes/${q.id}/execute`, undefined, {
        'service-wallet-signature': 'not-a-stamp!',
      });
      expect(garbage.status).toBe(401);
      expect(garbage.body.code).toBe('WALLET_SIGNATURE_MALFORMED');
      // A valid stamp by a session of another wallet does not authorize this one.
      const stranger = await walletSession(api, (await m.customer(['USD'], { email: 'eve@example.com' })).id);
      const foreign = await api.post(`/quotes/${q.id}/execute`, undefined, {
        'service-wallet-signature': await stranger.stamp(info.payloadToSign),
      });
      expect(foreign.status).toBe(401);
      expect(foreign.body.code).toBe('WALLET_SIGNATURE_INVALID');
      expect(await m.balance(wallet)).toBe(10_000);
      expect((await m.transaction(q.transactionId)).status).toBe('PENDING');

      const signed = await api.post(`/quotes/${q.id}/execute`, undefined, {
        'service-wallet-signature': await session.stamp(info.payloadToSign),
      });
      expect(signed.status).toBe(200);
      expect(signed.body.status).toBe('COMPLETED');
      expect(await m.balance(wallet)).toBe(9_000);
      await ledgerOk();
    });
  });
});
