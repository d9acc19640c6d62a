import type { CustomerEvent } from '#domain/customer/customer.js';
import { customerFields, statusFieldOf } from '#domain/customer/customer-fields.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import type { Projection } from '../../projection.js';
import type { Doc, ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';
import { listIndexes } from '../list-indexes.js';
import { amendDoc } from '../amend-doc.js';

/** Customers: the API resource plus platformId. */
export const customerProjection: Projection = {
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
  handles: [
    'CustomerCreated',
    'CustomerUpdated',
    'CustomerDeleted',
    'CustomerKycStatusChanged',
    'CustomerKycStatusCleared',
  ],
  async apply(recorded: RecordedEvent, tx: ProjectionTransaction) {
    const event = { type: recorded.type, data: recorded.data } as CustomerEvent;
    switch (event.type) {
      case 'CustomerCreated': {
        const d = event.data;
        tx.put(Collections.customers, {
          id: d.customerId,
          platformId: d.platformId,
          platformCustomerId: d.platformCustomerId,
          ...customerFields(d),
          isDeleted: false,
          createdAt: d.createdAt,
          updatedAt: d.createdAt,
        });
        break;
      }
      case 'CustomerUpdated': {
        const { customerId, changes, updatedAt } = event.data;
        await amendDoc(tx, Collections.customers, customerId, { ...changes, updatedAt });
        break;
      }
      case 'CustomerDeleted': {
        await amendDoc(tx, Collections.customers, event.data.customerId, {
          isDeleted: true,
          updatedAt: event.data.deletedAt,
        });
        break;
      }
      case 'CustomerKycStatusChanged':
      case 'CustomerKycStatusCleared': {
        const doc = await tx.get<Doc>(Collections.customers, event.data.customerId);
        if (doc) {
          tx.put(Collections.customers, {
            ...doc,
            [statusFieldOf(doc.customerType)]: event.data.kycStatus,
            updatedAt: event.data.updatedAt,
          });
        }
        break;
      }
    }
  },
};
