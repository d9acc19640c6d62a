import { processorSignature } from '#domain/cards/card-processor.js';
import { testPerson } from '#domain/testing/fixtures.js';
import type { Client } from '../service.js';
import { enc, ok, type Tour } from './tour.js';

const ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

/** A document of `documentType` for `holder` (a small PDF). */
async function document(api: Client, holder: string, documentType: string) {
  const data = new FormData();
  data.append('documentHolder', holder);
  data.append('documentType', documentType);
  data.append('country', 'US');
  data.append('file', new Blob([Buffer.from('%PDF-1.7\n% example scan\n')], { type: 'application/pdf' }), 'scan.pdf');
  ok(await api.request('POST', '/documents', data), 201, `a ${documentType}`);
}

/** A production business with its documents and one owner, submitted: its verification waits for review. */
async function submittedBusiness(api: Client, legalName: string, registrationNumber: string): Promise<string> {
  const business = ok(
    await api.post('/customers', {
      platformCustomerId: `kyb-${registrationNumber}`,
      customerType: 'BUSINESS',
      businessInfo: { legalName, registrationNumber },
      address: ADDRESS,
    }),
    201,
  ).body;
  for (const type of ['CERTIFICATE_OF_INCORPORATION', 'DIRECTOR_REGISTRY', 'SHAREHOLDER_REGISTER'])
    await document(api, business.id, type);
  const owner = ok(
    await api.post('/beneficial-owners', {
      customerId: business.id,
      roles: ['UBO', 'DIRECTOR'],
      ownershipPercentage: 60,
      personalInfo: testPerson('Lovelace'),
    }),
    201,
  ).body;
  await document(api, owner.id, 'PASSPORT');
  return ok(await api.post('/verifications', { customerId: business.id })).body.id as string;
}

/** A production platform's KYC review queue: listed, one review read, one approved and one rejected. */
export async function kycReviewTour({ t, recorder, anonymous, clock }: Tour): Promise<void> {
  const production = await t.otherPlatform({ sandbox: false });
  const api = recorder.wrap(production.api);
  const first = await submittedBusiness(production.api, 'Acme Widgets Ltd', 'REG-20260401');
  const second = await submittedBusiness(production.api, 'Shady Holdings Ltd', 'REG-20260402');
  ok(await api.get('/verifications/reviews?status=PENDING&limit=10'));
  ok(await api.get(`/verifications/reviews/${enc(first)}`));
  ok(await api.post(`/verifications/reviews/${enc(first)}/approve`, { reason: 'registry and owner documents match' }));
  ok(
    await api.post(`/verifications/reviews/${enc(second)}/reject`, {
      reason: 'the registry excerpt names another company',
    }),
  );
  ok(await api.post(`/verifications/reviews/${enc(second)}/approve`, {}), 409);

  // The platform's KYC provider (here one that cannot be reached, so the review also stays in the queue) decides a
  // third review through its signed callback.
  const secret = 'kps_example_shared_secret';
  const provider = { url: 'https://127.0.0.1:9/kyc/submissions', secret };
  ok(await api.request('PUT', '/config/kyc-provider', provider));
  ok(await api.get('/config/kyc-provider'));
  const third = await submittedBusiness(production.api, 'Northwind Traders Ltd', 'REG-20260403');
  const callback = (body: Record<string, unknown>, key = secret) => {
    const raw = JSON.stringify(body);
    const at = Math.floor(clock.now().getTime() / 1000);
    return anonymous.post('/kyc-provider/callback', raw, {
      'content-type': 'application/json',
      'x-kyc-provider-platform': production.platformId,
      'x-kyc-provider-signature': `t=${at},v1=${processorSignature(key, at, raw)}`,
    });
  };
  const decision = { reviewId: third, decision: 'APPROVED', reason: 'all checks passed' };
  ok(await callback(decision));
  ok(await callback(decision, 'not-the-secret'), 401);
  ok(await api.delete('/config/kyc-provider'));
}
