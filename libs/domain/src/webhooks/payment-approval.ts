import type { RequestedField } from './payment-webhooks.js';

/**
 * What the platform's reply to an incoming-payment approval request (`INCOMING_PAYMENT.PENDING`)
 * decides, as the public API defines it:
 * - 200 (any 2xx but 202) approves; `receiverCustomerInfo` gives the requested receiver fields, and a
 *   mandatory one missing fails the payment instead (FAILED, `MISSING_MANDATORY_PAYEE_DATA`);
 * - 202 leaves it PENDING: the platform approves or rejects through the API (or it times out);
 * - 403 rejects it (REJECTED), with the reply's `reason` if any;
 * - 422 says counterparty information is missing (`requiredFields`): there is no way here to ask
 *   the sender for more, so it is rejected as well;
 * - 409 is a duplicate of a webhook already answered, which decided already.
 * Anything else decides nothing: the delivery failed and is retried.
 */
export type ApprovalReply =
  | { decision: 'APPROVE'; receiverCustomerInfo?: Record<string, unknown> }
  | { decision: 'WAIT' }
  | { decision: 'REJECT'; reason?: string; requiredFields?: string[] }
  | { decision: 'FAIL'; failureReason: 'MISSING_MANDATORY_PAYEE_DATA'; missingFields: string[] };

/** Statuses that acknowledge an approval request without approving it (besides 2xx and 409). */
export const APPROVAL_ANSWERS = [403, 422] as const;

function parse(body: string | undefined): Record<string, unknown> | undefined {
  if (!body) return undefined;
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const text = (value: unknown, max = 500) =>
  typeof value === 'string' && value !== '' ? value.slice(0, max) : undefined;

export function approvalReply(
  statusCode: number | undefined,
  body: string | undefined,
  requested: readonly RequestedField[] = [],
): ApprovalReply | undefined {
  if (statusCode === undefined) return undefined;
  const reply = parse(body);
  if (statusCode === 202) return { decision: 'WAIT' };
  if (statusCode >= 200 && statusCode < 300) {
    const raw = reply?.receiverCustomerInfo;
    const info = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
    const given = (name: string) => info?.[name] !== undefined && info[name] !== null && info[name] !== '';
    const missingFields = requested.filter((f) => f.mandatory && !given(f.name)).map((f) => f.name);
    if (missingFields.length > 0)
      return { decision: 'FAIL', failureReason: 'MISSING_MANDATORY_PAYEE_DATA', missingFields };
    return info ? { decision: 'APPROVE', receiverCustomerInfo: info } : { decision: 'APPROVE' };
  }
  if (statusCode === 403) {
    const reason = text(reply?.reason) ?? text(reply?.message);
    return reason ? { decision: 'REJECT', reason } : { decision: 'REJECT' };
  }
  if (statusCode === 422) {
    const fields = Array.isArray(reply?.requiredFields)
      ? reply.requiredFields.filter((f): f is string => typeof f === 'string').slice(0, 50)
      : [];
    return {
      decision: 'REJECT',
      reason: `counterparty information required${fields.length ? `: ${fields.join(', ')}` : ''}`,
      requiredFields: fields,
    };
  }
  return undefined;
}

/** The receiver fields an approval request asked for (in the body sent). */
export function requestedFieldsOf(body: string): RequestedField[] {
  try {
    const fields = (JSON.parse(body) as { data?: { requestedReceiverCustomerInfoFields?: unknown } }).data
      ?.requestedReceiverCustomerInfoFields;
    return Array.isArray(fields) ? (fields as RequestedField[]) : [];
  } catch {
    return [];
  }
}
