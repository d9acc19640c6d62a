import type { PersonalInfo } from '../beneficial-owners/beneficial-owner.js';

/**
 * The ids and instants unit specs share: one platform and customer, another platform to prove
 * isolation, and two instants a day apart. A spec that needs more ids makes them with `testId`.
 */

/** A typed id with a fixed UUID whose last group is `suffix` (hex), e.g. testId('Document', '3'). */
export const testId = (type: string, suffix: string): string =>
  `${type}:00000000-0000-4000-8000-${suffix.padStart(12, '0')}`;

export const PLATFORM = testId('Platform', '1');
export const OTHER_PLATFORM = testId('Platform', '9');
export const CUSTOMER = testId('Customer', '2');
export const T0 = '2026-01-01T00:00:00.000Z';
/** One day after T0. */
export const T1 = '2026-01-02T00:00:00.000Z';

/** A beneficial owner's personal information; the last name picks the sandbox KYC outcome (…001, …002). */
export const testPerson = (lastName: string): PersonalInfo => ({
  firstName: 'Jane',
  lastName,
  birthDate: '1978-06-15',
  nationality: 'US',
  address: { line1: '1 Main St', postalCode: '94105', country: 'US' },
  idType: 'SSN',
  identifier: '123-45-6789',
});

/** The data of a USD TransferCreated ledger event (the ledger's own event shape, amounts as strings). */
export const usdTransferCreated = (
  id: string,
  debitAccountId: string,
  creditAccountId: string,
  amount: number,
  pending: boolean,
  createdAt: string,
) => ({
  id,
  debitAccountId,
  creditAccountId,
  amount: String(amount),
  currency: 'USD',
  pending,
  code: 'TEST',
  createdAt,
});
