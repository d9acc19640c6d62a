import { compact } from '../primitives.js';
/**
 * A business customer's information, with the public API's field names and enumerations. On update the
 * given fields replace the stored ones and the others stay (see `mergeBusinessInfo`).
 */
export const ENTITY_TYPES = [
  'SOLE_PROPRIETORSHIP',
  'PARTNERSHIP',
  'LLC',
  'CORPORATION',
  'S_CORPORATION',
  'NON_PROFIT',
  'OTHER',
] as const;
export const BUSINESS_TYPES = [
  'AGRICULTURE_FORESTRY_FISHING_AND_HUNTING',
  'MINING_QUARRYING_AND_OIL_AND_GAS_EXTRACTION',
  'UTILITIES',
  'CONSTRUCTION',
  'MANUFACTURING',
  'WHOLESALE_TRADE',
  'RETAIL_TRADE',
  'TRANSPORTATION_AND_WAREHOUSING',
  'INFORMATION',
  'FINANCE_AND_INSURANCE',
  'REAL_ESTATE_AND_RENTAL_AND_LEASING',
  'PROFESSIONAL_SCIENTIFIC_AND_TECHNICAL_SERVICES',
  'MANAGEMENT_OF_COMPANIES_AND_ENTERPRISES',
  'ADMINISTRATIVE_AND_SUPPORT_AND_WASTE_MANAGEMENT_AND_REMEDIATION_SERVICES',
  'EDUCATIONAL_SERVICES',
  'HEALTH_CARE_AND_SOCIAL_ASSISTANCE',
  'ARTS_ENTERTAINMENT_AND_RECREATION',
  'ACCOMMODATION_AND_FOOD_SERVICES',
  'OTHER_SERVICES',
  'PUBLIC_ADMINISTRATION',
] as const;
export const PURPOSES_OF_ACCOUNT = [
  'CONTRACTOR_PAYOUTS',
  'CREATOR_PAYOUTS',
  'EMPLOYEE_PAYOUTS',
  'MARKETPLACE_SELLER_PAYOUTS',
  'SUPPLIER_PAYMENTS',
  'CROSS_BORDER_B2B',
  'AR_AUTOMATION',
  'AP_AUTOMATION',
  'EMBEDDED_PAYMENTS',
  'PLATFORM_FEE_COLLECTION',
  'P2P_TRANSFERS',
  'CHARITABLE_DONATIONS',
  'OTHER',
] as const;
export const MONTHLY_TRANSACTION_COUNTS = [
  'COUNT_UNDER_10',
  'COUNT_10_TO_100',
  'COUNT_100_TO_500',
  'COUNT_500_TO_1000',
  'COUNT_OVER_1000',
] as const;
export const MONTHLY_TRANSACTION_VOLUMES = [
  'VOLUME_UNDER_10K',
  'VOLUME_10K_TO_100K',
  'VOLUME_100K_TO_1M',
  'VOLUME_1M_TO_10M',
  'VOLUME_OVER_10M',
] as const;

export interface BusinessInfo {
  legalName?: string;
  doingBusinessAs?: string;
  country?: string;
  registrationNumber?: string;
  /** Date `YYYY-MM-DD`. */
  incorporatedOn?: string;
  entityType?: (typeof ENTITY_TYPES)[number];
  taxId?: string;
  countriesOfOperation?: string[];
  businessType?: (typeof BUSINESS_TYPES)[number];
  purposeOfAccount?: (typeof PURPOSES_OF_ACCOUNT)[number];
  sourceOfFunds?: string;
  expectedMonthlyTransactionCount?: (typeof MONTHLY_TRANSACTION_COUNTS)[number];
  expectedMonthlyTransactionVolume?: (typeof MONTHLY_TRANSACTION_VOLUMES)[number];
  expectedRecipientJurisdictions?: string[];
}

/** An update's business information over the stored one: given fields replace, omitted ones stay. */
export function mergeBusinessInfo(stored: BusinessInfo | undefined, update: BusinessInfo): BusinessInfo {
  return { ...(stored ?? {}), ...compact(update) };
}
