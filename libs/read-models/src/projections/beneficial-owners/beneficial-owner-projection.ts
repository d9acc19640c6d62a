import type { BeneficialOwnerEvent, BeneficialOwnerSnapshot } from '#domain/beneficial-owners/beneficial-owner.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import type { Projection } from '../../projection.js';
import type { Doc, ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';
import { listIndexes } from '../list-indexes.js';

/** A beneficial owner as stored: its latest snapshot, platformId included. */
export type BeneficialOwnerDoc = Doc & BeneficialOwnerSnapshot;

/** Beneficial owners of business customers; every event carries the full snapshot, so the document is replaced. */
export const beneficialOwnerProjection: Projection = {
  name: 'beneficial-owners',
  collections: [Collections.beneficialOwners],
  indexes: listIndexes(Collections.beneficialOwners, ['customerId']),
  handles: ['BeneficialOwnerCreated', 'BeneficialOwnerUpdated'],
  async apply(recorded: RecordedEvent, tx: ProjectionTransaction) {
    const event = { type: recorded.type, data: recorded.data } as BeneficialOwnerEvent;
    tx.put(Collections.beneficialOwners, { ...event.data.owner } as BeneficialOwnerDoc);
  },
};
