/**
 * Resource types of the API, from the types generated from the OpenAPI document (`generated/openapi.ts`,
 * `npm run client:types`). Any other schema: `Schema<'Name'>`; operations: `paths['/customers']['post']`.
 */
import type { components } from './generated/openapi.js';

export type { components, operations, paths, webhooks } from './generated/openapi.js';

export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

export type Customer = Schema<'Customer'>;
export type InternalAccount = Schema<'InternalAccount'>;
export type ExternalAccount = Schema<'ExternalAccount'>;
export type Card = Schema<'Card'>;
export type CardTransaction = Schema<'CardTransaction'>;
export type Quote = Schema<'Quote'>;
export type Transaction = Schema<'Transaction'>;
export type Verification = Schema<'Verification'>;
export type Agent = Schema<'Agent'>;
export type AuthMethod = Schema<'AuthMethod'>;
/** A wallet session; `encryptedSessionSigningKey` only in the answer that issues it (verify, refresh). */
export type AuthSession = Schema<'AuthSession'> & { encryptedSessionSigningKey?: string };
export type PlatformConfig = Schema<'PlatformConfig'>;
export type WebhookEnvelope = Schema<'WebhookEnvelope'>;
