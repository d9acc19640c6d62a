import { describe, expect, it } from '@jest/globals';
import { ManualClock } from '#domain/clock.js';
import { individualDocumentErrors } from '#domain/testing/verification-errors.js';
import { VERIFICATION_STATUSES } from '#domain/verifications/verification.js';
import { useTestService } from '../support/fixture.js';
import { form, pdfPart } from './documents-support.js';
import { steppedRequests } from '../support/stepped-requests.js';

const START = Date.UTC(2026, 3, 7, 9);
const ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

/** Verifications, their webhooks and INTERNAL_ACCOUNT.STATUS_UPDATED, shaped as the public API's. */
describe('verifications and account status webhooks as the public API has them', () => {
  const clock = new ManualClock(START);

  const t = useTestService({ clock, webhooks: 'ok' });
  const api = t.api;

  let n = 0;
  const step = steppedRequests(clock);
  const customer = (body: Record<string, unknown>) =>
    step(201, () => api.post('/customers', { platformCustomerId: `vu-${++n}`, ...body }));
  const person = (fullName: string) =>
    customer({ customerType: 'INDIVIDUAL', fullName, birthDate: '1990-01-31', address: ADDRESS });
  const verify = async (customerId: string) => {
    const verification = await step(200, () => api.post('/verifications', { customerId }));
    expect(VERIFICATION_STATUSES).toContain(verification.verificationStatus);
    return verification;
  };
  const document = async (holder: string, documentType: string) => {
    const res = await api.request(
      'POST',
      '/documents',
      form({ documentHolder: holder, documentType, country: 'US' }, pdfPart()),
    );
    expect(res.status).toBe(201);
  };
  const hooksFor = (id: string, prefix: string) =>
    t.receiver.requests.filter((r) => r.json?.data?.id === id && r.json.type.startsWith(prefix)).map((r) => r.json!);

  it('POST /verifications answers 200 and sends VERIFICATION.<status> with the Verification', async () => {
    const c = await person('Ann Lee');
    const v = await verify(c.id);
    expect(v).toEqual({
      id: expect.stringMatching(/^Verification:/),
      customerId: c.id,
      verificationStatus: 'APPROVED',
      errors: [],
      createdAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
    });
    const pending = await verify((await person('Bo Lee001')).id);
    expect(pending.verificationStatus).toBe('IN_PROGRESS');
    await t.receiver.waitFor((r) => r.some((x) => x.json?.data?.id === pending.id), 10_000, 'VERIFICATION.IN_PROGRESS');
    expect(hooksFor(v.id, 'VERIFICATION.')).toEqual([
      { id: expect.stringMatching(/^Webhook:/), type: 'VERIFICATION.APPROVED', timestamp: v.updatedAt, data: v },
    ]);
    expect(hooksFor(pending.id, 'VERIFICATION.').map((h) => h.type)).toEqual(['VERIFICATION.IN_PROGRESS']);
  });

  it('lists missing fields as {resourceId, type, reason, field} and filters by ?verificationStatus', async () => {
    const bare = await customer({ customerType: 'INDIVIDUAL', fullName: 'Cy Park' });
    const v = await verify(bare.id);
    expect(v.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(v.errors).toEqual([
      { resourceId: bare.id, type: 'MISSING_FIELD', field: 'birthDate', reason: expect.any(String) },
      { resourceId: bare.id, type: 'MISSING_FIELD', field: 'address', reason: expect.any(String) },
    ]);
    const list = await api.get(`/verifications?verificationStatus=RESOLVE_ERRORS&limit=100`);
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBeGreaterThan(0);
    expect(list.body.data.every((x: any) => x.verificationStatus === 'RESOLVE_ERRORS')).toBe(true);
    expect(list.body.data.map((x: any) => x.id)).toContain(v.id);
    const both = await api.get(`/verifications?verificationStatus=APPROVED&customerId=${encodeURIComponent(bare.id)}`);
    expect(both.body).toEqual({ data: [], hasMore: false, totalCount: 0 });
    const bad = await api.get('/verifications?verificationStatus=PENDING');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_INPUT');
    await t.receiver.waitFor((r) => r.some((x) => x.json?.data?.id === v.id), 10_000, 'VERIFICATION.RESOLVE_ERRORS');
  });

  it('sandbox 003: an individual needs an identity document and a proof of address', async () => {
    const c = await person('Di Moss003');
    const first = await verify(c.id);
    expect(first.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(first.errors).toEqual(individualDocumentErrors(c.id));
    await document(c.id, 'DRIVERS_LICENSE');
    expect((await verify(c.id)).errors.map((e: any) => e.type)).toEqual(['MISSING_PROOF_OF_ADDRESS_DOCUMENT']);
    await document(c.id, 'UTILITY_BILL');
    expect(await verify(c.id)).toMatchObject({ verificationStatus: 'APPROVED', errors: [] });
  });

  it('sandbox 003: a business needs its structure documents and a beneficial owner', async () => {
    const b = await customer({
      customerType: 'BUSINESS',
      businessInfo: { legalName: 'Acme Ltd', registrationNumber: 'REG-003' },
      address: ADDRESS,
    });
    const first = await verify(b.id);
    expect(first.verificationStatus).toBe('RESOLVE_ERRORS');
    expect(first.errors.map((e: any) => [e.type, e.resourceId])).toEqual([
      ['MISSING_LEGAL_PRESENCE_DOCUMENT', b.id],
      ['MISSING_CONTROL_STRUCTURE_DOCUMENT', b.id],
      ['MISSING_OWNERSHIP_STRUCTURE_DOCUMENT', b.id],
      ['MISSING_BENEFICIAL_OWNER', b.id],
    ]);
    expect(first.errors[3].acceptedDocumentTypes).toBeUndefined();
    await document(b.id, 'CERTIFICATE_OF_INCORPORATION');
    await document(b.id, 'TRUST_AGREEMENT');
    clock.advance(1000);
    const owner = await api.post('/beneficial-owners', {
      customerId: b.id,
      roles: ['UBO'],
      ownershipPercentage: 60,
      personalInfo: {
        firstName: 'Jane',
        lastName: 'Roe',
        birthDate: '1978-06-15',
        nationality: 'US',
        address: { line1: '1 Main St', postalCode: '94105', country: 'US' },
        idType: 'SSN',
        identifier: '123-45-6789',
      },
    });
    expect(owner.status).toBe(201);
    expect(await verify(b.id)).toMatchObject({ verificationStatus: 'APPROVED', errors: [] });
  });

  it('sends INTERNAL_ACCOUNT.STATUS_UPDATED when accounts activate and when DELETE closes them', async () => {
    const c = await customer({
      customerType: 'INDIVIDUAL',
      fullName: 'Ed Wu001',
      birthDate: '1990-01-31',
      address: ADDRESS,
      currencies: ['USD'],
    });
    const accountId = (await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(c.id)}`)).body
      .data[0].id;
    await api.patch(`/customers/${c.id}`, { fullName: 'Ed Wu' });
    expect((await verify(c.id)).verificationStatus).toBe('APPROVED');
    clock.advance(1000);
    expect((await api.delete(`/customers/${c.id}`)).status).toBeLessThan(300);
    await t.receiver.waitFor(
      (r) =>
        r.filter((x) => x.json?.type === 'INTERNAL_ACCOUNT.STATUS_UPDATED' && x.json.data.id === accountId).length >= 2,
      10_000,
      'two STATUS_UPDATED',
    );
    const hooks = hooksFor(accountId, 'INTERNAL_ACCOUNT.STATUS_UPDATED');
    expect(hooks.map((h) => h.data.status).sort()).toEqual(['ACTIVE', 'CLOSED']);
    for (const hook of hooks)
      expect(hook.data).toMatchObject({
        id: accountId,
        customerId: c.id,
        type: expect.any(String),
        balance: { amount: 0, currency: { code: 'USD' } },
      });
  });
});
