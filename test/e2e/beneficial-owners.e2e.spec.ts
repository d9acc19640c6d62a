import { describe, expect, it } from '@jest/globals';
import { CommandRunner } from '#application/command-runner.js';
import { beneficialOwnerDecider, type PersonalInfo } from '#domain/beneficial-owners/beneficial-owner.js';
import { ManualClock } from '#domain/clock.js';
import { streams } from '#domain/primitives.js';
import { useTestService } from '../support/fixture.js';
import { uniqueValue } from '../support/sequence.js';
import { type ReceivedRequest } from '../support/webhook-receiver.js';
import { testPerson } from '#domain/testing/fixtures.js';
import { steppedRequests } from '../support/stepped-requests.js';

const START = Date.UTC(2026, 4, 4, 9);
const ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };
const enc = encodeURIComponent;

const personalInfo = (lastName: string, extra: Record<string, unknown> = {}) => ({ ...testPerson(lastName), ...extra });
const ownerOf = (customerId: string, lastName: string, extra: Record<string, unknown> = {}) => ({
  customerId,
  roles: ['UBO', 'DIRECTOR'],
  ownershipPercentage: 40,
  personalInfo: personalInfo(lastName),
  ...extra,
});

describe('beneficial owners over HTTP', () => {
  const clock = new ManualClock(START);

  const t = useTestService({ clock, webhooks: 'ok' });
  const api = t.api;

  const step = steppedRequests(clock);
  const customer = (body: Record<string, unknown>, client = api) =>
    step(201, () => client.post('/customers', { platformCustomerId: uniqueValue('bo'), address: ADDRESS, ...body }));
  const business = (registrationNumber = 'REG-123', client = api) =>
    customer({ customerType: 'BUSINESS', businessInfo: { legalName: 'Acme Ltd', registrationNumber } }, client);
  const addOwner = (body: Record<string, unknown>, client = api) =>
    step(201, () => client.post('/beneficial-owners', body));
  const patchOwner = (id: string, body: Record<string, unknown>) =>
    step(200, () => api.patch(`/beneficial-owners/${id}`, body));
  const kybStatus = async (customerId: string) => (await api.get(`/customers/${customerId}`)).body.kybStatus;
  const kybHooks = (customerId: string) => (requests: ReceivedRequest[]) =>
    requests.filter((r) => r.json?.type.startsWith('CUSTOMER.') && r.json.data.id === customerId);

  it('creates, reads and updates an owner in the public API’s shape', async () => {
    const b = await business();
    const created = await addOwner(
      ownerOf(b.id, 'Smith', {
        personalInfo: personalInfo('Smith', {
          middleName: 'Marie',
          email: 'jane@acme.test',
          phoneNumber: '+14155550192',
        }),
      }),
    );
    expect(created).toEqual({
      id: expect.stringMatching(/^BeneficialOwner:[0-9a-f-]{36}$/),
      customerId: b.id,
      roles: ['UBO', 'DIRECTOR'],
      ownershipPercentage: 40,
      personalInfo: personalInfo('Smith', {
        middleName: 'Marie',
        email: 'jane@acme.test',
        phoneNumber: '+14155550192',
      }),
      kycStatus: 'APPROVED',
      createdAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
    });
    expect((await api.get(`/beneficial-owners/${created.id}`)).body).toEqual(created);

    const updated = await patchOwner(created.id, {
      roles: ['CONTROL_PERSON'],
      ownershipPercentage: 10,
      personalInfo: { firstName: 'Janet', address: { line1: '9 Elm St', postalCode: '10001', country: 'US' } },
    });
    expect(updated).toEqual({
      ...created,
      roles: ['CONTROL_PERSON'],
      ownershipPercentage: 10,
      personalInfo: {
        ...created.personalInfo,
        firstName: 'Janet',
        address: { line1: '9 Elm St', postalCode: '10001', country: 'US' },
      },
      updatedAt: clock.now().toISOString(),
    });
    expect((await api.get(`/beneficial-owners/${created.id}`)).body).toEqual(updated);
    // An empty or same-valued update changes nothing.
    clock.advance(1000);
    expect((await api.patch(`/beneficial-owners/${created.id}`, {})).body).toEqual(updated);
    expect((await api.patch(`/beneficial-owners/${created.id}`, { ownershipPercentage: 10 })).body).toEqual(updated);
    const events = await t.service.infra.eventStore.readStream(streams.beneficialOwner(created.id));
    expect(events.map((e) => e.type)).toEqual(['BeneficialOwnerCreated', 'BeneficialOwnerUpdated']);
  });

  it('lists a business’s owners newest first, a page at a time, with totalCount', async () => {
    const b = await business();
    const other = await business();
    const ids: string[] = [];
    for (const name of ['Ames', 'Baker', 'Cole']) ids.push((await addOwner(ownerOf(b.id, name))).id);
    await addOwner(ownerOf(other.id, 'Dunn'));

    const first = await api.get(`/beneficial-owners?customerId=${enc(b.id)}&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 3, nextCursor: expect.any(String) });
    expect(first.body.data.map((o: any) => o.id)).toEqual([ids[2], ids[1]]);
    const second = await api.get(`/beneficial-owners?customerId=${enc(b.id)}&limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ data: [expect.objectContaining({ id: ids[0] })], hasMore: false, totalCount: 3 });
    const all = await api.get(`/beneficial-owners?customerId=${enc(b.id)}`);
    expect(all.body.data.every((o: any) => o.customerId === b.id && !('platformId' in o))).toBe(true);
  });

  it('refuses bad input with 400 and individuals with INVALID_INPUT on customerId', async () => {
    const b = await business();
    const bad: Record<string, unknown>[] = [
      {},
      { ...ownerOf(b.id, 'Smith'), customerId: 'not-a-customer' },
      { ...ownerOf(b.id, 'Smith'), roles: ['OWNER'] },
      { ...ownerOf(b.id, 'Smith'), roles: 'UBO' },
      { ...ownerOf(b.id, 'Smith'), ownershipPercentage: 101 },
      { ...ownerOf(b.id, 'Smith'), ownershipPercentage: 12.5 },
      { ...ownerOf(b.id, 'Smith'), personalInfo: undefined },
      { ...ownerOf(b.id, 'Smith'), personalInfo: personalInfo('') },
      { ...ownerOf(b.id, 'Smith'), personalInfo: personalInfo('Smith', { birthDate: '15/06/1978' }) },
      { ...ownerOf(b.id, 'Smith'), personalInfo: personalInfo('Smith', { idType: 'PASSPORT' }) },
      { ...ownerOf(b.id, 'Smith'), personalInfo: personalInfo('Smith', { phoneNumber: '4155550192' }) },
      { ...ownerOf(b.id, 'Smith'), personalInfo: personalInfo('Smith', { address: { line1: 'x' } }) },
      { ...ownerOf(b.id, 'Smith'), personalInfo: personalInfo('Smith', { nickname: 'JJ' }) },
      { ...ownerOf(b.id, 'Smith'), extra: true },
    ];
    for (const body of bad) {
      const res = await api.post('/beneficial-owners', body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status: 400, code: 'INVALID_INPUT' });
      expect(res.body.details.errors.length).toBeGreaterThan(0);
    }
    const person = await customer({ customerType: 'INDIVIDUAL', fullName: 'Pat Smith' });
    const individual = await api.post('/beneficial-owners', ownerOf(person.id, 'Smith'));
    expect(individual.status).toBe(400);
    expect(individual.body).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('BUSINESS'),
      details: { errors: [{ field: 'customerId', constraint: 'isBusinessCustomer' }] },
    });
    expect((await api.get(`/beneficial-owners?customerId=${enc(person.id)}`)).status).toBe(400);
    expect((await api.get('/beneficial-owners')).status).toBe(400);
    expect((await api.get(`/beneficial-owners?customerId=${enc(b.id)}&limit=0`)).status).toBe(400);
    expect((await api.get('/beneficial-owners/not-an-id')).status).toBe(400);

    const owner = await addOwner(ownerOf(b.id, 'Smith'));
    for (const body of [
      { roles: ['NOBODY'] },
      { ownershipPercentage: -1 },
      { personalInfo: { lastName: '' } },
      { personalInfo: { address: { city: 'Nowhere' } } },
      { personalInfo: 'Smith' },
      { kycStatus: 'APPROVED' },
    ]) {
      const res = await api.patch(`/beneficial-owners/${owner.id}`, body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    expect((await api.get(`/beneficial-owners/${owner.id}`)).body).toEqual(owner);
  });

  it('answers 404 for unknown, deleted and other platforms’ customers and owners', async () => {
    const b = await business();
    const owner = await addOwner(ownerOf(b.id, 'Smith'));
    const other = await t.otherPlatform();
    const unknownCustomer = 'Customer:00000000-0000-4000-8000-0000000fffff';
    const unknownOwner = 'BeneficialOwner:00000000-0000-4000-8000-0000000fffff';

    for (const client of [api, other.api]) {
      const res = await client.post('/beneficial-owners', ownerOf(client === api ? unknownCustomer : b.id, 'Smith'));
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('CUSTOMER_NOT_FOUND');
    }
    const foreignList = await other.api.get(`/beneficial-owners?customerId=${enc(b.id)}`);
    expect(foreignList.status).toBe(404);
    expect(foreignList.body.code).toBe('CUSTOMER_NOT_FOUND');
    for (const [client, id] of [
      [other.api, owner.id],
      [api, unknownOwner],
    ] as const) {
      const got = await client.get(`/beneficial-owners/${id}`);
      expect([got.status, got.body.code]).toEqual([404, 'BENEFICIAL_OWNER_NOT_FOUND']);
      const patched = await client.patch(`/beneficial-owners/${id}`, { personalInfo: { lastName: 'Other' } });
      expect([patched.status, patched.body.code]).toEqual([404, 'BENEFICIAL_OWNER_NOT_FOUND']);
    }
    expect((await api.get(`/beneficial-owners/${owner.id}`)).body).toEqual(owner);

    const gone = await business();
    expect((await api.delete(`/customers/${gone.id}`)).status).toBe(200);
    expect((await api.post('/beneficial-owners', ownerOf(gone.id, 'Smith'))).status).toBe(404);
  });

  it('keeps a business with an owner whose last name ends in 002 from approval until the owner is fixed', async () => {
    const b = await business('REG-777');
    expect(b.kybStatus).toBe('APPROVED');
    const approved = await addOwner(ownerOf(b.id, 'Smith'));
    expect(approved.kycStatus).toBe('APPROVED');
    expect(await kybStatus(b.id)).toBe('APPROVED');

    const rejected = await addOwner(ownerOf(b.id, 'Doe002', { roles: ['DIRECTOR'], ownershipPercentage: 30 }));
    expect(rejected.kycStatus).toBe('REJECTED');
    const rejectedAt = clock.now().toISOString();
    expect(await kybStatus(b.id)).toBe('REJECTED');
    await t.receiver.waitFor((r) => kybHooks(b.id)(r).length >= 1, 10_000, 'CUSTOMER.KYB_REJECTED');

    // A verification of the business names the owner that blocks it.
    clock.advance(1000);
    const blocked = await api.post('/verifications', { customerId: b.id });
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({
      verificationStatus: 'REJECTED',
      errors: [{ resourceId: rejected.id, type: 'APPLICANT_REJECTED', reason: expect.any(String) }],
    });

    const fixed = await patchOwner(rejected.id, { personalInfo: { lastName: 'Doe' } });
    expect(fixed).toMatchObject({ kycStatus: 'APPROVED', personalInfo: { lastName: 'Doe', firstName: 'Jane' } });
    const approvedAt = clock.now().toISOString();
    const after = (await api.get(`/customers/${b.id}`)).body;
    expect(after).toMatchObject({ kybStatus: 'APPROVED', updatedAt: approvedAt });
    expect(after.kycStatus).toBeUndefined();
    await t.receiver.waitFor((r) => kybHooks(b.id)(r).length >= 2, 10_000, 'CUSTOMER.KYB_APPROVED');

    const hooks = kybHooks(b.id)(t.receiver.requests);
    expect(hooks.map((h) => [h.json!.type, h.json!.timestamp, h.json!.data.kybStatus])).toEqual([
      ['CUSTOMER.KYB_REJECTED', rejectedAt, 'REJECTED'],
      ['CUSTOMER.KYB_APPROVED', approvedAt, 'APPROVED'],
    ]);
    for (const hook of hooks) {
      expect(hook).toMatchObject({ ecdsaValid: true, standardValid: true });
      expect(hook.json!.data).toMatchObject({
        id: b.id,
        customerType: 'BUSINESS',
        platformCustomerId: b.platformCustomerId,
      });
      expect(hook.json!.data).not.toHaveProperty('kycStatus');
    }
    clock.advance(1000);
    const clear = await api.post('/verifications', { customerId: b.id });
    expect(clear.body).toMatchObject({ verificationStatus: 'APPROVED', errors: [] });
    // The owners' outcomes are part of the business's own history.
    const events = await t.service.infra.eventStore.readStream(streams.customer(b.id));
    expect(events.filter((e) => e.type === 'BeneficialOwnerKycRecorded').map((e) => e.data.kycStatus)).toEqual([
      'APPROVED',
      'REJECTED',
      'APPROVED',
    ]);
  });

  it('holds a business PENDING while an owner’s KYC is pending (001), and sends each change', async () => {
    const b = await business();
    const owner = await addOwner(ownerOf(b.id, 'Lee001'));
    expect(owner.kycStatus).toBe('PENDING');
    expect(await kybStatus(b.id)).toBe('PENDING');
    clock.advance(1000);
    const pending = await api.post('/verifications', { customerId: b.id });
    // A pending owner keeps the business IN_PROGRESS, which lists no errors.
    expect(pending.body).toMatchObject({ verificationStatus: 'IN_PROGRESS', errors: [] });
    // Roles alone do not check the owner again; a new last name does.
    expect((await patchOwner(owner.id, { roles: ['TRUSTEE'] })).kycStatus).toBe('PENDING');
    expect((await patchOwner(owner.id, { personalInfo: { lastName: 'Lee' } })).kycStatus).toBe('APPROVED');
    expect(await kybStatus(b.id)).toBe('APPROVED');
    await t.receiver.waitFor((r) => kybHooks(b.id)(r).length >= 2, 10_000, 'two KYB webhooks');
    expect(kybHooks(b.id)(t.receiver.requests).map((h) => h.json!.type)).toEqual([
      'CUSTOMER.KYB_PENDING',
      'CUSTOMER.KYB_APPROVED',
    ]);
  });

  it('records an owner the business missed (a crash between the two writes) at its next verification', async () => {
    const b = await business();
    // The owner's stream is written, the business's is not: what a crash between the two leaves.
    const id = 'BeneficialOwner:00000000-0000-4000-8000-00000000c0de';
    clock.advance(1000);
    await t.service.app.get(CommandRunner).run(
      streams.beneficialOwner(id),
      beneficialOwnerDecider,
      {
        type: 'CreateBeneficialOwner',
        id,
        platformId: t.service.sandbox!.platformId,
        customerId: b.id,
        roles: ['UBO'],
        ownershipPercentage: 80,
        personalInfo: personalInfo('Crash002') as PersonalInfo,
        sandbox: true,
        now: clock.now().toISOString(),
      },
      { metadata: { platformId: t.service.sandbox!.platformId, actor: 'test' } },
    );
    expect((await api.get(`/beneficial-owners/${id}`)).body.kycStatus).toBe('REJECTED');
    expect(await kybStatus(b.id)).toBe('APPROVED');
    clock.advance(1000);
    const verification = await api.post('/verifications', { customerId: b.id });
    expect(verification.body).toMatchObject({
      verificationStatus: 'REJECTED',
      errors: [{ resourceId: id, type: 'APPLICANT_REJECTED' }],
    });
    expect(await kybStatus(b.id)).toBe('REJECTED');
  });

  it('leaves owners PENDING on production platforms, which have no KYC provider here', async () => {
    const production = await t.otherPlatform({ sandbox: false });
    const b = await business('REG-777', production.api);
    expect(b.kybStatus).toBe('PENDING');
    const owner = await addOwner(ownerOf(b.id, 'Smith'), production.api);
    expect(owner.kycStatus).toBe('PENDING');
    const listed = await production.api.get(`/beneficial-owners?customerId=${enc(b.id)}`);
    expect(listed.body).toMatchObject({ totalCount: 1, data: [{ id: owner.id, kycStatus: 'PENDING' }] });
  });
});
