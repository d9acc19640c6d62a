import { beforeAll, describe, expect, it } from '@jest/globals';
import { agents, policy } from './agents-support.js';
import { cardsHarness } from './cards-support.js';
import { money } from './money-support.js';

type Schema = Record<string, any>;

/**
 * Where the spec is silent the service looks like the public API it condenses: its OpenAPI document and its answers
 * carry the public API's fields, enums and optional parts, item by item.
 */
describe('the public API’s shapes', () => {
  const kit = cardsHarness(Date.UTC(2026, 3, 10, 9));
  const t = kit.t;
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

  describe('currency codes taken as the public API takes them: any ISO 4217 code', () => {
    const a = agents(t);
    /** Where a currency is given, and the document's schema of it. */
    const inputs: [where: string, read: () => Schema][] = [
      ['?currency of GET /agents/me/internal-accounts', () => param('/agents/me/internal-accounts', 'currency')],
      ['?currency of GET /agents/me/external-accounts', () => param('/agents/me/external-accounts', 'currency')],
      ['policy spendingLimits.currency', () => schema('SpendingLimitsDto').properties.currency],
      ['policy update spendingLimits.currency', () => schema('SpendingLimitsUpdateDto').properties.currency],
      ['policy approvalThresholds.currency', () => schema('ApprovalThresholdsDto').properties.currency],
      ['the authorization simulator’s currency.code', () => schema('CurrencyRefDto').properties.code],
    ];
    const param = (path: string, name: string): Schema =>
      doc.paths[path].get.parameters.find((p: Schema) => p.name === name).schema;

    it.each(inputs)('documents %s as a code, not a list of twelve', (_where, read) => {
      const declared = read();
      expect(declared.enum).toBeUndefined();
      expect(declared).toMatchObject({ type: 'string', pattern: expect.any(String) });
      expect(new RegExp(declared.pattern).test('JPY')).toBe(true);
    });

    it('filters an agent’s accounts by any code: one the service does not hold matches nothing', async () => {
      const agent = await a.connected();
      for (const kind of ['internal', 'external']) {
        const none = await agent.me.get(`/agents/me/${kind}-accounts?currency=JPY`);
        expect({ kind, status: none.status, data: none.body.data }).toEqual({ kind, status: 200, data: [] });
        const usd = await agent.me.get(`/agents/me/${kind}-accounts?currency=USD`);
        expect({ kind, count: usd.body.data.length }).toEqual({ kind, count: 1 });
        const malformed = await agent.me.get(`/agents/me/${kind}-accounts?currency=dollars`);
        expect({ kind, status: malformed.status }).toEqual({ kind, status: 400 });
      }
    });

    it('takes any code in a policy; one it cannot convert limits into is a 400 naming the field', async () => {
      const customer = await money(t).customer(['USD']);
      const unknown = await t.api.post('/agents', {
        name: 'assistant',
        customerId: customer.id,
        policy: policy({}, { currency: 'JPY' }),
      });
      expect({
        status: unknown.status,
        code: unknown.body.code,
        field: unknown.body.details?.errors?.[0]?.field,
      }).toEqual({ status: 400, code: 'INVALID_CURRENCY', field: 'policy.spendingLimits.currency' });
      const { agent } = await a.create(customer.id, policy({}, { currency: 'EUR' }));
      expect(agent.policy.spendingLimits.currency).toBe('EUR');
      const threshold = await t.api.patch(`/agents/${agent.id}/policy`, {
        approvalThresholds: { currency: 'CHF', amount: 100 },
      });
      expect({ status: threshold.status, code: threshold.body.code }).toEqual({
        status: 400,
        code: 'INVALID_CURRENCY',
      });
      const limits = await t.api.patch(`/agents/${agent.id}/policy`, { spendingLimits: { currency: 'GBP' } });
      expect({ status: limits.status, currency: limits.body.policy.spendingLimits.currency }).toEqual({
        status: 200,
        currency: 'GBP',
      });
    });

    it('takes any code in a simulated authorization: a card in another currency declines it', async () => {
      const h = await kit.holder();
      await money(t).fund(h.usd, 10_000);
      const card = await kit.activeCard(h, { fundingSources: [h.usd] });
      const yen = await t.api.post(`/sandbox/cards/${card.id}/simulate/authorization`, {
        amount: 500,
        currency: { code: 'JPY' },
        merchant: { descriptor: 'KISSATEN TOKYO', mcc: '5814', country: 'JP' },
      });
      expect(yen.status).toBe(400);
      expect(JSON.stringify(yen.body)).toContain('CURRENCY_MISMATCH');
      expect((await t.api.get(`/cards/${card.id}`)).status).toBe(200);
      expect((await t.api.get(`/cards/${card.id}/transactions`)).status).toBe(200);
    });
  });

  describe('agent policies leave out the restrictions and thresholds not set', () => {
    const a = agents(t);
    const UNSET = ['accountRestrictions', 'approvalThresholds'];
    /** Each way a policy is read: after a create, its GET, the agent's own view, a redeem and a list. */
    const reads: [how: string, policyOf: (created: { agent: any; deviceCode: any }) => Promise<Schema>][] = [
      ['POST /agents', async (c) => c.agent.policy],
      ['GET /agents/{agentId}', async (c) => (await t.api.get(`/agents/${c.agent.id}`)).body.policy],
      ['redeem', async (c) => (await a.redeem(c.deviceCode.code)).body.policy],
      ['GET /agents', async (c) => (await t.api.get(`/agents?customerId=${c.agent.customerId}`)).body.data[0].policy],
    ];

    it.each(reads)('%s: absent, not null, when never set or removed with null', async (_how, policyOf) => {
      const customer = await money(t).customer(['USD']);
      const plain = await a.create(customer.id, policy());
      const shown = await policyOf(plain);
      for (const field of UNSET) expect({ field, present: field in shown }).toEqual({ field, present: false });
      const nulls = await a.create(customer.id, policy({ accountRestrictions: null, approvalThresholds: null }), 'b');
      const nullShown = await policyOf(nulls);
      for (const field of UNSET) expect({ field, present: field in nullShown }).toEqual({ field, present: false });
    });

    it('shows them once set, and leaves them out again when an update removes them', async () => {
      const customer = await money(t).customer(['USD']);
      const { agent } = await a.create(customer.id, policy());
      const set = await t.api.patch(`/agents/${agent.id}/policy`, {
        accountRestrictions: { allowedAccountIds: [customer.accounts.USD] },
        approvalThresholds: { currency: 'USD', amount: 5_000 },
      });
      expect(set.body.policy).toMatchObject({
        accountRestrictions: { allowedAccountIds: [customer.accounts.USD] },
        approvalThresholds: { currency: 'USD', amount: 5_000 },
      });
      const removed = await t.api.patch(`/agents/${agent.id}/policy`, {
        accountRestrictions: null,
        approvalThresholds: null,
      });
      expect(removed.status).toBe(200);
      for (const field of UNSET)
        expect({ field, present: field in removed.body.policy }).toEqual({ field, present: false });
      const documented = schema('AgentPolicy').properties;
      for (const field of UNSET) expect({ field, type: documented[field].type }).toEqual({ field, type: 'object' });
    });
  });

  describe('optional bodies, and the KYC link’s token', () => {
    const a = agents(t);
    const pendingAction = async () => {
      const agent = await a.connected(policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }), 10_000);
      const pending = (await a.transferOut(agent, 800)).body;
      expect(pending.status).toBe('PENDING_APPROVAL');
      return { agent, pending };
    };

    it.each(['/agents/{agentId}/actions/{actionId}/reject', '/customers/{customerId}/kyc-link'])(
      'documents the body of POST %s as optional',
      (path) => {
        expect(doc.paths[path].post.requestBody.required).toBe(false);
      },
    );

    it.each([
      ['without a body', undefined, undefined],
      ['with an empty body', {}, undefined],
      ['with a reason', { reason: 'not this week' }, 'not this week'],
    ])('rejects an agent action %s', async (_how, body, reason) => {
      const { agent, pending } = await pendingAction();
      const res = await t.api.post(`/agents/${agent.id}/actions/${pending.id}/reject`, body);
      expect({ status: res.status, action: res.body.status, reason: res.body.rejectionReason }).toEqual({
        status: 200,
        action: 'REJECTED',
        reason,
      });
    });

    it('issues a KYC link without a body, with the token that embeds the flow in place of the hosted URL', async () => {
      const customer = await money(t).customer(['USD']);
      for (const body of [undefined, {}, { redirectUri: 'https://app.example.com/done' }]) {
        const res = await t.api.post(`/customers/${customer.id}/kyc-link`, body);
        expect(res.status).toBe(201);
        expect(res.body).toEqual({
          kycUrl: expect.stringMatching(/^https?:\/\//),
          expiresAt: expect.any(String),
          provider: 'HOSTED',
          token: expect.any(String),
        });
        expect(res.body.kycUrl.endsWith(`/kyc/${res.body.token}`)).toBe(true);
        const state = await t.anonymous.get(`/kyc/${res.body.token}/state`);
        expect({ status: state.status, linkStatus: state.body.linkStatus }).toEqual({
          status: 200,
          linkStatus: 'ACTIVE',
        });
      }
      expect(schema('KycLink').properties.token).toMatchObject({ type: 'string' });
    });
  });
});
