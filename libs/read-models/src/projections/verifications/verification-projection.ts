import type { VerificationEvent, VerificationSnapshot } from '#domain/verifications/verification.js';
import { toVerificationResource } from '#domain/verifications/verification-view.js';
import { defineProjection } from '../../projection.js';
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

/** Stored in the public API's shape (older verifications are converted), scoping fields beside it. */
function putVerification({ data }: { data: { verification: VerificationSnapshot } }, tx: ProjectionTransaction) {
  const { platformId, customerType } = data.verification;
  tx.put(Collections.verifications, { ...toVerificationResource(data.verification), platformId, customerType });
}

export const verificationProjection = defineProjection<VerificationEvent>({
  name: 'verifications',
  collections: [Collections.verifications],
  on: { VerificationCreated: putVerification, VerificationReviewed: putVerification },
});
