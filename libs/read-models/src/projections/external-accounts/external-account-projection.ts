import { accountInfoView } from '#domain/external-accounts/account-info-view.js';
import type { ExternalAccountEvent, ExternalAccountSnapshot } from '#domain/external-accounts/external-account.js';
import { defineProjection } from '../../projection.js';
import type { Doc, ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';
import { listIndexes } from '../list-indexes.js';

/** The external-account read model: the latest snapshot, keyed by id, deleted ones kept with status DELETED. */
export type ExternalAccountDoc = Doc & ExternalAccountSnapshot;

/**
 * The ExternalAccount resource: scoping and matching fields stay inside; accountInfo is read through the
 * upcaster, so documents of accounts stored under retired type or field names show today's.
 */
export function toExternalAccount(doc: ExternalAccountDoc): Record<string, unknown> {
  const { platformId: _p, primaryIdentifier: _i, beneficiary: _b, ...resource } = doc;
  return { ...resource, accountInfo: accountInfoView(doc) };
}

/** Every event carries the full snapshot, so the document is simply replaced. */
const putAccount = ({ data }: { data: { account: ExternalAccountSnapshot } }, tx: ProjectionTransaction) =>
  tx.put(Collections.externalAccounts, { ...data.account } as ExternalAccountDoc);

export const externalAccountProjection = defineProjection<ExternalAccountEvent>({
  name: 'external-accounts',
  collections: [Collections.externalAccounts],
  // The list's filters: a customer, a currency. Lists show active accounts of the customers or of the platform
  // (`customerId` set or not), which the indexes cover: a count reads no document.
  indexes: [
    ...listIndexes(Collections.externalAccounts, ['customerId'], { covers: ['status'] }),
    ...listIndexes(Collections.externalAccounts, [[], 'currency'], { covers: ['customerId', 'status'] }),
  ],
  on: { ExternalAccountCreated: putAccount, ExternalAccountUpdated: putAccount, ExternalAccountDeleted: putAccount },
});
