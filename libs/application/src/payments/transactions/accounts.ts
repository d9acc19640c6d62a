import { customerDecider, type InternalAccountType } from '#domain/customers/customer.js';
import { DomainError, conflict, invalid, notFound } from '#domain/errors.js';
import {
  externalAccountDecider,
  type ExistingExternalAccount,
  type ExternalAccountState,
} from '#domain/external-accounts/external-account.js';
import { isPublicId, streams, uuidOf } from '#domain/ids.js';
import type { QuoteRecord } from '#domain/payments/quotes/quote-record.js';
import { Collections } from '#read-models/projections/collections.js';
import type { InternalAccountDoc } from '#read-models/projections/internal-account-docs.js';
import type { Doc, ReadModelStore } from '#read-models/read-model-store.js';
import { getForPlatform } from '../../queries/list-query.js';
import type { CommandRunner } from '../../command-runner.js';

/** The stream of an external account id, or a 404 that does not reveal whether the id exists elsewhere. */
export function externalAccountStream(id: string): string {
  if (!uuidOf('ExternalAccount', id)) throw notFound('EXTERNAL_ACCOUNT', id);
  return streams.externalAccount(id);
}

/** A live external account of this platform (customer's or the platform's own); 404 otherwise. */
export async function loadExternalAccount(
  runner: CommandRunner,
  id: string,
  platformId: string,
): Promise<ExistingExternalAccount> {
  const { state } = await runner.load(externalAccountStream(id), externalAccountDecider);
  if (!state.exists || state.platformId !== platformId || state.status === 'DELETED')
    throw notFound('EXTERNAL_ACCOUNT', id);
  return state;
}

/** A customer's internal account, with its status from the customer stream (the source of truth). */
export interface OwnedInternalAccount {
  id: string;
  customerId: string;
  platformCustomerId: string;
  type: InternalAccountType;
  currency: string;
  status: string;
}

/** Customers' platform ids come from the read model: the customer stream does not keep them. */
export async function platformCustomerIdOf(readModels: ReadModelStore, customerId: string): Promise<string> {
  const doc = await readModels.get<Doc & { platformCustomerId?: string }>(Collections.customers, customerId);
  return doc?.platformCustomerId ?? '';
}

/**
 * A customer's internal account of this platform. Platform settlement accounts are refused: they
 * mirror money outside the system and cannot take part in a payment.
 */
export async function loadCustomerAccount(
  runner: CommandRunner,
  readModels: ReadModelStore,
  accountId: string,
  platformId: string,
  field: string,
): Promise<OwnedInternalAccount> {
  if (!isPublicId('InternalAccount', accountId)) throw notFound('INTERNAL_ACCOUNT', accountId);
  const collection = Collections.internalAccounts;
  const doc = await getForPlatform<InternalAccountDoc>(
    readModels,
    collection,
    'INTERNAL_ACCOUNT',
    platformId,
    accountId,
  );
  if (!doc.customerId)
    throw invalid(
      'INVALID_INPUT',
      'platform settlement accounts cannot send or receive payments; use a customer account',
      field,
    );
  const { state: customer } = await runner.load(streams.customer(doc.customerId), customerDecider);
  const account = customer.accounts.get(accountId);
  if (!account) throw notFound('INTERNAL_ACCOUNT', accountId);
  return {
    id: accountId,
    customerId: doc.customerId,
    platformCustomerId: await platformCustomerIdOf(readModels, doc.customerId),
    type: account.type,
    currency: account.currency,
    status: account.status,
  };
}

export function requireActive(account: { id: string; status?: string }): void {
  if (account.status !== 'ACTIVE')
    throw conflict(
      'ACCOUNT_NOT_ACTIVE',
      `account ${account.id} is ${account.status} and cannot send or receive payments`,
    );
}

/**
 * Checks, as a quote starts, that its accounts can still take part (409 ACCOUNT_NOT_ACTIVE otherwise): an internal
 * source or destination still ACTIVE (its customer not deleted since the quote was made), an external destination
 * not deleted. Nothing moves before this.
 */
export async function requireLiveAccounts(
  runner: CommandRunner,
  readModels: ReadModelStore,
  quote: Pick<QuoteRecord, 'platformId' | 'source' | 'destination'>,
): Promise<void> {
  const { platformId, source, destination } = quote;
  const internal = (id: string, field: string) => loadCustomerAccount(runner, readModels, id, platformId, field);
  if (isPublicId('InternalAccount', source.accountId))
    requireActive(await internal(source.accountId, 'source.accountId'));
  if (destination.destinationType !== 'ACCOUNT') return;
  const { accountId } = destination;
  if (isPublicId('InternalAccount', accountId))
    return requireActive(await internal(accountId, 'destination.accountId'));
  const { state } = await runner.load(externalAccountStream(accountId), externalAccountDecider);
  requireActive({ id: accountId, status: state.exists ? state.status : 'DELETED' });
}

export type LiveExternalAccount = ExistingExternalAccount;

export async function loadLiveExternalAccount(
  runner: CommandRunner,
  accountId: string,
  platformId: string,
): Promise<LiveExternalAccount> {
  return loadExternalAccount(runner, accountId, platformId);
}

/** An external account used together with a customer's account must be that customer's or the platform's own. */
export function requireSameOwner(external: ExternalAccountState, customerId: string, field: string): void {
  if (external.customerId && external.customerId !== customerId) {
    throw new DomainError(
      'invalid',
      'ACCOUNT_OWNER_MISMATCH',
      `external account ${external.id} belongs to another customer`,
      {
        errors: [
          { field, constraint: 'ACCOUNT_OWNER_MISMATCH', message: 'the external account belongs to another customer' },
        ],
      },
    );
  }
}
