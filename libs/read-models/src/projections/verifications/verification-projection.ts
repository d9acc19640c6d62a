import type { VerificationEvent, VerificationSnapshot } from '#domain/verifications/verification.js';
import { toVerificationResource } from '#domain/verifications/verification-view.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import type { Projection } from '../../projection.js';
import type { Doc, ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';

/**
 * The Verification resource: scoping fields stay inside. Documents projected before the public API's
 * shape was adopted are shown in it too (a rebuild of this projection stores them so).
 */
export function toVerification(doc: Doc): Record<string, unknown> {
  const { platformId: _p, customerType: _t, ...resource } = doc;
  return { ...resource, ...toVerificationResource(doc as unknown as VerificationSnapshot) };
}

export const verificationProjection: Projection = {
  name: 'verifications',
  collections: [Collections.verifications],
  handles: ['VerificationCreated'],
  async apply(recorded: RecordedEvent, tx: ProjectionTransaction) {
    const event = { type: recorded.type, data: recorded.data } as VerificationEvent;
    // Stored in the public API's shape (older verifications are converted), scoping fields beside it.
    const { platformId, customerType } = event.data.verification;
    tx.put(Collections.verifications, {
      ...toVerificationResource(event.data.verification),
      platformId,
      customerType,
    });
  },
};
