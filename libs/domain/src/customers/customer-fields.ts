import type { CustomerProfile, CustomerType } from './customer.js';
import type { KycStatus } from './kyb.js';

/** The field a customer's status is shown in: `kybStatus` for a business, `kycStatus` for an individual. */
export const statusFieldOf = (customerType: unknown): 'kybStatus' | 'kycStatus' =>
  customerType === 'BUSINESS' ? 'kybStatus' : 'kycStatus';

/** A customer's type, profile and status as its resource shows them: profile flattened, currencies always listed. */
export const customerFields = (customer: {
  customerType?: CustomerType;
  profile: CustomerProfile;
  kycStatus?: KycStatus;
}): Record<string, unknown> => ({
  customerType: customer.customerType,
  ...customer.profile,
  currencies: customer.profile.currencies ?? [],
  [statusFieldOf(customer.customerType)]: customer.kycStatus,
});
