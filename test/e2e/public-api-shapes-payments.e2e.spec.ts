import { beforeAll, describe, expect, it } from '@jest/globals';
import { useTestService } from '../support/fixture.js';
import { fundingQuoteBody, money } from './money-support.js';

type Schema = Record<string, any>;

/**
 * The public API's shapes of payments (the rest in public-api-shapes): the originator of a REALTIME_FUNDING source,
 * the payment webhook types, the provider's required fields and what an incoming payment asks about its receiver.
 */
describe('the public API’s shapes of payments', () => {
  const t = useTestService();
  let doc: Schema;
  beforeAll(async () => {
    doc = (await t.anonymous.get('/openapi.json')).body;
  });
  const schema = (name: string): Schema => doc.components.schemas[name];

  describe('the originator of a REALTIME_FUNDING source', () => {
    /** The public API's originator fields, and what the sandbox's simulated payer fills them with. */
    const ORIGINATOR: [field: string, value: unknown][] = [
      ['accountHolderName', 'Ada Lovelace'],
      ['accountIdentifier', expect.stringMatching(/^\*{4}\d{4}$/)],
      ['bankName', expect.any(String)],
      ['bankIdentifier', expect.stringMatching(/^\d{9}$/)],
      ['paymentRail', 'RTP'],
      ['remittanceInformation', expect.stringMatching(/^TX-/)],
      ['endToEndId', expect.stringMatching(/^E2E-/)],
      ['traceNumber', expect.stringMatching(/^\d{15}$/)],
    ];
    let before: Schema;
    let after: Schema;
    beforeAll(async () => {
      const m = money(t);
      const payer = await m.customer(['USD', 'EUR']);
      const quote = await m.quote(fundingQuoteBody(payer.id, 'USD', payer.accounts.EUR, 'RECEIVING', 10_000));
      before = (await m.transaction(quote.body.transactionId)).source;
      expect((await t.api.post('/sandbox/send', { quoteId: quote.body.id, currencyCode: 'USD' })).status).toBe(200);
      after = (await m.transaction(quote.body.transactionId)).source;
    });

    it.each(ORIGINATOR)(
      'documents %s on the transaction source and fills it once the funds arrived',
      (field, value) => {
        expect(schema('Transaction').properties.source.properties[field]).toMatchObject({ type: 'string' });
        expect(field in before).toBe(false);
        expect({ field, value: after[field] }).toEqual({ field, value });
        expect(after).toMatchObject({ sourceType: 'REALTIME_FUNDING', currency: 'USD' });
      },
    );
  });

  describe('webhook types of payments', () => {
    const PAYMENT_TYPES: [family: string, type: string][] = [
      ...[
        'PENDING',
        'PROCESSING',
        'COMPLETED',
        'FAILED',
        'EXPIRED',
        'REFUND_PENDING',
        'REFUND_COMPLETED',
        'REFUND_FAILED',
      ].map((e): [string, string] => ['outgoing-payment', `OUTGOING_PAYMENT.${e}`]),
      ...['PENDING', 'COMPLETED', 'FAILED'].map((e): [string, string] => ['incoming-payment', `INCOMING_PAYMENT.${e}`]),
    ];

    it.each(PAYMENT_TYPES)('documents %s webhooks of type %s on the envelope and in its family', (family, type) => {
      expect(schema('WebhookEnvelope').properties.type.$ref).toBe('#/components/schemas/WebhookType');
      expect(schema('WebhookType').enum).toContain(type);
      const body = doc.webhooks[family].post.requestBody.content['application/json'].schema;
      expect(body.allOf[1].properties.type.enum).toContain(type);
    });

    it('sends OUTGOING_PAYMENT.* and INCOMING_PAYMENT.COMPLETED|FAILED envelopes the document describes', async () => {
      const p = await t.webhookPlatform();
      const m = money(t, p.api);
      const c = await m.funded(100_000);
      const ext = await m.external(c.id, 'USD', '555');
      const quote = await m.accountQuote(c.accounts.USD, ext, 10_000);
      const outgoing = (await p.api.post(`/quotes/${quote.body.id}/execute`)).body.transactionId;
      const receive = (senderUmaAddress: string) =>
        p.api.post('/sandbox/uma/receive', {
          senderUmaAddress,
          customerId: c.id,
          receivingCurrencyCode: 'USD',
          receivingCurrencyAmount: 2_500,
        });
      const credited = (await receive('$alice@other.example.com')).body.id;
      const rejected = (await receive('$fail.compliance.USD@bank.example.com')).body.id;
      const expected: [string, string][] = [
        [outgoing, 'OUTGOING_PAYMENT.COMPLETED'],
        [credited, 'INCOMING_PAYMENT.COMPLETED'],
        [rejected, 'INCOMING_PAYMENT.FAILED'],
      ];
      const got = () =>
        expected.filter(([id, type]) =>
          p.receiver.requests.some((r) => r.json?.type === type && r.json.data?.id === id),
        );
      await p.receiver.waitFor(() => got().length === expected.length, 15_000, 'the payment webhooks');
      const types = schema('WebhookType').enum;
      for (const [, type] of expected) expect(types).toContain(type);
    });
  });

  describe('the provider’s required fields, and the fields an incoming payment asks about its receiver', () => {
    /** Per currency: what a quote must tell of the paying customer (the receiving side’s requiredPayerDataFields). */
    const REQUIRED: [code: string, customer: string[]][] = [
      ['USD', ['FULL_NAME']],
      ['EUR', ['FULL_NAME', 'BIRTH_DATE']],
      ['MXN', ['FULL_NAME', 'BIRTH_DATE', 'NATIONALITY']],
      ['BTC', ['FULL_NAME', 'BIRTH_DATE', 'NATIONALITY']],
    ];

    it.each(REQUIRED)(
      'shows %s with providerRequiredCustomerFields and …CounterpartyCustomerFields',
      async (code, fields) => {
        const config = (await t.api.get('/config')).body;
        const currency = config.supportedCurrencies.find((c: Schema) => c.currencyCode === code);
        expect(currency).toMatchObject({
          providerRequiredCustomerFields: fields,
          providerRequiredCounterpartyCustomerFields: ['FULL_NAME'],
        });
        const documented = schema('PlatformCurrencyConfig').properties;
        for (const field of ['providerRequiredCustomerFields', 'providerRequiredCounterpartyCustomerFields'])
          expect(documented[field]).toMatchObject({
            readOnly: true,
            items: { $ref: '#/components/schemas/CustomerInfoFieldName' },
          });
      },
    );

    it('takes back a currency list as GET /config shows it; the read-only fields stay the service’s', async () => {
      const p = await t.otherPlatform();
      const shown = (await p.api.get('/config')).body.supportedCurrencies;
      const usd = { ...shown.find((c: Schema) => c.currencyCode === 'USD'), providerRequiredCustomerFields: ['EMAIL'] };
      const res = await p.api.patch('/config', { supportedCurrencies: [usd] });
      expect(res.status).toBe(200);
      expect(res.body.supportedCurrencies).toEqual([
        expect.objectContaining({ currencyCode: 'USD', providerRequiredCustomerFields: ['FULL_NAME'] }),
      ]);
    });

    it('sends requestedReceiverCustomerInfoFields with every incoming payment webhook', async () => {
      const p = await t.webhookPlatform();
      const receiver = await money(t, p.api).customer(['USD']);
      const received = await p.api.post('/sandbox/uma/receive', {
        senderUmaAddress: '$alice@other.example.com',
        customerId: receiver.id,
        receivingCurrencyCode: 'USD',
        receivingCurrencyAmount: 2_500,
      });
      const hook = () =>
        p.receiver.requests.find(
          (r) => r.json?.type === 'INCOMING_PAYMENT.COMPLETED' && r.json.data?.id === received.body.id,
        );
      await p.receiver.waitFor(() => hook() !== undefined, 15_000, 'INCOMING_PAYMENT.COMPLETED');
      expect(hook()!.json!.data.requestedReceiverCustomerInfoFields).toEqual(
        expect.arrayContaining([
          { name: 'BIRTH_DATE', mandatory: true },
          { name: 'NATIONALITY', mandatory: true },
        ]),
      );
      const family = doc.webhooks['incoming-payment'].post.requestBody.content['application/json'].schema;
      expect(family.allOf[1].properties.data.allOf[1].properties.requestedReceiverCustomerInfoFields.items).toEqual({
        $ref: '#/components/schemas/CounterpartyFieldDefinition',
      });
    });
  });
});
