import { csvForm, csvOf, individual, waitForJob } from '../../e2e/customers-bulk-support.js';
import { fileOf, form, passportFields, pdfPart } from '../../e2e/documents-support.js';
import { ownerBody } from '../../e2e/idempotency-fixtures.js';
import { money } from '../../e2e/money-support.js';
import { uniqueValue } from '../sequence.js';
import { enc, ok, type Tour } from './tour.js';

/**
 * Customers and what onboards them: an update and a deletion, a hosted KYC link filled in by the customer (its
 * page, state, document and submission), a bulk CSV import, documents, beneficial owners, verifications,
 * invitations, and the customer's and the platform's external accounts.
 */
export async function onboardingTour({ t, api, anonymous }: Tour): Promise<void> {
  const m = money({ ...t, api });
  const c = await m.customer(['USD'], { email: `${uniqueValue('grace')}@example.com` });
  ok(await api.patch(`/customers/${c.id}`, { fullName: 'Grace Hopper' }));
  await kycLink(api, anonymous, t.url);

  const id = uniqueValue('bulk');
  const job = ok(await api.post('/customers/bulk/csv', csvForm(csvOf([individual(id)]))), 202).body;
  await waitForJob(api, job.jobId);
  ok(await api.get(`/customers/bulk/jobs/${job.jobId}`));

  const doc = ok(await api.request('POST', '/documents', form(passportFields(c.id), pdfPart())), 201).body;
  ok(await api.get(`/documents?documentHolder=${enc(c.id)}&limit=2`));
  ok(await api.get(`/documents/${doc.id}`));
  ok(await api.get(`/documents/${doc.id}/content`));
  const replaced = form({ documentType: 'PASSPORT', country: 'GB' }, pdfPart(fileOf('pdf', 3000), 'passport-2.pdf'));
  ok(await api.request('PUT', `/documents/${doc.id}`, replaced));

  const business = await m.customer(['USD'], {
    customerType: 'BUSINESS',
    businessInfo: { legalName: 'Acme Ltd', registrationNumber: 'REG-123' },
  });
  const owner = ok(await api.post('/beneficial-owners', ownerBody(business.id)), 201).body;
  ok(await api.get(`/beneficial-owners?customerId=${enc(business.id)}`));
  ok(await api.get(`/beneficial-owners/${owner.id}`));
  ok(await api.patch(`/beneficial-owners/${owner.id}`, { ownershipPercentage: 55 }));
  const verification = ok(await api.post('/verifications', { customerId: business.id })).body;
  ok(await api.get(`/verifications?customerId=${enc(business.id)}`));
  ok(await api.get(`/verifications/${verification.id}`));

  const uma = `$${uniqueValue('inviter').replace(/-/g, '')}@sandbox.uma.local`;
  await m.customer(['USD'], { umaAddress: uma });
  const invitation = ok(await api.post('/invitations', { inviterUma: uma, firstName: 'Bob' }), 201).body;
  ok(await api.get(`/invitations?inviterUma=${enc(uma)}`));
  ok(await api.get(`/invitations/${invitation.code}`));

  const external = await m.external(c.id, 'USD', '000');
  ok(await api.get(`/customers/external-accounts?customerId=${enc(c.id)}`));
  ok(await api.get(`/customers/external-accounts/${external}`));
  const platformAccount = await m.external(undefined, 'USD', '000');
  ok(await api.get('/platform/external-accounts?limit=2'));
  ok(await api.get(`/platform/external-accounts/${platformAccount}`));
  ok(await api.get('/platform/internal-accounts'));
  ok(await api.delete(`/platform/external-accounts/${platformAccount}`), 204);
  ok(await api.delete(`/customers/external-accounts/${external}`), 204);
  ok(await api.delete(`/documents/${doc.id}`), 204);
  ok(await api.delete(`/customers/${c.id}`));
}

/** A customer completes what is missing through a hosted KYC link: page, state, a document, the form. */
async function kycLink(api: Tour['api'], anonymous: Tour['anonymous'], url: string): Promise<void> {
  const c = ok(
    await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: uniqueValue('kyc'),
      fullName: 'Grace Hopper001',
      birthDate: '1906-12-09',
      address: { line1: '1 Navy Way', city: 'Arlington', postalCode: '22202', country: 'US' },
    }),
    201,
  ).body;
  const link = ok(
    await api.post(`/customers/${c.id}/kyc-link`, { redirectUri: 'https://app.example.com/onboarding/done' }),
    201,
  ).body;
  const path = new URL(link.kycUrl).pathname.slice(new URL(url).pathname.length);
  ok(await anonymous.get(path));
  ok(await anonymous.get('/kyc/assets/kyc.css'));
  ok(await anonymous.get(`${path}/state`));
  const document = new FormData();
  document.append('documentType', 'PASSPORT');
  document.append('country', 'US');
  document.append('file', new Blob([fileOf('pdf') as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), 'a.pdf');
  ok(await anonymous.post(`${path}/documents`, document), 201);
  ok(await anonymous.post(path, { fullName: 'Grace Hopper' }));
}
