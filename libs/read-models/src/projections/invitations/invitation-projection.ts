import type { InvitationEvent, InvitationSnapshot } from '#domain/invitations/invitation.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import type { Projection } from '../../projection.js';
import type { Doc, ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';

/**
 * Invitations keyed by code. `status` is the stored one (PENDING, CLAIMED, CANCELLED); EXPIRED
 * depends on the clock, so readers derive it (a projection must not read the clock).
 */
export type InvitationDoc = Doc & InvitationSnapshot;

export const invitationProjection: Projection = {
  name: 'invitations',
  collections: [Collections.invitations],
  handles: ['InvitationCreated', 'InvitationCancelled', 'InvitationClaimed'],
  async apply(recorded: RecordedEvent, tx: ProjectionTransaction) {
    const event = { type: recorded.type, data: recorded.data } as InvitationEvent;
    tx.put(Collections.invitations, { id: event.data.code, ...event.data.invitation });
  },
};
