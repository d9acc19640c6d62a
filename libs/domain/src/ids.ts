import { randomUUID } from 'node:crypto';

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
