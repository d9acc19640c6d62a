import { describe, expect, it } from '@jest/globals';
import { money, useMoneyService } from './money-support.js';
import { uniqueValue } from '../support/sequence.js';

const START = Date.UTC(2026, 4, 18, 9);
const enc = encodeURIComponent;

/** Receiver lookups sent as the public API's examples shape them: sender queries, lookupId, currency preferences. */
describe('receiver lookups shaped like the public API', () => {
  const receiver = '$success.EUR@uma.domain.com';
  const uma = (address: string, query = '') => api.get(`/receiver/uma/${enc(address)}${query}`);

  const { t, api, m } = useMoneyService({ start: START });

  it('answers lookupId, supportedCurrencies with rate and limits, requiredPayerDataFields with mandatory', async () => {
    const ada = await m.customer(['USD']);
    const res = await uma(receiver, `?customerId=${enc(ada.id)}`);
    expect(res.status).toBe(200);
    expect(res.body.lookupId).toMatch(/^Lookup:[0-9a-f-]{36}$/);
    expect(res.body.receiverUmaAddress).toBe(receiver);
    expect(res.body.requiredPayerDataFields).toEqual([
      { name: 'FULL_NAME', mandatory: true },
      { name: 'BIRTH_DATE', mandatory: true },
    ]);
    const [eur] = res.body.supportedCurrencies;
    expect(Object.keys(eur).sort()).toEqual(['currency', 'estimatedExchangeRate', 'max', 'min']);
    expect(eur.currency).toEqual({ code: 'EUR', name: 'Euro', symbol: '€', decimals: 2 });
    expect(Number.isInteger(eur.min) && Number.isInteger(eur.max)).toBe(true);
    expect(eur.min).toBeGreaterThan(0);
    expect(eur.max).toBeGreaterThan(eur.min);
    const rates = await api.get('/exchange-rates?sourceCurrency=USD&destinationCurrency=EUR');
    expect(eur.estimatedExchangeRate).toBe(rates.body.data[0].exchangeRate);
    expect(res.body.senderCustomerId).toBe(ada.id);
  });

  it('prices from the sender’s currency, found by customerId or by senderUmaAddress', async () => {
    const address = `$${uniqueValue('eve')}@sandbox.uma.local`;
    const eve = await m.customer(['EUR'], { umaAddress: address });
    const byUma = await uma(receiver, `?senderUmaAddress=${enc(address)}`);
    expect(byUma.status).toBe(200);
    expect(byUma.body).toMatchObject({ senderCustomerId: eve.id, senderUmaAddress: address });
    expect(byUma.body.supportedCurrencies[0].estimatedExchangeRate).toBe(1);
    const both = await uma(receiver, `?senderUmaAddress=${enc(address)}&customerId=${enc(eve.id)}`);
    expect(both.status).toBe(200);
    const elsewhere = await uma(receiver, `?senderUmaAddress=${enc('$carol@other.example.com')}`);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.senderCustomerId).toBeUndefined();
  });

  it('refuses the sender’s own address, malformed senders, and other platforms’ customers', async () => {
    const self = await uma(receiver, `?senderUmaAddress=${enc(receiver)}`);
    expect({ status: self.status, code: self.body.code }).toEqual({ status: 400, code: 'SELF_PAYMENT' });
    expect((await uma(receiver, '?senderUmaAddress=nobody')).status).toBe(400);
    expect((await uma(receiver, '?customerId=nobody')).status).toBe(400);
    const other = await t.otherPlatform();
    const stranger = (await money(t, other.api).customer(['USD'])).id;
    const foreign = await uma(receiver, `?customerId=${enc(stranger)}`);
    expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 404, code: 'CUSTOMER_NOT_FOUND' });
    const unknown = await uma('$nobody@uma.domain.com');
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 404, code: 'UMA_NOT_FOUND' });
  });

  it('keeps a lookup made for a sender to that sender’s quotes', async () => {
    const ada = await m.customer(['USD']);
    const bob = await m.customer(['USD']);
    const lookupId = (await uma(receiver, `?customerId=${enc(ada.id)}`)).body.lookupId;
    const quote = (from: string) =>
      m.quote({
        lookupId,
        source: { sourceType: 'ACCOUNT', accountId: from },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: receiver, currency: 'EUR' },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
        senderCustomerInfo: { FULL_NAME: 'Ada Lovelace', BIRTH_DATE: '1815-12-10' },
      });
    const theirs = await quote(bob.accounts.USD);
    expect({ status: theirs.status, code: theirs.body.code }).toEqual({ status: 400, code: 'LOOKUP_MISMATCH' });
    expect((await quote(ada.accounts.USD)).status).toBe(201);
    const other = await t.otherPlatform();
    const foreign = await money(t, other.api).customer(['USD']);
    const elsewhere = await money(t, other.api).quote({
      lookupId,
      source: { sourceType: 'ACCOUNT', accountId: foreign.accounts.USD },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: receiver },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
    });
    expect({ status: elsewhere.status, code: elsewhere.body.code }).toEqual({
      status: 404,
      code: 'LOOKUP_REQUEST_NOT_FOUND',
    });
  });

  it('looks up an external account with the same shapes', async () => {
    const ada = await m.customer(['USD']);
    const ext = await m.external(ada.id, 'EUR', '000');
    const res = await api.get(`/receiver/external-account/${ext}?customerId=${enc(ada.id)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      accountId: ext,
      lookupId: expect.stringMatching(/^Lookup:/),
      supportedCurrencies: [
        {
          currency: expect.objectContaining({ code: 'EUR' }),
          estimatedExchangeRate: expect.any(Number),
          min: expect.any(Number),
          max: expect.any(Number),
        },
      ],
      requiredPayerDataFields: [
        { name: 'FULL_NAME', mandatory: true },
        { name: 'BIRTH_DATE', mandatory: true },
      ],
    });
  });
});
