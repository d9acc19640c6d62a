import type { components } from './generated/openapi.js';

/** The service's error body (`{status, code, message, reason?, details?}`), as the OpenAPI document describes it. */
export type ErrorBody = components['schemas']['Error'];

/**
 * The codes a client most often branches on (the document types `code` as a string: `<RESOURCE>_NOT_FOUND`,
 * `<RESOURCE>_EXISTS` and others exist too). `ErrorCode` keeps editor completion for these and accepts any string.
 */
export type KnownErrorCode =
  | 'INVALID_INPUT'
  | 'MISSING_FIELD'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CUSTOMER_NOT_FOUND'
  | 'INTERNAL_ACCOUNT_NOT_FOUND'
  | 'EXTERNAL_ACCOUNT_NOT_FOUND'
  | 'CONFLICT'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'INVALID_STATE_TRANSITION'
  | 'INSUFFICIENT_FUNDS'
  | 'VELOCITY_LIMIT_EXCEEDED'
  | 'QUOTE_EXPIRED'
  | 'CHALLENGE_EXPIRED'
  | 'SESSION_EXPIRED'
  | 'WALLET_SIGNATURE_MISSING'
  | 'WALLET_SIGNATURE_MALFORMED'
  | 'WALLET_SIGNATURE_INVALID'
  | 'WALLET_SIGNATURE_BODY_MISMATCH'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED'
  | 'INTERNAL_ERROR';
export type ErrorCode = KnownErrorCode | (string & {});

export type FieldError = NonNullable<NonNullable<ErrorBody['details']>['errors']>[number];

export interface ErrorDetails {
  errors?: FieldError[];
  [key: string]: unknown;
}

/** Thrown for every 4xx/5xx answer: the status, the service's `code` and `message`, and `reason` when given. */
export class PaymentsApiError<C extends ErrorCode = ErrorCode> extends Error {
  override readonly name = 'PaymentsApiError';
  constructor(
    readonly status: number,
    readonly code: C,
    message: string,
    /** Why authentication or a signed retry was refused (e.g. `invalid token id or secret`). */
    readonly reason?: string,
    readonly details?: ErrorDetails,
    /** Seconds to wait, from `Retry-After` (429). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  /** The field errors of an INVALID_INPUT answer (empty otherwise). */
  get fieldErrors(): FieldError[] {
    return this.details?.errors ?? [];
  }
}

/** Narrows an unknown error to a PaymentsApiError, maybe of one code: `if (isPaymentsApiError(e, 'NOT_FOUND'))`. */
export function isPaymentsApiError<C extends ErrorCode>(error: unknown, code?: C): error is PaymentsApiError<C> {
  return error instanceof PaymentsApiError && (code === undefined || error.code === code);
}
