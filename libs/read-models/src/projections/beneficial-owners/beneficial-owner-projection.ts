import type { BeneficialOwnerEvent, BeneficialOwnerSnapshot } from '#domain/beneficial-owners/beneficial-owner.js';
import { defineProjection } from '../../projection.js';
import type { Doc, ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';
import { listIndexes } from '../list-indexes.js';

/** A beneficial owner as stored: its latest snapshot, platformId included. */
export type BeneficialOwnerDoc = Doc & BeneficialOwnerSnapshot;

/** Beneficial owners of business customers; every event carries the full snapshot, so the document is replaced. */
const putOwner = ({ data }: BeneficialOwnerEvent, tx: ProjectionTransaction) =>
  tx.put(Collections.beneficialOwners, { ...data.owner } as BeneficialOwnerDoc);

export const beneficialOwnerProjection = defineProjection<BeneficialOwnerEvent>({
  name: 'beneficial-owners',
  collections: [Collections.beneficialOwners],
  indexes: listIndexes(Collections.beneficialOwners, ['customerId']),
  on: { BeneficialOwnerCreated: putOwner, BeneficialOwnerUpdated: putOwner },
});
