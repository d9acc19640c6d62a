import { beforeAll, describe, expect, it } from '@jest/globals';
import { useTestService } from '../support/fixture.js';
import { money } from './money-support.js';

type Schema = Record<string, any>;

/**
 * Where the spec is silent the service looks like the public API it condenses: its OpenAPI document and its answers
 * carry the public API's fields, enums and optional parts, item by item.
 */
describe('the public API’s shapes', () => {
  const t = useTestService();
  let doc: Schema;
  beforeAll(async () => {
    doc = (await t.anonymous.get('/openapi.json')).body;
  });
  const schema = (name: string): Schema => doc.components.schemas[name];

  describe('funding payment instructions', () => {
    /** Variants of the public document: their accountType and the fields it requires besides. */
    const DOCUMENTED: [component: string, accountType: string, required: string[]][] = [
      ['PaymentUsdAccountInfo', 'USD_ACCOUNT', ['accountNumber', 'routingNumber', 'paymentRails', 'reference']],
      ['PaymentEurAccountInfo', 'EUR_ACCOUNT', ['iban', 'paymentRails', 'reference']],
      ['PaymentDkkAccountInfo', 'DKK_ACCOUNT', ['iban', 'paymentRails', 'reference']],
      ['PaymentAedAccountInfo', 'AED_ACCOUNT', ['iban', 'paymentRails', 'reference']],
      ['PaymentGbpAccountInfo', 'GBP_ACCOUNT', ['sortCode', 'accountNumber', 'paymentRails', 'reference']],
      ['PaymentMxnAccountInfo', 'MXN_ACCOUNT', ['clabeNumber', 'paymentRails', 'reference']],
      ['PaymentKesAccountInfo', 'KES_ACCOUNT', ['phoneNumber', 'provider', 'paymentRails', 'reference']],
      ['PaymentXafAccountInfo', 'XAF_ACCOUNT', ['phoneNumber', 'provider', 'region', 'paymentRails', 'reference']],
      ['PaymentXofAccountInfo', 'XOF_ACCOUNT', ['phoneNumber', 'provider', 'region', 'paymentRails', 'reference']],
      [
        'PaymentCadAccountInfo',
        'CAD_ACCOUNT',
        ['bankCode', 'branchCode', 'accountNumber', 'paymentRails', 'reference'],
      ],
      ['PaymentInrAccountInfo', 'INR_ACCOUNT', ['vpa', 'paymentRails']],
      ['PaymentBrlAccountInfo', 'BRL_ACCOUNT', ['qrCode']],
      ['PaymentSwiftAccountInfo', 'SWIFT_ACCOUNT', ['swiftCode', 'bankName', 'country', 'paymentRails', 'reference']],
      ['PaymentCopAccountInfo', 'COP_ACCOUNT', ['paymentUrl']],
      ['PaymentSparkWalletInfo', 'SPARK_WALLET', ['address', 'assetType']],
      ['PaymentLightningInvoiceInfo', 'LIGHTNING', ['invoice']],
      ['PaymentSolanaWalletInfo', 'SOLANA_WALLET', ['address']],
      ['PaymentBaseWalletInfo', 'BASE_WALLET', ['address']],
      ['PaymentEmbeddedWalletInfo', 'EMBEDDED_WALLET', ['payloadToSign']],
    ];

    it.each(DOCUMENTED)('documents %s with only its own accountType and its fields', (component, type, required) => {
      const variant = schema(component);
      expect(variant.properties.accountType.enum).toEqual([type]);
      expect(variant.required).toEqual(['accountType', ...required]);
      const union = schema('PaymentInstructions').properties.accountOrWalletInfo;
      expect(union.oneOf).toContainEqual({ $ref: `#/components/schemas/${component}` });
      expect(union.discriminator.mapping[type]).toBe(`#/components/schemas/${component}`);
    });

    it('documents the public API’s regions of the Central and West African francs', () => {
      expect(schema('PaymentXafAccountInfo').properties.region.enum).toEqual(['CM', 'CG']);
      expect(schema('PaymentXofAccountInfo').properties.region.enum).toEqual(['BJ', 'CI', 'SN', 'TG']);
    });

    /** What each currency's funding instructions carry, in the public API's formats. */
    const SENT: [code: string, accountType: string, fields: Record<string, unknown>][] = [
      [
        'USD',
        'USD_ACCOUNT',
        { accountNumber: /^\d+$/, routingNumber: /^\d{9}$/, paymentRails: ['ACH', 'WIRE', 'RTP'] },
      ],
      [
        'EUR',
        'EUR_ACCOUNT',
        { iban: /^DE\d{20}$/, swiftCode: /^[A-Z0-9]{8}$/, paymentRails: ['SEPA', 'SEPA_INSTANT'] },
      ],
      ['AED', 'AED_ACCOUNT', { iban: /^AE\d{21}$/, swiftCode: /^[A-Z0-9]{8}$/, paymentRails: ['BANK_TRANSFER'] }],
      ['GBP', 'GBP_ACCOUNT', { sortCode: /^\d{6}$/, accountNumber: /^\d{8}$/, paymentRails: ['FASTER_PAYMENTS'] }],
      ['MXN', 'MXN_ACCOUNT', { clabeNumber: /^\d{18}$/, paymentRails: ['SPEI'] }],
      ['CAD', 'CAD_ACCOUNT', { bankCode: /^\d{3}$/, branchCode: /^\d{5}$/, accountNumber: /^\d{7,12}$/ }],
      ['INR', 'INR_ACCOUNT', { vpa: /^[\w.-]+@[a-zA-Z0-9]+$/, paymentRails: ['UPI'] }],
      ['BRL', 'BRL_ACCOUNT', { qrCode: /^000201/ }],
      ['PHP', 'PHP_ACCOUNT', { accountNumber: /^\d{8,16}$/, bankName: /.+/, paymentRails: ['BANK_TRANSFER'] }],
      ['NGN', 'NGN_ACCOUNT', { accountNumber: /^\d{10}$/, bankName: /.+/, paymentRails: ['BANK_TRANSFER'] }],
      ['BTC', 'SPARK_WALLET', { address: /.+/, assetType: 'BTC' }],
      ['USDC', 'SOLANA_WALLET', { address: /.+/, assetType: 'USDC' }],
    ];
    let accounts: Record<string, string>;
    beforeAll(async () => {
      accounts = (await money(t).customer(SENT.map(([code]) => code))).accounts;
    });

    it.each(SENT)('funds a %s account by the %s variant’s fields', async (code, accountType, fields) => {
      const account = (await t.api.get(`/internal-accounts/${accounts[code]}`)).body;
      const info = account.fundingPaymentInstructions[0].accountOrWalletInfo;
      const expected = Object.fromEntries(
        Object.entries(fields).map(([k, v]) => [k, v instanceof RegExp ? expect.stringMatching(v) : v]),
      );
      expect(info).toMatchObject({ accountType, ...expected });
    });
  });
});
