import type { BankRailConfig } from '../payments/rails/bank-rails.js';
import { compact, currency, CURRENCY_CODES } from '../primitives.js';
import { invalid } from '../errors.js';
import { railsFor, UMA_RAIL } from '../payments/rates/rate-table.js';
import { requiredPayerDataFieldsFor } from '../payments/lookups/lookup.js';
import type { SpendingControls } from '../cards/card-spending.js';

/**
 * The platform's configuration beyond webhooks, with the public API's field names: the UMA domain its
 * customers' addresses are generated in, the currencies it offers (with limits, the counterparty
 * fields it requires and the transaction types enabled) and the embedded wallet's OTP email settings.
 */
export const COUNTERPARTY_FIELD_NAMES = [
  'FULL_NAME',
  'BIRTH_DATE',
  'NATIONALITY',
  'PHONE_NUMBER',
  'EMAIL',
  'POSTAL_ADDRESS',
  'TAX_ID',
  'REGISTRATION_NUMBER',
  'USER_TYPE',
  'COUNTRY_OF_RESIDENCE',
  'ACCOUNT_IDENTIFIER',
  'FI_LEGAL_ENTITY_NAME',
  'FI_ADDRESS',
  'PURPOSE_OF_PAYMENT',
  'ULTIMATE_INSTITUTION_COUNTRY',
  'IDENTIFIER',
  'BUSINESS_TYPE',
  'COMPANY_LEGAL_NAME',
  'ID_TYPE',
  'ID_NUMBER',
] as const;
export const TRANSACTION_TYPES = ['INCOMING', 'OUTGOING'] as const;

export interface PlatformCurrencyConfig {
  currencyCode: string;
  minAmount: number;
  maxAmount: number;
  requiredCounterpartyFields: { name: (typeof COUNTERPARTY_FIELD_NAMES)[number]; mandatory: boolean }[];
  enabledTransactionTypes: (typeof TRANSACTION_TYPES)[number][];
}

export interface EmbeddedWalletConfig {
  appName?: string;
  otpLength?: number;
  alphanumeric?: boolean;
  expirationSeconds?: number;
  sendFromEmailAddress?: string;
  sendFromEmailSenderName?: string;
  replyToEmailAddress?: string;
  logoUrl?: string;
}

export interface PlatformConfigChanges {
  umaDomain?: string;
  supportedCurrencies?: PlatformCurrencyConfig[];
  embeddedWalletConfig?: EmbeddedWalletConfig;
  /** Production platforms' bank rails, the whole list (see payments/rails/bank-rails.ts). */
  rails?: BankRailConfig[];
  /** The spending controls of the platform's cards that have none of their own; null removes them. */
  cardSpendingControls?: SpendingControls | null;
}

/**
 * Until a platform sets its own: every currency the service moves money in, both directions, limits from
 * the rails that serve it (in US cents as the rate table keeps them; the UMA rail's for crypto).
 */
export function defaultSupportedCurrencies(): PlatformCurrencyConfig[] {
  return CURRENCY_CODES.map((code) => {
    const rails = railsFor(code);
    const min = rails.length ? Math.min(...rails.map((r) => Number(r.minUsdCents))) : Number(UMA_RAIL.minUsdCents);
    const max = rails.length ? Math.max(...rails.map((r) => Number(r.maxUsdCents))) : Number(UMA_RAIL.maxUsdCents);
    return {
      currencyCode: code,
      minAmount: min,
      maxAmount: max,
      requiredCounterpartyFields: [{ name: 'FULL_NAME', mandatory: true }],
      enabledTransactionTypes: [...TRANSACTION_TYPES],
    };
  });
}

type FieldName = (typeof COUNTERPARTY_FIELD_NAMES)[number];

/**
 * What the service's UMA counterparties require in a currency, read-only as the public API shows it:
 * `providerRequiredCustomerFields`, what a quote paying in the currency must tell about the paying customer (the
 * receiver's requiredPayerDataFields, given in senderCustomerInfo); `providerRequiredCounterpartyCustomerFields`,
 * what the counterparty must tell about its customer (every lookup carries it in counterpartyInformation).
 */
export function providerRequiredFields(code: string): {
  providerRequiredCustomerFields: FieldName[];
  providerRequiredCounterpartyCustomerFields: FieldName[];
} {
  return {
    providerRequiredCustomerFields: requiredPayerDataFieldsFor(code) as FieldName[],
    providerRequiredCounterpartyCustomerFields: ['FULL_NAME'],
  };
}

/** A currency of the platform's list as the API shows it: with the provider's required fields, never stored. */
export function currencyConfigResource(config: PlatformCurrencyConfig): Record<string, unknown> {
  const { providerRequiredCustomerFields, providerRequiredCounterpartyCustomerFields } = providerRequiredFields(
    config.currencyCode,
  );
  return {
    ...config,
    ...(providerRequiredCustomerFields.length > 0 ? { providerRequiredCustomerFields } : {}),
    providerRequiredCounterpartyCustomerFields,
  };
}

/** A platform's currency list: each supported by the service (400 INVALID_CURRENCY), once, min <= max. */
export function validateSupportedCurrencies(list: PlatformCurrencyConfig[]): void {
  const seen = new Set<string>();
  for (const [i, c] of list.entries()) {
    currency(c.currencyCode, `supportedCurrencies[${i}].currencyCode`);
    if (seen.has(c.currencyCode))
      throw invalid('INVALID_INPUT', `${c.currencyCode} is listed twice`, `supportedCurrencies[${i}].currencyCode`);
    seen.add(c.currencyCode);
    if (c.minAmount > c.maxAmount)
      throw invalid('INVALID_INPUT', 'minAmount must not exceed maxAmount', `supportedCurrencies[${i}].minAmount`);
  }
}

/**
 * Money moves only in the currencies the platform offers (its `supportedCurrencies`, every service currency until it
 * sets them): another one is 400 INVALID_CURRENCY on `field`, before anything is recorded.
 */
export function requireSupportedCurrency(
  list: readonly PlatformCurrencyConfig[] | undefined,
  code: string,
  field: string,
): void {
  if (!list || list.some((c) => c.currencyCode === code)) return;
  const offered = list.map((c) => c.currencyCode).join(', ') || 'none';
  throw invalid('INVALID_CURRENCY', `${code} is not among the platform's supportedCurrencies (${offered})`, field);
}

/** The embedded wallet settings after an update: given fields replace, omitted ones stay. */
export function mergeEmbeddedWalletConfig(
  stored: EmbeddedWalletConfig | undefined,
  update: EmbeddedWalletConfig,
): EmbeddedWalletConfig {
  return { ...(stored ?? {}), ...compact(update) };
}

/** The subdomain incoming UMA requests for the platform are proxied to: its own label under its UMA domain. */
export const proxyUmaSubdomain = (platformId: string, umaDomain: string): string =>
  `${platformId.slice('Platform:'.length, 'Platform:'.length + 8)}.${umaDomain}`;
