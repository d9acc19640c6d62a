import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { useTestService } from '../support/fixture.js';
import { pointWebhooksAt } from '../support/webhook-receiver.js';

const START = Date.UTC(2026, 2, 5, 9);

/** A business as an integrator of the public API describes it: every businessInfo field. */
const acmeInfo = {
  legalName: 'Acme Robotics LLC',
  doingBusinessAs: 'Acme',
  country: 'US',
  registrationNumber: 'RN-778899',
  incorporatedOn: '2017-09-01',
  entityType: 'LLC',
  taxId: '12-3456789',
  countriesOfOperation: ['US', 'CA'],
  businessType: 'MANUFACTURING',
  purposeOfAccount: 'SUPPLIER_PAYMENTS',
  sourceOfFunds: 'Sales of industrial robots',
  expectedMonthlyTransactionCount: 'COUNT_10_TO_100',
  expectedMonthlyTransactionVolume: 'VOLUME_10K_TO_100K',
  expectedRecipientJurisdictions: ['US', 'DE'],
};
const address = { line1: '1 Dock Road', city: 'Oakland', state: 'CA', postalCode: '94607', country: 'US' };

describe('customers shaped as the public API', () => {
  const clock = new ManualClock(START);
  const t = useTestService({ clock, receiver: 'ok' });

  it('creates an individual without platformCustomerId, with its own KYC status', async () => {
    const res = await t.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      region: 'US',
      currencies: ['USD', 'USDC'],
      fullName: 'Grace Hopper',
      birthDate: '1906-12-09',
      nationality: 'US',
      kycStatus: 'UNVERIFIED',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^Customer:/),
      customerType: 'INDIVIDUAL',
      kycStatus: 'UNVERIFIED',
      umaAddress: expect.stringMatching(/^\$/),
      currencies: ['USD', 'USDC'],
      isDeleted: false,
    });
    // The generated platformCustomerId is the customer's uuid.
    expect(res.body.platformCustomerId).toBe(res.body.id.slice('Customer:'.length));
    const accounts = await t.api.get(`/customers/internal-accounts?customerId=${res.body.id}`);
    expect(accounts.body.data.map((a: any) => a.status)).toEqual(['PENDING', 'PENDING']);
    const wrong = await t.api.post('/customers', { customerType: 'INDIVIDUAL', kybStatus: 'APPROVED' });
    expect({ status: wrong.status, code: wrong.body.code, field: wrong.body.details?.errors?.[0]?.field }).toEqual({
      status: 400,
      code: 'INVALID_INPUT',
      field: 'kybStatus',
    });
    const badStatus = await t.api.post('/customers', { customerType: 'INDIVIDUAL', kycStatus: 'VERIFIED' });
    expect(badStatus.status).toBe(400);
  });

  it('creates a business with every businessInfo field, returned everywhere, KYB webhook included', async () => {
    await pointWebhooksAt(t.api, t.receiver);
    const res = await t.api.post('/customers', {
      customerType: 'BUSINESS',
      platformCustomerId: 'biz-acme',
      region: 'US',
      currencies: ['USD'],
      businessInfo: acmeInfo,
      address,
      kybStatus: 'PENDING',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ customerType: 'BUSINESS', kybStatus: 'PENDING', businessInfo: acmeInfo, address });
    expect(res.body.kycStatus).toBeUndefined();
    expect((await t.api.get(`/customers/${res.body.id}`)).body).toEqual(res.body);

    // PATCH as the public API shapes it: customerType, partial businessInfo (the rest kept), a declared status.
    clock.advance(1000);
    const patched = await t.api.patch(`/customers/${res.body.id}`, {
      customerType: 'BUSINESS',
      currencies: ['USD', 'EUR'],
      businessInfo: { legalName: 'Acme Robotics Inc', taxId: '98-7654321' },
      kybStatus: 'APPROVED',
    });
    expect(patched.status).toBe(200);
    const info = { ...acmeInfo, legalName: 'Acme Robotics Inc', taxId: '98-7654321' };
    expect(patched.body).toMatchObject({ kybStatus: 'APPROVED', currencies: ['USD', 'EUR'], businessInfo: info });
    const accounts = await t.api.get(`/customers/internal-accounts?customerId=${res.body.id}`);
    expect(accounts.body.data.map((a: any) => a.status)).toEqual(['ACTIVE', 'ACTIVE']);

    await t.receiver.waitFor((rs) => rs.some((r) => r.json?.type === 'CUSTOMER.KYB_APPROVED'), 10_000, 'KYB webhook');
    const hook = t.receiver.requests.find((r) => r.json?.type === 'CUSTOMER.KYB_APPROVED')!;
    expect(hook.json!.data).toMatchObject({ id: res.body.id, kybStatus: 'APPROVED', businessInfo: info });
  });

  it('refuses a PATCH that would change the customer type, and bad business fields', async () => {
    const c = (await t.api.post('/customers', { customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' })).body;
    const cases: [Record<string, unknown>, string][] = [
      [{ customerType: 'BUSINESS' }, 'customerType'],
      [{ customerType: 'ROBOT' }, 'customerType'],
      [{ kybStatus: 'APPROVED' }, 'kybStatus'],
      [{ businessInfo: { entityType: 'GUILD' } }, 'businessInfo.entityType'],
      [{ businessInfo: { incorporatedOn: '2017-13-01' } }, 'businessInfo.incorporatedOn'],
      [{ businessInfo: { countriesOfOperation: ['usa'] } }, 'businessInfo.countriesOfOperation'],
    ];
    for (const [body, field] of cases) {
      const res = await t.api.patch(`/customers/${c.id}`, body);
      expect({ body, status: res.status, fields: res.body.details?.errors?.map((e: any) => e.field) }).toEqual({
        body,
        status: 400,
        fields: expect.arrayContaining([field]),
      });
    }
    const ok = await t.api.patch(`/customers/${c.id}`, {
      customerType: 'INDIVIDUAL',
      fullName: 'Augusta Ada King',
      birthDate: '1815-12-10',
      address,
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ fullName: 'Augusta Ada King', birthDate: '1815-12-10', address });
  });

  it('answers 409 with the public API’s codes to duplicates and 410 to deleting twice', async () => {
    const first = await t.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: 'dup-1',
      umaAddress: '$dup.one@sandbox.example.com',
    });
    expect(first.status).toBe(201);
    const samePlatformId = await t.api.post('/customers', { customerType: 'INDIVIDUAL', platformCustomerId: 'dup-1' });
    expect({ status: samePlatformId.status, code: samePlatformId.body.code }).toEqual({
      status: 409,
      code: 'CONFLICT',
    });
    const sameAddress = await t.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: 'dup-2',
      umaAddress: '$dup.one@sandbox.example.com',
    });
    expect({ status: sameAddress.status, code: sameAddress.body.code }).toEqual({
      status: 409,
      code: 'UMA_ADDRESS_EXISTS',
    });
    const taken = await t.api.patch(`/customers/${first.body.id}`, { platformCustomerId: 'biz-acme' });
    expect({ status: taken.status, code: taken.body.code }).toEqual({ status: 409, code: 'CONFLICT' });

    const deleted = await t.api.delete(`/customers/${first.body.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.isDeleted).toBe(true);
    const again = await t.api.delete(`/customers/${first.body.id}`);
    expect({ status: again.status, body: again.body }).toEqual({
      status: 410,
      body: expect.objectContaining({ status: 410, code: 'CUSTOMER_DELETED' }),
    });
    const missing = await t.api.delete('/customers/Customer:00000000-0000-4000-8000-000000000999');
    expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 404, code: 'CUSTOMER_NOT_FOUND' });
  });

  it('declares the PATCH body (with customerType and the business fields) in the OpenAPI document', async () => {
    const doc = (await t.api.get('/openapi.json')).body;
    const path = Object.keys(doc.paths).find((p) => p.endsWith('/customers/{customerId}'))!;
    const ref: string = doc.paths[path].patch.requestBody.content['application/json'].schema.$ref;
    const body = doc.components.schemas[ref.split('/').pop()!];
    expect(Object.keys(body.properties)).toEqual(
      expect.arrayContaining(['customerType', 'kycStatus', 'kybStatus', 'businessInfo', 'email', 'currencies']),
    );
    expect(Object.keys(doc.paths[path].delete.responses)).toContain('410');
  });
});
