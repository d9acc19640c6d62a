import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { streams } from '#domain/primitives.js';
import { useTestService } from '../support/fixture.js';
import { expectInvalidInputs, type InvalidCase } from '../support/invalid-input.js';
import { form, pdfPart } from './documents-support.js';
import { steppedRequests } from '../support/stepped-requests.js';

const START = Date.UTC(2026, 2, 3, 10);
const ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };
const person = (platformCustomerId: string, fullName: string, extra: Record<string, unknown> = {}) => ({
  platformCustomerId,
  customerType: 'INDIVIDUAL',
  fullName,
  birthDate: '1990-01-31',
  address: ADDRESS,
  ...extra,
});
const business = (platformCustomerId: string, registrationNumber: string, extra: Record<string, unknown> = {}) => ({
  platformCustomerId,
  customerType: 'BUSINESS',
  businessInfo: { legalName: 'Acme Ltd', registrationNumber },
  address: ADDRESS,
  ...extra,
});

describe('verifications over HTTP', () => {
  const clock = new ManualClock(START);

  const t = useTestService({ clock });
  const api = t.api;

  const customer = async (body: Record<string, unknown>, client = api) => {
    const res = await client.post('/customers', body);
    expect(res.status).toBe(201);
    return res.body;
  };
  const step = steppedRequests(clock);
  const verify = (customerId: string, client = api) => step(200, () => client.post('/verifications', { customerId }));
  const accounts = async (customerId: string) =>
    (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`)).body.data;

  it('approves a pending individual: the customer becomes APPROVED and its PENDING accounts ACTIVE', async () => {
    const c = await customer(person('pending-1', 'Pat Smith001', { currencies: ['USD', 'EUR'] }));
    expect(c.kycStatus).toBe('PENDING');
    expect((await accounts(c.id)).map((a: any) => a.status)).toEqual(['PENDING', 'PENDING']);

    const stillPending = await verify(c.id);
    expect(stillPending).toEqual({
      id: expect.stringMatching(/^Verification:[0-9a-f-]{36}$/),
      customerId: c.id,
      verificationStatus: 'IN_PROGRESS',
      errors: [],
      createdAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
    });
    expect((await api.get(`/customers/${c.id}`)).body.kycStatus).toBe('PENDING');

    expect((await api.patch(`/customers/${c.id}`, { fullName: 'Pat Smith' })).status).toBe(200);
    const approved = await verify(c.id);
    expect(approved.verificationStatus).toBe('APPROVED');
    const after = (await api.get(`/customers/${c.id}`)).body;
    expect(after.kycStatus).toBe('APPROVED');
    expect(after.updatedAt).toBe(approved.createdAt);
    expect((await accounts(c.id)).map((a: any) => a.status)).toEqual(['ACTIVE', 'ACTIVE']);
    // The change went through the customer aggregate, in its own stream.
    const events = await t.service.infra.eventStore.readStream(streams.customer(c.id));
    expect(events.slice(-3).map((e) => e.type)).toEqual([
      'CustomerKycStatusChanged',
      'InternalAccountStatusChanged',
      'InternalAccountStatusChanged',
    ]);
    expect(events[events.length - 1].metadata).toMatchObject({
      verificationId: approved.id,
      platformId: t.service.sandbox!.platformId,
    });
    // An active account can now be funded.
    const account = (await accounts(c.id))[0];
    expect((await api.post(`/sandbox/internal-accounts/${account.id}/fund`, { amount: 100 })).status).toBe(200);
  });

  it('rejects by the last-name suffix 002 and approves by any other suffix', async () => {
    const rejected = await customer(person('rej', 'Sam Doe'));
    expect(rejected.kycStatus).toBe('APPROVED');
    await api.patch(`/customers/${rejected.id}`, { fullName: 'Sam Doe002' });
    expect((await verify(rejected.id)).verificationStatus).toBe('REJECTED');
    expect((await api.get(`/customers/${rejected.id}`)).body.kycStatus).toBe('REJECTED');
    const approved = await customer(person('app', 'Kim Lee123'));
    expect((await verify(approved.id)).verificationStatus).toBe('APPROVED');
  });

  it('verifies businesses by the registration number suffix into kybStatus', async () => {
    const cases: [string, string, string][] = [
      ['REG-001', 'PENDING', 'IN_PROGRESS'],
      ['REG-002', 'REJECTED', 'REJECTED'],
      ['REG-777', 'APPROVED', 'APPROVED'],
    ];
    for (const [registrationNumber, status, verificationStatus] of cases) {
      const b = await customer(business(`biz-${registrationNumber}`, 'REG-000'));
      expect(b.kybStatus).toBe('APPROVED');
      await api.patch(`/customers/${b.id}`, { businessInfo: { legalName: 'Acme Ltd', registrationNumber } });
      const v = await verify(b.id);
      expect({ registrationNumber, status: v.verificationStatus }).toEqual({
        registrationNumber,
        status: verificationStatus,
      });
      const after = (await api.get(`/customers/${b.id}`)).body;
      expect(after.kybStatus).toBe(status);
      expect(after.kycStatus).toBeUndefined();
    }
  });

  it('lists missing KYC/KYB fields as errors with RESOLVE_ERRORS and leaves the customer alone', async () => {
    const bare = await customer({ platformCustomerId: 'bare', customerType: 'INDIVIDUAL', fullName: 'Lee Park001' });
    const v = await verify(bare.id);
    expect(v.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(v.errors).toEqual([
      { resourceId: bare.id, type: 'MISSING_FIELD', field: 'birthDate', reason: 'birthDate is required for KYC' },
      { resourceId: bare.id, type: 'MISSING_FIELD', field: 'address', reason: 'address is required for KYC' },
    ]);
    expect((await api.get(`/customers/${bare.id}`)).body.kycStatus).toBe('PENDING');
    const noName = await customer({
      platformCustomerId: 'noname',
      customerType: 'INDIVIDUAL',
      birthDate: '1980-02-02',
      address: { line1: '2 High St', country: 'GB' },
    });
    expect((await verify(noName.id)).errors.map((e: any) => e.field)).toEqual([
      'fullName',
      'address.city',
      'address.postalCode',
    ]);
    const biz = await customer({
      platformCustomerId: 'biz-bare',
      customerType: 'BUSINESS',
      businessInfo: { registrationNumber: 'R-1' },
    });
    const bv = await verify(biz.id);
    expect(bv.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(bv.errors.map((e: any) => e.field)).toEqual(['businessInfo.legalName', 'address']);
    expect(bv.errors[0].reason).toBe('businessInfo.legalName is required for KYB');
    // Once the fields are there, the next verification decides.
    await api.patch(`/customers/${bare.id}`, { birthDate: '1985-05-05', address: ADDRESS, fullName: 'Lee Park' });
    expect((await verify(bare.id)).verificationStatus).toBe('APPROVED');
    expect((await accounts(bare.id))[0].status).toBe('ACTIVE');
  });

  it('reads and lists verifications with the customerId filter and pagination', async () => {
    const c = await customer(person('listed', 'Ana Gomez'));
    const mine = [await verify(c.id), await verify(c.id), await verify(c.id)];
    const got = await api.get(`/verifications/${mine[0].id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(mine[0]);
    const list = await api.get(`/verifications?customerId=${encodeURIComponent(c.id)}`);
    expect(list.body.totalCount).toBe(3);
    expect(list.body.data).toEqual([...mine].reverse());
    const all = await api.get('/verifications?limit=100');
    expect(all.body.totalCount).toBeGreaterThan(3);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.get(`/verifications?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.body.data.map((v: any) => v.id));
      cursor = page.body.nextCursor;
      expect(Boolean(cursor)).toBe(page.body.hasMore);
    } while (cursor);
    expect(seen).toEqual(all.body.data.map((v: any) => v.id));
  });

  it('refuses invalid input and unknown, deleted or foreign customers', async () => {
    const before = (await api.get('/verifications')).body.totalCount;
    const cases: InvalidCase[] = [
      ['missing customerId', () => api.post('/verifications', {}), 'customerId'],
      ['bad customerId', () => api.post('/verifications', { customerId: 'Customer:nope' }), 'customerId'],
      [
        'unknown field',
        () => api.post('/verifications', { customerId: 'Customer:00000000-0000-4000-8000-000000000001', level: 2 }),
        'level',
      ],
      ['bad filter', () => api.get('/verifications?customerId=x'), 'customerId'],
      ['limit 0', () => api.get('/verifications?limit=0'), 'limit'],
      ['bad cursor', () => api.get('/verifications?cursor=zzz'), 'cursor'],
      ['bad path id', () => api.get('/verifications/Customer:00000000-0000-4000-8000-000000000001'), 'verificationId'],
    ];
    await expectInvalidInputs(cases);
    const unknown = await api.post('/verifications', { customerId: 'Customer:00000000-0000-4000-8000-0000000fffff' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('CUSTOMER_NOT_FOUND');
    const gone = await customer(person('gone', 'Al Gone'));
    await api.delete(`/customers/${gone.id}`);
    expect((await api.post('/verifications', { customerId: gone.id })).status).toBe(404);
    expect((await api.get('/verifications/Verification:00000000-0000-4000-8000-0000000fffff')).body.code).toBe(
      'VERIFICATION_NOT_FOUND',
    );
    expect((await api.get('/verifications')).body.totalCount).toBe(before);
  });

  it('answers 404 to another platform and never lists its verifications', async () => {
    const c = await customer(person('private', 'Vi Private'));
    const v = await verify(c.id);
    const other = await t.otherPlatform();
    const res = await other.api.get(`/verifications/${v.id}`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('VERIFICATION_NOT_FOUND');
    expect((await other.api.post('/verifications', { customerId: c.id })).body.code).toBe('CUSTOMER_NOT_FOUND');
    expect((await other.api.get('/verifications')).body).toEqual({ data: [], hasMore: false, totalCount: 0 });
  });

  it('asks a production customer for its documents, then leaves the complete file IN_PROGRESS', async () => {
    const prod = await t.otherPlatform({ sandbox: false });
    const c = await customer(person('prod', 'Pat Prod'), prod.api);
    expect(c.kycStatus).toBe('PENDING');
    const missing = await verify(c.id, prod.api);
    expect(missing.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(missing.errors.map((e: { type: string }) => e.type)).toEqual([
      'MISSING_IDENTITY_DOCUMENT',
      'MISSING_PROOF_OF_ADDRESS_DOCUMENT',
    ]);
    for (const documentType of ['PASSPORT', 'UTILITY_BILL']) {
      const fields = { documentHolder: c.id, documentType, country: 'US' };
      expect((await prod.api.request('POST', '/documents', form(fields, pdfPart()))).status).toBe(201);
    }
    const v = await verify(c.id, prod.api);
    expect({ status: v.verificationStatus, errors: v.errors }).toEqual({ status: 'IN_PROGRESS', errors: [] });
    expect((await prod.api.get(`/customers/${c.id}`)).body.kycStatus).toBe('PENDING');
  });
});
