import { DomainError, invalid } from '../../errors.js';
import { CRYPTO_CURRENCIES, requireCurrencyCode } from '../../primitives.js';

/**
 * A production platform's bank rails: for each currency it pays out and pulls in, the bank account the money leaves
 * from and arrives in, exchanged with the bank as ISO 20022 files (credit transfers out, direct debits in, status
 * reports, notifications and statements back) through a pair of folders that an SFTP or EBICS client carries.
 * Sandbox platforms have none: their payments follow the sandbox's magic values.
 */
export const BANK_RAIL_TYPES = ['ISO20022_FILES'] as const;
export type BankRailType = (typeof BANK_RAIL_TYPES)[number];

/** The platform's own account at the bank: IBAN (with BIC) or account and routing numbers. */
export interface BankRailAccount {
  name: string;
  /** The bank's name, as customers paying in are told it. */
  bankName?: string;
  iban?: string;
  bic?: string;
  accountNumber?: string;
  routingNumber?: string;
}

export interface BankRailConfig {
  currency: string;
  type: BankRailType;
  account: BankRailAccount;
  /** The creditor identifier direct debits (pulls) are collected under; pulls are refused without one. */
  creditorSchemeId?: string;
}

const BIC = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const IBAN = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;
const ACCOUNT_NUMBER = /^[0-9A-Za-z]{4,34}$/;
const ROUTING_NUMBER = /^[0-9]{9}$/;
/** ISO 20022's Max70Text for names; what the bank files carry. */
const NAME = /^[^<>&"]{1,70}$/;

/** ISO 13616: the IBAN's check digits, mod 97 over the rearranged digits. */
export function isValidIban(value: string): boolean {
  if (!IBAN.test(value)) return false;
  const rearranged = value.slice(4) + value.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const digits = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1;
}

/** An ABA routing number's checksum (3, 7, 1 weights). */
export function isValidRoutingNumber(value: string): boolean {
  if (!ROUTING_NUMBER.test(value)) return false;
  const d = [...value].map(Number);
  const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8]);
  return sum % 10 === 0;
}

function problem(field: string, message: string): DomainError {
  return invalid('INVALID_INPUT', `${field}: ${message}`, field);
}

function validateAccount(account: BankRailAccount, field: string): void {
  if (!NAME.test(account.name ?? ''))
    throw problem(`${field}.name`, 'a name of 1 to 70 characters without <, >, & or "');
  if (account.bankName !== undefined && !NAME.test(account.bankName))
    throw problem(`${field}.bankName`, 'a name of 1 to 70 characters without <, >, & or "');
  if (account.bic !== undefined && !BIC.test(account.bic))
    throw problem(`${field}.bic`, 'a BIC of 8 or 11 characters such as DEUTDEFF');
  if (account.iban !== undefined) {
    if (!isValidIban(account.iban)) throw problem(`${field}.iban`, 'an IBAN without spaces whose check digits hold');
    if (account.accountNumber !== undefined || account.routingNumber !== undefined)
      throw problem(field, 'either an IBAN or account and routing numbers, not both');
    return;
  }
  if (account.accountNumber === undefined || !ACCOUNT_NUMBER.test(account.accountNumber))
    throw problem(`${field}.accountNumber`, 'an IBAN, or an account number of 4 to 34 letters and digits');
  if (account.routingNumber === undefined || !isValidRoutingNumber(account.routingNumber))
    throw problem(`${field}.routingNumber`, 'a 9-digit ABA routing number whose checksum holds');
}

/** The whole list PATCH /config sets: one rail per fiat currency, each with a well-formed account. */
export function validateBankRails(rails: BankRailConfig[]): void {
  const seen = new Set<string>();
  rails.forEach((rail, i) => {
    const field = `rails[${i}]`;
    requireCurrencyCode(rail.currency, `${field}.currency`);
    if (CRYPTO_CURRENCIES.has(rail.currency))
      throw problem(`${field}.currency`, `${rail.currency} does not move over a bank rail`);
    if (seen.has(rail.currency)) throw problem(`${field}.currency`, `a second rail for ${rail.currency}`);
    seen.add(rail.currency);
    if (!BANK_RAIL_TYPES.includes(rail.type)) throw problem(`${field}.type`, `one of ${BANK_RAIL_TYPES.join(', ')}`);
    validateAccount(rail.account, `${field}.account`);
    if (rail.creditorSchemeId !== undefined && !/^[A-Za-z0-9]{1,35}$/.test(rail.creditorSchemeId))
      throw problem(`${field}.creditorSchemeId`, 'up to 35 letters and digits');
  });
}

/** The rail that moves `currency` for a platform, if it has one. */
export function railFor(rails: readonly BankRailConfig[] | undefined, currency: string): BankRailConfig | undefined {
  return rails?.find((r) => r.currency === currency);
}

/** Refused up front: a production payment in a currency without a rail would otherwise be accepted and hang. */
export function noRail(currency: string, field: string): DomainError {
  return new DomainError(
    'invalid',
    'UNSUPPORTED_PAYMENT_RAIL',
    `no bank rail moves ${currency} for this platform: set one with PATCH /config (rails) before paying in or out`,
    { errors: [{ field, constraint: 'UNSUPPORTED_PAYMENT_RAIL', message: `no bank rail for ${currency}` }] },
  );
}

/**
 * The folder of one rail below the service's rails directory: `<platform uuid>/<currency>`, holding `outbox/` (files
 * the bank collects) and `inbox/` (files the bank delivers). Derived, never given: a platform cannot point its rail at
 * another platform's folders.
 */
export function railFolder(platformId: string, currency: string): string {
  return `${platformId.split(':')[1]}/${currency}`;
}

/** A counterparty's bank account as a bank file names it. */
export interface CounterpartyBankAccount {
  name: string;
  iban?: string;
  bic?: string;
  accountNumber?: string;
  routingNumber?: string;
}

/**
 * The bank account an external account's details name (IBAN and BIC, or account and routing numbers), for a bank
 * file; undefined for accounts a bank rail cannot pay (wallets, phone-number and key-based schemes).
 */
export function counterpartyBankAccount(
  info: Record<string, unknown>,
  name: string | undefined,
): CounterpartyBankAccount | undefined {
  const text = (key: string) => (typeof info[key] === 'string' ? (info[key] as string) : undefined);
  const holder = (name ?? 'UNKNOWN').replace(/[<>&"]/g, ' ').slice(0, 70);
  const bic = text('swiftCode');
  const iban = text('iban');
  if (iban) return { name: holder, iban, ...(bic ? { bic } : {}) };
  const accountNumber = text('accountNumber');
  if (!accountNumber) return undefined;
  const routingNumber = text('routingNumber');
  return { name: holder, accountNumber, ...(routingNumber ? { routingNumber } : {}), ...(bic ? { bic } : {}) };
}

/** The worker's queue of bank rail work: a payment's instruction to queue and write out. */
export const RAIL_QUEUE = 'bank-rails';

export interface RailJob {
  kind: 'SUBMIT';
  platformId: string;
  ref: { kind: 'quote' | 'transaction'; id: string };
}

export const railJobId = (job: RailJob) => `rail-submit-${job.ref.id}`;
