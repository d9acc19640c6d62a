import { randomUUID } from 'node:crypto';
import { invalid } from './errors.js';

/*
 * The domain's primitive values, which every layer uses: ids and stream names, currencies and amounts, the canonical
 * JSON of what is signed or hashed, objects without undefined members, and a bounded cache of recent entries.
 */

/** Generates uuids; injected so tests can make ids deterministic. */
export interface IdGenerator {
  uuid(): string;
}

export const randomIds: IdGenerator = { uuid: () => randomUUID() };

/** Deterministic ids for tests: 00000000-0000-4000-8000-<counter>. */
export class SequentialIds implements IdGenerator {
  private n = 0;
  uuid(): string {
    this.n += 1;
    return `00000000-0000-4000-8000-${this.n.toString(16).padStart(12, '0')}`;
  }
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** Public ids are `<Resource>:<uuid>`, exactly as the spec shows them. */
export type ResourceKind =
  | 'Platform'
  | 'ApiToken'
  | 'Customer'
  | 'InternalAccount'
  | 'Transfer'
  | 'AuthMethod'
  | 'Session'
  | 'Request'
  | 'Export'
  | 'Card'
  | 'CardAuthorization'
  | 'CardTransaction'
  | 'ExternalAccount'
  | 'Verification'
  | 'BeneficialOwner'
  | 'Quote'
  | 'Transaction'
  | 'Lookup'
  | 'Invitation'
  | 'Agent'
  | 'AgentAction'
  | 'Webhook'
  | 'WebhookDelivery'
  /** A bulk customer import (the public API's `Job:<uuid>`). */
  | 'Job'
  | 'Document';

export function publicId(kind: ResourceKind, uuid: string): string {
  return `${kind}:${uuid}`;
}

/** The pattern of one kind's public ids, for input validation. */
export function publicIdPattern(kind: ResourceKind): RegExp {
  return new RegExp(`^${kind}:${UUID}$`);
}

/** Each kind's pattern, built once: ids are checked on every request (pipes, ownership checks, lookups). */
const patterns = new Map<ResourceKind, RegExp>();

export function isPublicId(kind: ResourceKind, value: unknown): value is string {
  if (typeof value !== 'string') return false;
  let pattern = patterns.get(kind);
  if (!pattern) patterns.set(kind, (pattern = publicIdPattern(kind)));
  return pattern.test(value);
}

/** The uuid part of a public id, or undefined when the id is not of that kind. */
export function uuidOf(kind: ResourceKind, id: string): string | undefined {
  return isPublicId(kind, id) ? id.slice(kind.length + 1) : undefined;
}

/** Streams are `<aggregate>-<uuid>`. */
export const streams = {
  platform: (platformId: string) => `platform-${platformId.split(':')[1]}`,
  customer: (customerId: string) => `customer-${customerId.split(':')[1]}`,
  ledger: (platformId: string) => `ledger-${platformId.split(':')[1]}`,
  /** Wallet authentication state of one EMBEDDED_WALLET internal account. */
  wallet: (accountId: string) => `wallet-${accountId.split(':')[1]}`,
  card: (cardId: string) => `card-${cardId.split(':')[1]}`,
  document: (documentId: string) => `document-${documentId.split(':')[1]}`,
  externalAccount: (id: string) => `externalaccount-${id.split(':')[1]}`,
  beneficialOwner: (id: string) => `beneficialowner-${id.split(':')[1]}`,
  quote: (quoteId: string) => `quote-${quoteId.split(':')[1]}`,
  transaction: (transactionId: string) => `transaction-${transactionId.split(':')[1]}`,
  invitation: (code: string) => `invitation-${code}`,
  /** A hosted KYC link handed to a customer. */
  kycLink: (linkId: string) => `kyclink-${linkId}`,
  /** Webhook configuration and signing key of one platform. */
  webhooks: (platformId: string) => `webhooks-${platformId.split(':')[1]}`,
  /** The sandbox clock offset of one platform (production platforms have none: they run on real time). */
  sandboxClock: (platformId: string) => `sandboxclock-${platformId.split(':')[1]}`,
  /** One bulk customer import: its rows as uploaded, then the outcome of each. */
  bulkImport: (jobId: string) => `bulkimport-${jobId.split(':')[1]}`,
  /** One production platform's bank rail in one currency: its instructions and files, out and in. */
  bankRail: (platformId: string, currency: string) => `bankrail-${platformId.split(':')[1]}-${currency}`,
};

/** Currency object as the API shows it. */
export interface Currency {
  code: string;
  name: string;
  symbol: string;
  decimals: number;
}

const table: Currency[] = [
  { code: 'USD', name: 'United States Dollar', symbol: '$', decimals: 2 },
  { code: 'EUR', name: 'Euro', symbol: '€', decimals: 2 },
  { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 },
  { code: 'GBP', name: 'Pound Sterling', symbol: '£', decimals: 2 },
  { code: 'INR', name: 'Indian Rupee', symbol: '₹', decimals: 2 },
  { code: 'BRL', name: 'Brazilian Real', symbol: 'R$', decimals: 2 },
  { code: 'AED', name: 'UAE Dirham', symbol: 'د.إ', decimals: 2 },
  { code: 'PHP', name: 'Philippine Peso', symbol: '₱', decimals: 2 },
  { code: 'NGN', name: 'Nigerian Naira', symbol: '₦', decimals: 2 },
  { code: 'CAD', name: 'Canadian Dollar', symbol: '$', decimals: 2 },
  { code: 'BTC', name: 'Bitcoin', symbol: '₿', decimals: 8 },
  { code: 'USDC', name: 'USD Coin', symbol: 'USDC', decimals: 6 },
];

export const CURRENCIES: ReadonlyMap<string, Currency> = new Map(table.map((c) => [c.code, c]));
export const CURRENCY_CODES: readonly string[] = table.map((c) => c.code);
export const CRYPTO_CURRENCIES: ReadonlySet<string> = new Set(['BTC', 'USDC']);

/**
 * The shape of a currency code at the API's edge: an ISO 4217 code (three capital letters) or a
 * crypto asset code such as USDC. Whether the service moves money in it is `currency()`'s question.
 */
export const CURRENCY_CODE_PATTERN = /^[A-Z]{3,4}$/;
export const CURRENCY_CODE_TEXT = 'an ISO 4217 currency code such as USD (or a crypto code such as USDC)';

export function requireCurrencyCode(code: string, field = 'currency'): string {
  if (!CURRENCY_CODE_PATTERN.test(code))
    throw invalid('INVALID_INPUT', `${field} must be ${CURRENCY_CODE_TEXT}`, field);
  return code;
}

/**
 * A currency the service moves money in. Codes are free strings at the edge (as in the public API); where
 * money moves, one outside the supported set is refused with the public API's 400 `INVALID_CURRENCY`.
 */
export function currency(code: string, field = 'currency'): Currency {
  const c = CURRENCIES.get(code);
  if (!c)
    throw invalid(
      'INVALID_CURRENCY',
      `currency ${code} is not supported (supported: ${CURRENCY_CODES.join(', ')})`,
      field,
    );
  return c;
}

export const isSupportedCurrency = (code: string): boolean => CURRENCIES.has(code);

/**
 * An amount in the smallest unit of `code` as the currency writes it, for messages: `8000n, 'USD'` is `80.00 USD`,
 * `150000000n, 'BTC'` is `1.50000000 BTC`. A code outside the table (no known decimals) states the smallest unit as
 * such: `8000 XYZ (smallest unit)`.
 */
export function formatAmount(amount: bigint, code: string): string {
  const decimals = CURRENCIES.get(code)?.decimals;
  if (decimals === undefined) return `${amount} ${code} (smallest unit)`;
  const sign = amount < 0n ? '-' : '';
  const digits = (amount < 0n ? -amount : amount).toString();
  if (decimals === 0) return `${sign}${digits} ${code}`;
  const padded = digits.padStart(decimals + 1, '0');
  return `${sign}${padded.slice(0, -decimals)}.${padded.slice(-decimals)} ${code}`;
}

/** Largest amount accepted at the JSON edge (2^53 - 1): beyond it a JSON number loses precision. */
export const MAX_JSON_AMOUNT = BigInt(Number.MAX_SAFE_INTEGER);

/** Amounts are integers in the smallest unit; bigint inside, decimal strings in events. */
export function toAmount(value: number | string | bigint, field = 'amount'): bigint {
  let n: bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value))
      throw invalid('INVALID_AMOUNT', `${field} must be an integer no larger than 2^53-1`, field);
    n = BigInt(value);
  } else {
    if (!/^-?\d+$/.test(value)) throw invalid('INVALID_AMOUNT', `${field} must be an integer`, field);
    n = BigInt(value);
  }
  if (n > MAX_JSON_AMOUNT || n < -MAX_JSON_AMOUNT) throw invalid('INVALID_AMOUNT', `${field} is out of range`, field);
  return n;
}

/** A bigint that is known to fit a JSON number, for responses. */
export function toJsonNumber(n: bigint): number {
  if (n > MAX_JSON_AMOUNT || n < -MAX_JSON_AMOUNT) throw new RangeError(`amount ${n} does not fit a JSON number`);
  return Number(n);
}

/**
 * What a reader of recorded amounts states: the JSON number where it fits, and otherwise null with the exact
 * decimal beside it (amounts recorded before every balance was kept within range can be larger).
 */
export function statedAmount(n: bigint): { amount: number | null; exact?: string } {
  return n > MAX_JSON_AMOUNT || n < -MAX_JSON_AMOUNT ? { amount: null, exact: n.toString() } : { amount: Number(n) };
}

/**
 * JSON with object keys sorted (by UTF-16 code units), undefined members left out and no whitespace: the one
 * canonical form for what is signed (wallet payloads), hashed (idempotent requests, the event hash chain) and
 * compared (audit digests).
 */
export function canonicalJson(value: unknown): string {
  // Strings are built by appending, without arrays of entries: every event appended is hashed through here.
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (Number.isFinite(value)) return JSON.stringify(value);
      throw invalid('INVALID_INPUT', 'numbers in a signed or hashed payload must be finite');
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let text = '[';
        for (let i = 0; i < value.length; i++) {
          const member: unknown = value[i];
          text += (i > 0 ? ',' : '') + (member === undefined ? 'null' : canonicalJson(member));
        }
        return `${text}]`;
      }
      let text = '';
      for (const key of Object.keys(value).sort()) {
        const member = (value as Record<string, unknown>)[key];
        if (member !== undefined) text += `${text ? ',' : ''}${JSON.stringify(key)}:${canonicalJson(member)}`;
      }
      return `{${text}}`;
    }
    default:
      throw invalid('INVALID_INPUT', `a ${typeof value} cannot be part of a signed or hashed payload`);
  }
}

/** Drops undefined members, so resources, snapshots and updates carry only what is set. */
export function compact<T extends object>(value: T): T {
  // A loop rather than entries/filter/fromEntries: a replay builds a resource for every transaction event.
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) out[key] = member;
  }
  return out as T;
}

/**
 * A bounded cache of the most recently used entries: it holds between half its capacity and its capacity. New entries
 * go into a young map; once that holds half the capacity it becomes the old map and the previous old map is dropped
 * whole; an old entry that is read again moves back into the young map.
 *
 * (A Map kept in recency order, by deleting and setting a key on every use and evicting its first key, cost about a
 * microsecond a use at 10,000 entries on V8: every deletion leaves a slot that later operations step over.)
 */
export class RecentCache<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly half: number;

  constructor(capacity: number) {
    this.half = Math.max(1, Math.floor(capacity / 2));
  }

  get(key: K): V | undefined {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const aged = this.old.get(key);
    if (aged !== undefined) {
      this.old.delete(key);
      this.set(key, aged);
    }
    return aged;
  }

  has(key: K): boolean {
    return this.young.has(key) || this.old.has(key);
  }

  /** `undefined` is not a value: it reads as absent. */
  set(key: K, value: V): void {
    this.young.set(key, value);
    if (this.young.size >= this.half) {
      this.old = this.young;
      this.young = new Map();
    }
  }

  delete(key: K): void {
    this.young.delete(key);
    this.old.delete(key);
  }

  clear(): void {
    this.young = new Map();
    this.old = new Map();
  }
}
