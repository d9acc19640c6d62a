import type { InvitationEvent, InvitationSnapshot } from '#domain/invitations/invitation.js';
import { defineProjection } from '../../projection.js';
import type { Doc, ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';

/**
 * Invitations keyed by code. `status` is the stored one (PENDING, CLAIMED, CANCELLED); EXPIRED
 * depends on the clock, so readers derive it (a projection must not read the clock).
 */
export type InvitationDoc = Doc & InvitationSnapshot;

/** Every event carries the whole invitation, so the document is simply replaced. */
const putInvitation = ({ data }: InvitationEvent, tx: ProjectionTransaction) =>
  tx.put(Collections.invitations, { id: data.code, ...data.invitation });

export const invitationProjection = defineProjection<InvitationEvent>({
  name: 'invitations',
  collections: [Collections.invitations],
  on: { InvitationCreated: putInvitation, InvitationCancelled: putInvitation, InvitationClaimed: putInvitation },
});
