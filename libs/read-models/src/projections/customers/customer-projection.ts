import type { CustomerEvent } from '#domain/customers/customer.js';
import { customerFields, statusFieldOf } from '#domain/customers/customer-fields.js';
import { amendDoc, defineProjection } from '../../projection.js';
import type { Doc, ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';
import { listIndexes } from '../list-indexes.js';

/** Customers: the API resource plus platformId. */
/** A KYC status set or cleared: written to the status field of the customer's type. */
async function setKycStatus(
  { data }: Extract<CustomerEvent, { type: 'CustomerKycStatusChanged' | 'CustomerKycStatusCleared' }>,
  tx: ProjectionTransaction,
): Promise<void> {
  const doc = await tx.get<Doc>(Collections.customers, data.customerId);
  if (doc) {
    tx.put(Collections.customers, {
      ...doc,
      [statusFieldOf(doc.customerType)]: data.kycStatus,
      updatedAt: data.updatedAt,
    });
  }
}

export const customerProjection = defineProjection<CustomerEvent>({
  name: 'customers',
  collections: [Collections.customers],
  replayWeight: 12,
  // The list's selective filters (bench `lists`): a lookup by key or a rare type never walks the whole collection.
  // Lists leave deleted customers out (`isDeleted` false), so the list indexes hold that flag: a page and its count
  // are answered from the index alone.
  indexes: [
    ...listIndexes(Collections.customers, [[], 'platformCustomerId', 'customerType'], {
      flags: ['isDeleted'],
      counted: [[], 'customerType'],
    }),
    ...listIndexes(Collections.customers, ['umaAddress']),
  ],
  on: {
    CustomerCreated: ({ data: d }, tx) =>
      tx.put(Collections.customers, {
        id: d.customerId,
        platformId: d.platformId,
        platformCustomerId: d.platformCustomerId,
        ...customerFields(d),
        isDeleted: false,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
      }),
    CustomerUpdated: async ({ data: { customerId, changes, updatedAt } }, tx) => {
      await amendDoc(tx, Collections.customers, customerId, { ...changes, updatedAt });
    },
    CustomerDeleted: async ({ data }, tx) => {
      await amendDoc(tx, Collections.customers, data.customerId, { isDeleted: true, updatedAt: data.deletedAt });
    },
    CustomerKycStatusChanged: setKycStatus,
    CustomerKycStatusCleared: setKycStatus,
  },
});
