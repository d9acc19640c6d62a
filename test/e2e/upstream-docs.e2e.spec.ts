import { beforeAll, describe, expect, it } from '@jest/globals';
import { useTestService } from '../support/fixture.js';
import { money } from './money-support.js';

type Schema = Record<string, any>;

/** The served OpenAPI document declares what the money operations read and send, as the public API does. */
describe('OpenAPI document of quotes, transactions, lookups and account funding', () => {
  let doc: Schema;
  const param = (path: string, verb: string, name: string) =>
    (doc.paths[path][verb].parameters as Schema[]).find((p) => p.name === name);

  const t = useTestService();
  beforeAll(async () => {
    doc = (await t.anonymous.get('/openapi.json')).body;
  });

  it('declares the wallet signature header on POST /quotes/{quoteId}/execute', () => {
    expect(param('/quotes/{quoteId}/execute', 'post', 'Service-Wallet-Signature')).toMatchObject({
      in: 'header',
      required: false,
      schema: { type: 'string' },
    });
  });

  it('names path parameters as the public API does where it has the operation', async () => {
    for (const [path, verbs] of [
      ['/cards/{id}', ['get', 'patch']],
      ['/sandbox/cards/{id}/simulate/authorization', ['post']],
      ['/sandbox/cards/{id}/simulate/clearing', ['post']],
      ['/sandbox/cards/{id}/simulate/return', ['post']],
      ['/auth/credentials/{id}', ['delete']],
      ['/auth/credentials/{id}/challenge', ['post']],
      ['/auth/credentials/{id}/verify', ['post']],
      ['/auth/sessions/{id}', ['delete']],
      ['/auth/sessions/{id}/refresh', ['post']],
      ['/internal-accounts/{id}', ['get', 'patch']],
      ['/internal-accounts/{id}/export', ['post']],
      ['/sandbox/internal-accounts/{accountId}/fund', ['post']],
    ] as const) {
      for (const verb of verbs)
        expect({ path, verb, id: param(path, verb, path.match(/\{(\w+)\}/)![1])?.in }).toEqual({
          path,
          verb,
          id: 'path',
        });
    }
    // The wire is the same: a malformed id is a 400 naming the parameter as the document does.
    const bad = await t.api.get('/cards/not-a-card');
    expect({ status: bad.status, field: bad.body.details.errors[0].field }).toEqual({ status: 400, field: 'id' });
  });

  it('declares the idempotency conflicts on every operation taking Idempotency-Key, and the 429s', () => {
    for (const [path, item] of Object.entries<Schema>(doc.paths)) {
      for (const [verb, op] of Object.entries<Schema>(item)) {
        if (!(op.parameters ?? []).some((p: Schema) => p.name === 'Idempotency-Key')) continue;
        const statuses = Object.keys(op.responses);
        expect({ path, verb, statuses }).toEqual({ path, verb, statuses: expect.arrayContaining(['409', '422']) });
      }
    }
    expect(Object.keys(doc.paths['/auth/credentials/{id}/verify'].post.responses)).toContain('429');
    // Basic-auth operations: blocked token ids and addresses after repeated authentication failures.
    expect(Object.keys(doc.paths['/customers'].get.responses)).toContain('429');
  });

  it('declares the list defaults and the transaction filters by side', () => {
    for (const path of ['/transactions', '/quotes']) {
      expect(param(path, 'get', 'limit')!.schema).toMatchObject({
        type: 'integer',
        minimum: 1,
        maximum: 100,
        default: 20,
      });
      expect(param(path, 'get', 'sortOrder')!.schema).toMatchObject({ enum: ['asc', 'desc'], default: 'desc' });
    }
    for (const name of ['senderAccountIdentifier', 'receiverAccountIdentifier', 'accountIdentifier'])
      expect(param('/transactions', 'get', name)).toMatchObject({ in: 'query', required: false });
    for (const path of ['/receiver/uma/{receiverUmaAddress}', '/receiver/external-account/{accountId}'])
      for (const name of ['senderUmaAddress', 'customerId']) expect(param(path, 'get', name)).toBeDefined();
  });

  it('types paymentInstructions of quotes and transactions and fundingPaymentInstructions of internal accounts', () => {
    const schemas = doc.components.schemas;
    const ref = { $ref: '#/components/schemas/PaymentInstructions' };
    expect(schemas.Quote.properties.paymentInstructions.items).toEqual(ref);
    expect(schemas.Transaction.properties.paymentInstructions.items).toEqual(ref);
    expect(schemas.InternalAccount.properties.fundingPaymentInstructions.items).toEqual(ref);
    const instructions = schemas.PaymentInstructions;
    expect(instructions.required).toEqual(['accountOrWalletInfo', 'instructionsNotes']);
    expect(instructions.properties.isPlatformAccount).toMatchObject({ type: 'boolean' });
    // One variant per accountType, each listing only its own (checked field by field in public-api-shapes).
    const types = instructions.properties.accountOrWalletInfo.oneOf.map(
      (v: Schema) => schemas[v.$ref.split('/').pop()].properties.accountType.enum,
    );
    expect(types).toHaveLength(46);
    for (const listed of types) expect(listed).toHaveLength(1);
    expect(types.flat()).toEqual(expect.arrayContaining(['USD_ACCOUNT', 'SPARK_WALLET', 'EMBEDDED_WALLET']));
  });

  it('declares the optional bodies of confirm, approve and reject, and the new operations', () => {
    for (const action of ['confirm', 'approve', 'reject']) {
      const op = doc.paths[`/transactions/{transactionId}/${action}`].post;
      expect(op.requestBody.required).toBe(false);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404']));
    }
    expect(doc.paths['/discoveries'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/DiscoveryList',
    });
    const estimate = doc.paths['/crypto/estimate-withdrawal-fee'].post;
    expect(estimate.requestBody.required).toBe(true);
    expect(estimate.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/EstimateCryptoWithdrawalFeeResponse',
    });
  });

  it('serves funding instructions that match their schema, telling platform accounts from customers’', async () => {
    const m = money(t);
    const ada = await m.customer(['USD', 'BTC', 'USDC']);
    const usd = (await t.api.get(`/internal-accounts/${ada.accounts.USD}`)).body;
    expect(usd.fundingPaymentInstructions).toEqual([
      expect.objectContaining({
        accountOrWalletInfo: expect.objectContaining({
          accountType: 'USD_ACCOUNT',
          paymentRails: ['ACH', 'WIRE', 'RTP'],
        }),
        isPlatformAccount: false,
      }),
    ]);
    const btc = (await t.api.get(`/internal-accounts/${ada.accounts.BTC}`)).body;
    expect(btc.fundingPaymentInstructions[0].accountOrWalletInfo).toMatchObject({
      accountType: 'SPARK_WALLET',
      assetType: 'BTC',
    });
    const usdc = (await t.api.get(`/internal-accounts/${ada.accounts.USDC}`)).body;
    expect(usdc.fundingPaymentInstructions[0].accountOrWalletInfo).toMatchObject({
      accountType: 'SOLANA_WALLET',
      assetType: 'USDC',
    });
    const platform = (await t.api.get('/platform/internal-accounts')).body.data;
    expect(platform.length).toBeGreaterThan(0);
    for (const account of platform) expect(account.fundingPaymentInstructions[0].isPlatformAccount).toBe(true);
  });
});
