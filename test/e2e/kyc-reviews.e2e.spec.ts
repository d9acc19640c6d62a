import { describe, expect, it } from '@jest/globals';
import { streams } from '#domain/primitives.js';
import { WEBHOOK_EVENT_MAP, type WebhookSourceEvent, type WebhookSources } from '#domain/webhooks/webhook-event-map.js';
import { useTestService } from '../support/fixture.js';
import { poll } from '../support/poll.js';
import type { Client } from '../support/service.js';
import {
  ADDRESS,
  businessWithOwner,
  individual,
  reviewDecisionEntry,
  submit,
  uploadDocument,
} from './kyc-review-support.js';

const enc = encodeURIComponent;
const TOKEN = expect.stringMatching(/^ApiToken:[0-9a-f-]{36}$/);
const reviewPath = (id: string, action = '') => `/verifications/reviews/${enc(id)}${action}`;

/** The KYC review queue of production platforms: an operator decides each complete verification. */
describe('KYC review in production', () => {
  const t = useTestService();

  /**
   * The webhooks the customer's stream gives its platform (production endpoints must be https, which the test
   * receiver is not; the dispatcher sends exactly what this table maps).
   */
  const hooksFor = async (api: Client, customerId: string) => {
    const events = await t.service.infra.eventStore.readStream(streams.customer(customerId));
    const sources = {
      customer: async () => (await api.get(`/customers/${customerId}`)).body,
    } as unknown as WebhookSources;
    const drafts = await Promise.all(
      events
        .filter((e) => e.type === 'CustomerKycStatusChanged')
        .map(async (e) => (await WEBHOOK_EVENT_MAP[e.type]?.webhooks(e as WebhookSourceEvent, sources)) ?? []),
    );
    return drafts.flat();
  };

  it('queues a production business, shows its owners and documents, and approves it as the sandbox would', async () => {
    const prod = await t.otherPlatform({ sandbox: false });
    const { business, owner, passport } = await businessWithOwner(prod.api);
    const verification = await submit(prod.api, business.id);

    const pending = await prod.api.get('/verifications/reviews?status=PENDING&limit=10');
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({
      totalCount: 1,
      data: [{ id: verification.id, customerId: business.id, customerType: 'BUSINESS', status: 'PENDING' }],
    });
    const detail = await prod.api.get(reviewPath(verification.id));
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      status: 'PENDING',
      customer: { id: business.id, kybStatus: 'PENDING' },
      beneficialOwners: [{ id: owner.id, kycStatus: 'PENDING', documents: [{ id: passport.id }] }],
    });
    expect(detail.body.documents).toHaveLength(3);
    const file = await prod.api.get(detail.body.beneficialOwners[0].documents[0].contentPath);
    expect(file.status).toBe(200);

    const approved = await prod.api.post(reviewPath(verification.id, '/approve'), {}, { 'Idempotency-Key': 'a-1' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: verification.id, status: 'APPROVED', decidedBy: TOKEN });
    const again = await prod.api.post(reviewPath(verification.id, '/approve'), {}, { 'Idempotency-Key': 'a-1' });
    expect(again.body).toEqual(approved.body);
    const second = await prod.api.post(reviewPath(verification.id, '/reject'), { reason: 'changed my mind' });
    expect({ status: second.status, code: second.body.code }).toEqual({
      status: 409,
      code: 'KYC_REVIEW_ALREADY_DECIDED',
    });

    expect((await prod.api.get(`/customers/${business.id}`)).body.kybStatus).toBe('APPROVED');
    expect((await prod.api.get(`/beneficial-owners/${owner.id}`)).body.kycStatus).toBe('APPROVED');
    expect((await prod.api.get(`/verifications/${verification.id}`)).body.verificationStatus).toBe('APPROVED');
    expect((await prod.api.get('/verifications/reviews?status=PENDING')).body.totalCount).toBe(0);
    expect((await hooksFor(prod.api, business.id)).at(-1)).toMatchObject({
      type: 'CUSTOMER.KYB_APPROVED',
      data: { id: business.id, kybStatus: 'APPROVED' },
    });
    expect(await reviewDecisionEntry(prod.api, business.id)).toMatchObject({
      actor: approved.body.decidedBy,
      changes: { verificationId: verification.id, decision: 'APPROVED', decidedBy: TOKEN },
    });
  });

  it('rejects with a reason (required), recorded in the audit history and the verification', async () => {
    const prod = await t.otherPlatform({ sandbox: false });
    const customer = await individual(prod.api);
    const verification = await submit(prod.api, customer.id);
    const missing = await prod.api.post(reviewPath(verification.id, '/reject'), {});
    expect(missing.status).toBe(400);
    expect(missing.body.details.errors[0]).toMatchObject({ field: 'reason' });
    const reason = 'identity document does not match the applicant';
    const key = { 'Idempotency-Key': 'reject-1' };
    const rejected = await prod.api.post(reviewPath(verification.id, '/reject'), { reason }, key);
    expect(rejected.status).toBe(200);
    expect((await prod.api.post(reviewPath(verification.id, '/reject'), { reason }, key)).body).toEqual(rejected.body);
    expect(rejected.body).toMatchObject({ status: 'REJECTED', reason, decidedBy: TOKEN });
    expect((await prod.api.get(`/customers/${customer.id}`)).body.kycStatus).toBe('REJECTED');
    expect((await prod.api.get(`/verifications/${verification.id}`)).body).toMatchObject({
      verificationStatus: 'REJECTED',
      errors: [{ resourceId: customer.id, type: 'APPLICANT_REJECTED', reason }],
    });
    const again = await prod.api.post(reviewPath(verification.id, '/approve'), {});
    expect(again.status).toBe(409);
    expect((await hooksFor(prod.api, customer.id)).at(-1)).toMatchObject({
      type: 'CUSTOMER.KYC_REJECTED',
      data: { id: customer.id, kycStatus: 'REJECTED' },
    });
    expect(await reviewDecisionEntry(prod.api, customer.id)).toMatchObject({
      actor: rejected.body.decidedBy,
      occurredAt: rejected.body.decidedAt,
      changes: { decision: 'REJECTED', reason, decidedBy: TOKEN },
    });
  });

  it('issues the cards that waited for KYC once the holder is approved', async () => {
    const prod = await t.otherPlatform({ sandbox: false });
    const customer = await individual(prod.api, 'Katherine Johnson');
    const wallet = await prod.api.post('/customers/internal-accounts', {
      customerId: customer.id,
      type: 'EMBEDDED_WALLET',
      currency: 'USD',
    });
    expect({ status: wallet.status, body: wallet.body }).toMatchObject({ status: 201 });
    const accounts = await prod.api.get(`/customers/internal-accounts?customerId=${enc(customer.id)}`);
    const card = await prod.api.post('/cards', {
      customerId: customer.id,
      form: 'VIRTUAL',
      fundingSources: [accounts.body.data[0].id],
    });
    expect({ status: card.status, body: card.body }).toMatchObject({
      status: 201,
      body: { state: 'PENDING_KYC' },
    });
    const verification = await submit(prod.api, customer.id);
    expect((await prod.api.post(reviewPath(verification.id, '/approve'), { reason: 'documents match' })).status).toBe(
      200,
    );
    const issued = await poll(
      async () => (await prod.api.get(`/cards/${card.body.id}`)).body,
      (c: any) => c.state !== 'PENDING_KYC',
      { what: 'the card leaving PENDING_KYC' },
    );
    expect(issued.state).toMatch(/^(PENDING_ISSUE|ACTIVE)$/);
  });

  it('queues what the hosted KYC link submitted', async () => {
    const prod = await t.otherPlatform({ sandbox: false });
    const c = (await prod.api.post('/customers', { platformCustomerId: 'link-1', customerType: 'INDIVIDUAL' })).body;
    await uploadDocument(prod.api, c.id, 'PASSPORT');
    await uploadDocument(prod.api, c.id, 'UTILITY_BILL');
    const { kycUrl } = (await prod.api.post(`/customers/${c.id}/kyc-link`, {})).body;
    const path = new URL(kycUrl).pathname.replace(/^\/2025-10-13/, '');
    const submitted = await t.anonymous.post(path, {
      fullName: 'Mary Jackson',
      birthDate: '1991-04-09',
      address: ADDRESS,
    });
    expect(submitted.status).toBe(200);
    const queue = (await prod.api.get('/verifications/reviews?status=PENDING')).body.data;
    expect(queue).toEqual([expect.objectContaining({ customerId: c.id, status: 'PENDING' })]);
    const review = (await prod.api.get(reviewPath(queue[0].id))).body;
    expect(review.customer).toMatchObject({ fullName: 'Mary Jackson', birthDate: '1991-04-09', address: ADDRESS });
    expect(review.documents.map((d: any) => d.documentType).sort()).toEqual(['PASSPORT', 'UTILITY_BILL']);
  });

  it('hides another platform’s review (404) and keeps sandbox verifications out of the queue', async () => {
    const prod = await t.otherPlatform({ sandbox: false });
    const other = await t.otherPlatform({ sandbox: false });
    const customer = await individual(prod.api);
    const verification = await submit(prod.api, customer.id);
    expect((await other.api.get(reviewPath(verification.id))).status).toBe(404);
    expect((await other.api.post(reviewPath(verification.id, '/approve'), {})).status).toBe(404);
    expect((await other.api.get('/verifications/reviews')).body.totalCount).toBe(0);
    expect((await prod.api.get(`/customers/${customer.id}`)).body.kycStatus).toBe('PENDING');

    const sandbox = await t.otherPlatform();
    const pendingSandbox = await individual(sandbox.api, 'Pat Smith001');
    const sandboxVerification = (await sandbox.api.post('/verifications', { customerId: pendingSandbox.id })).body;
    expect(sandboxVerification.verificationStatus).toBe('IN_PROGRESS');
    expect((await sandbox.api.get('/verifications/reviews')).body.totalCount).toBe(0);
    expect((await sandbox.api.post(reviewPath(sandboxVerification.id, '/approve'), {})).status).toBe(404);
  });
});
