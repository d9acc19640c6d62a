import { expect } from '@jest/globals';
import { testPerson } from '#domain/testing/fixtures.js';
import type { Client } from '../support/service.js';
import { uniqueValue } from '../support/sequence.js';
import { passportFields, upload } from './documents-support.js';

/** Fixtures of the KYC review tests: production customers whose complete verification waits for a reviewer. */

export const ADDRESS = { line1: '1 Main St', city: 'Springfield', postalCode: '12345', country: 'US' };

const created = async (reply: Promise<{ status: number; body: any }>, status = 201) => {
  const res = await reply;
  expect({ status: res.status, body: res.body }).toMatchObject({ status });
  return res.body;
};

/** A document of `documentType` for `holder`. */
export const uploadDocument = (api: Client, holder: string, documentType: string) =>
  created(upload(api, { ...passportFields(holder), documentType }));

/** A production business with the documents its KYB needs and one beneficial owner with a passport. */
export async function businessWithOwner(api: Client, legalName = 'Acme Widgets Ltd') {
  const business = await created(
    api.post('/customers', {
      platformCustomerId: uniqueValue('kyb'),
      customerType: 'BUSINESS',
      businessInfo: { legalName, registrationNumber: uniqueValue('REG') },
      address: ADDRESS,
    }),
  );
  for (const type of ['CERTIFICATE_OF_INCORPORATION', 'DIRECTOR_REGISTRY', 'SHAREHOLDER_REGISTER'])
    await uploadDocument(api, business.id, type);
  const owner = await created(
    api.post('/beneficial-owners', {
      customerId: business.id,
      roles: ['UBO', 'DIRECTOR'],
      ownershipPercentage: 60,
      personalInfo: testPerson('Lovelace'),
    }),
  );
  const passport = await uploadDocument(api, owner.id, 'PASSPORT');
  return { business, owner, passport };
}

/** A production individual with an identity document and a proof of address. */
export async function individual(api: Client, fullName = 'Grace Hopper') {
  const customer = await created(
    api.post('/customers', {
      platformCustomerId: uniqueValue('kyc'),
      customerType: 'INDIVIDUAL',
      fullName,
      email: `${uniqueValue('kyc')}@example.com`,
      birthDate: '1990-01-31',
      address: ADDRESS,
      currencies: ['USD'],
    }),
  );
  await uploadDocument(api, customer.id, 'PASSPORT');
  await uploadDocument(api, customer.id, 'UTILITY_BILL');
  return customer;
}

/** Submits the customer for verification: a complete production file waits for review (IN_PROGRESS). */
export async function submit(api: Client, customerId: string) {
  const verification = await created(api.post('/verifications', { customerId }), 200);
  expect(verification).toMatchObject({ verificationStatus: 'IN_PROGRESS', errors: [] });
  return verification as { id: string };
}

/** The entry of the customer's audit history that records its review's decision (undefined before one). */
export const reviewDecisionEntry = async (api: Client, customerId: string) =>
  ((await api.get(`/audit/customers/${customerId}/history?limit=100`)).body.data as any[]).find(
    (e) => e.type === 'KycReviewDecided',
  );
