import { beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
const MAX_BODY_DEPTH = 32;
import { cardholder, type Cardholder } from '../support/card-fixture.js';
import type { Reply } from '../support/service.js';
import { snapshot } from '../support/state-snapshot.js';
import { useTestService } from '../support/fixture.js';

const fields = (res: Reply) =>
  (res.body?.details?.errors ?? []).map((e: { field: string; constraint: string }) => `${e.field}:${e.constraint}`);

/** Inputs that once answered 500 or were accepted, and the rules of the hardened JSON body parser. */
describe('bad input at the edge: 400 with field errors, never 5xx, nothing changed', () => {
  let h: Cardholder;
  const clock = new ManualClock(Date.UTC(2026, 2, 2, 9));

  const t = useTestService({ clock });
  const api = t.api;
  beforeAll(async () => {
    h = await cardholder(t, api, clock, 'bad-input-1');
  });

  const expectInvalid = (res: Reply, ...expected: string[]) => {
    expect({ status: res.status, code: res.body?.code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
    expect(res.body.status).toBe(400);
    expect(fields(res)).toEqual(expect.arrayContaining(expected));
  };

  it('refuses JSON nested 2,400 levels deep (was 500: stack overflow in validation)', async () => {
    const before = await snapshot(t, api, t.service.sandbox!.platformId);
    const brackets = `${'['.repeat(2400)}${']'.repeat(2400)}`;
    const deepArray = `{"platformCustomerId":"deep","customerType":"INDIVIDUAL","address":${brackets}}`;
    const deepObject = `${'{"a":'.repeat(2400)}1${'}'.repeat(2400)}`;
    for (const body of [deepArray, deepObject])
      expectInvalid(await api.request('POST', '/customers', body), 'body:maxDepth');
    // the limit is exact: brackets inside strings do not count, one level more than the limit is refused
    const nested = (depth: number) =>
      `{"platformCustomerId":"[[[{{{","customerType":"INDIVIDUAL",` +
      `"x":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    expectInvalid(await api.request('POST', '/customers', nested(MAX_BODY_DEPTH)), 'x:whitelistValidation');
    expectInvalid(await api.request('POST', '/customers', nested(MAX_BODY_DEPTH + 1)), 'body:maxDepth');
    expect(await snapshot(t, api, t.service.sandbox!.platformId)).toEqual(before);
  });

  it('refuses null fundingSources on POST /cards and PATCH /cards/{id} (PATCH was 500)', async () => {
    const before = await snapshot(t, api, t.service.sandbox!.platformId);
    expectInvalid(
      await api.post('/cards', { customerId: h.customerId, form: 'VIRTUAL', fundingSources: null }),
      'fundingSources:isArray',
    );
    expectInvalid(await api.patch(`/cards/${h.cardId}`, { fundingSources: null }), 'fundingSources:isNotNull');
    expectInvalid(
      await api.patch(`/cards/${h.cardId}`, { state: 'FROZEN', fundingSources: null }),
      'fundingSources:isNotNull',
    );
    expect(await snapshot(t, api, t.service.sandbox!.platformId)).toEqual(before);
  });

  it('refuses null amount in the clearing and return simulations (was 500: BigInt(null))', async () => {
    const before = await snapshot(t, api, t.service.sandbox!.platformId);
    for (const action of ['clearing', 'return']) {
      const res = await api.post(`/sandbox/cards/${h.cardId}/simulate/${action}`, {
        cardTransactionId: h.cardTransactionId,
        amount: null,
      });
      expectInvalid(res, 'amount:isNotNull');
    }
    expect(await snapshot(t, api, t.service.sandbox!.platformId)).toEqual(before);
    // leaving the amount out still means "all of it"
    const returned = await api.post(`/sandbox/cards/${h.cardId}/simulate/return`, {
      cardTransactionId: h.cardTransactionId,
    });
    expect(returned.status).toBe(200);
    expect(returned.body).toMatchObject({ status: 'REFUNDED', refundedAmount: { amount: 500 } });
  });

  it('refuses null for any optional field, and arrays where objects are expected', async () => {
    const before = await snapshot(t, api, t.service.sandbox!.platformId);
    const base = { platformCustomerId: 'shape-1', customerType: 'BUSINESS' };
    expectInvalid(await api.post('/customers', { ...base, fullName: null }), 'fullName:isNotNull');
    expectInvalid(await api.post('/customers', { ...base, address: [] }), 'address:isObject');
    expectInvalid(await api.post('/customers', { ...base, businessInfo: [] }), 'businessInfo:isObject');
    expectInvalid(
      await api.post('/customers', { ...base, businessInfo: [{ legalName: 'Acme' }] }),
      'businessInfo:isObject',
    );
    expectInvalid(await api.post('/customers', { ...base, address: { city: null } }), 'address.city:isNotNull');
    expectInvalid(await api.patch(`/customers/${h.customerId}`, { address: [] }), 'address:isObject');
    // an agent's policy as an array was created (201) with a policy no reader understood
    const agent = { name: 'shape', customerId: h.customerId };
    expectInvalid(await api.post('/agents', { ...agent, policy: [] }), 'policy:isObject');
    const limits = { permissions: [], defaultExecutionMode: 'AUTO', spendingLimits: [] };
    expectInvalid(await api.post('/agents', { ...agent, policy: limits }), 'policy.spendingLimits:isObject');
    const source = { accountId: h.usd };
    expectInvalid(
      await api.post('/transfer-out', { source: [source], destination: { accountId: h.usd }, amount: 1 }),
      'source:isObject',
    );
    // a field that is only read for one credential type is still validated when present
    const credential = { type: 'EMAIL_OTP', accountId: h.wallet.accountId, attestation: [] };
    expectInvalid(await api.post('/auth/credentials', credential), 'attestation:isObject');
    expect(await snapshot(t, api, t.service.sandbox!.platformId)).toEqual(before);
  });

  it('refuses __proto__, constructor and prototype keys anywhere in a body', async () => {
    const before = await snapshot(t, api, t.service.sandbox!.platformId);
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      // raw text: JSON.stringify of an object literal would drop a __proto__ key
      const top = `{"platformCustomerId":"proto-1","customerType":"INDIVIDUAL","${key}":{"isAdmin":true}}`;
      expectInvalid(await api.request('POST', '/customers', top), `${key}:forbiddenKey`);
      const nested = `{"platformCustomerId":"proto-1","customerType":"INDIVIDUAL","address":{"${key}":{"city":"x"}}}`;
      expectInvalid(await api.request('POST', '/customers', nested), `address.${key}:forbiddenKey`);
      const inArray = `{"customerId":"${h.customerId}","form":"VIRTUAL","fundingSources":[{"${key}":1}]}`;
      expectInvalid(await api.request('POST', '/cards', inArray), `fundingSources.0.${key}:forbiddenKey`);
    }
    expect(await snapshot(t, api, t.service.sandbox!.platformId)).toEqual(before);
  });

  it('refuses NUL characters in strings and field names', async () => {
    const before = await snapshot(t, api, t.service.sandbox!.platformId);
    const base = { platformCustomerId: 'nul-1', customerType: 'INDIVIDUAL' };
    expectInvalid(
      await api.post('/customers', { ...base, platformCustomerId: 'nul\u0000-1' }),
      'platformCustomerId:noNulCharacter',
    );
    expectInvalid(
      await api.post('/customers', { ...base, address: { line1: 'Main St\u0000' } }),
      'address.line1:noNulCharacter',
    );
    expectInvalid(
      await api.post('/customers', { ...base, currencies: ['USD', '\u0000'] }),
      'currencies.1:noNulCharacter',
    );
    expectInvalid(await api.post('/customers', { ...base, 'full\u0000Name': 'x' }), 'full\u0000Name:noNulCharacter');
    expect(await snapshot(t, api, t.service.sandbox!.platformId)).toEqual(before);
  });

  it('refuses lone surrogates in any string or key (was 500: the email validator threw URIError)', async () => {
    const before = await snapshot(t, api, t.service.sandbox!.platformId);
    const base = { platformCustomerId: 'surrogate-1', customerType: 'INDIVIDUAL' };
    // JSON.stringify writes a lone surrogate as the escape \ud800, as an attacker's client would.
    for (const email of ['\ud800', 'ada\udc00@example.com', '\ude00\ud83d@example.com']) {
      expectInvalid(await api.post('/customers', { ...base, email }), 'email:wellFormedUnicode');
      expectInvalid(await api.patch(`/customers/${h.customerId}`, { email }), 'email:wellFormedUnicode');
    }
    expectInvalid(
      await api.request('POST', '/customers', '{"platformCustomerId":"s","customerType":"INDIVIDUAL","\\ud800":1}'),
      'body:wellFormedUnicode',
    );
    expectInvalid(
      await api.post('/customers', { ...base, address: { line1: 'Main St \udbff' } }),
      'address.line1:wellFormedUnicode',
    );
    expectInvalid(await api.post('/tokens', { name: 'x\ud800' }), 'name:wellFormedUnicode');
    // a query or a path cannot carry one: percent-encoded surrogates are not UTF-8 (CESU-8 bytes); a query's match
    // nothing, a path's is refused (it was Fastify's own 400 body, not the error shape)
    const list = await api.get('/customers?platformCustomerId=%ED%A0%80');
    expect({ status: list.status, data: list.body.data }).toEqual({ status: 200, data: [] });
    const one = await api.get('/customers/Customer%3A%ED%A0%80');
    expect({ status: one.status, code: one.body.code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
    expect(await snapshot(t, api, t.service.sandbox!.platformId)).toEqual(before);
    // a surrogate pair (any character outside the first plane) is well-formed
    const paired = await api.post('/tokens', { name: 'ci \ud83d\ude00' });
    expect({ status: paired.status, name: paired.body.name }).toEqual({ status: 201, name: 'ci \u{1F600}' });
  });

  it('refuses a key given twice in one object, at any depth (was: the last one won)', async () => {
    const before = await snapshot(t, api, t.service.sandbox!.platformId);
    const balance = async () => (await api.get(`/internal-accounts/${h.usd}`)).body.balance.amount;
    const start = await balance();
    const fund = (body: string) => api.request('POST', `/sandbox/internal-accounts/${h.usd}/fund`, body);
    expectInvalid(await fund('{"amount":1,"amount":100000}'), 'amount:noDuplicateKey');
    // the same key spelled with an escape is the same key
    expectInvalid(await fund('{"amount":1,"\\u0061mount":100000}'), 'amount:noDuplicateKey');
    expectInvalid(
      await api.request(
        'POST',
        '/customers',
        '{"platformCustomerId":"dup-1","customerType":"INDIVIDUAL","address":{"city":"a","line1":"b","city":"c"}}',
      ),
      'address.city:noDuplicateKey',
    );
    expectInvalid(
      await api.request(
        'POST',
        '/cards',
        `{"customerId":"${h.customerId}","form":"VIRTUAL","fundingSources":[{"accountId":"x"},{"a":1,"a":2}]}`,
      ),
      'fundingSources.1.a:noDuplicateKey',
    );
    expect(await balance()).toBe(start);
    expect(await snapshot(t, api, t.service.sandbox!.platformId)).toEqual(before);
    // the same key in sibling objects is no repetition
    const ok = await fund('{"amount":1}');
    expect({ status: ok.status, balance: await balance() }).toEqual({ status: 200, balance: start + 1 });
  });

  it('refuses a body that is not a JSON object, and JSON in another charset than UTF-8', async () => {
    const before = await snapshot(t, api, t.service.sandbox!.platformId);
    for (const body of ['null', '[]', '"text"', '5', 'true'])
      expectInvalid(await api.request('POST', '/tokens', body), 'body:isObject');
    const utf16 = await api.request('POST', '/tokens', '{"name":"x"}', {
      'content-type': 'application/json; charset=utf-16',
    });
    expect({ status: utf16.status, body: utf16.body }).toEqual({
      status: 415,
      body: { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: expect.any(String) },
    });
    expect(await snapshot(t, api, t.service.sandbox!.platformId)).toEqual(before);
  });

  it(
    'still accepts what is valid: null where a field means something by null, bodies without a ' + 'JSON content type',
    async () => {
      const config = await api.patch('/config', { webhookEndpoint: null });
      expect(config.status).toBe(200);
      const token = await api.post('/tokens', { name: 'ci [x] {y}' });
      expect(token.status).toBe(201);
      const execute = await api.request(
        'POST',
        `/transactions/Transaction:00000000-0000-4000-8000-000000000000/approve`,
      );
      expect(execute.status).toBe(404);
    },
  );
});
