import type {
  LegacyVerificationError,
  VerificationError,
  VerificationSnapshot,
  VerificationStatus,
} from './verification.js';

const isLegacy = (e: VerificationError | LegacyVerificationError): e is LegacyVerificationError => 'code' in e;

/**
 * The Verification resource (the public API's shape). Verifications recorded before that shape was
 * adopted are shown in it too: PENDING is IN_PROGRESS, `{field, code, message}` errors become
 * `{resourceId, type, reason, field}`, and a pending owner (which is no error there) is left out.
 */
export function toVerificationResource(v: VerificationSnapshot): {
  id: string;
  customerId: string;
  verificationStatus: VerificationStatus;
  errors: VerificationError[];
  createdAt: string;
  updatedAt: string;
} {
  const errors: VerificationError[] = [];
  for (const e of v.errors) {
    if (!isLegacy(e)) errors.push(e);
    else if (e.code === 'MISSING_FIELD')
      errors.push({
        resourceId: e.resourceId ?? v.customerId,
        type: 'MISSING_FIELD',
        field: e.field,
        reason: e.message,
      });
    else if (e.code === 'APPLICANT_REJECTED')
      errors.push({ resourceId: e.resourceId ?? v.customerId, type: 'APPLICANT_REJECTED', reason: e.message });
  }
  return {
    id: v.id,
    customerId: v.customerId,
    verificationStatus: v.verificationStatus === 'PENDING' ? 'IN_PROGRESS' : v.verificationStatus,
    errors,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  };
}
