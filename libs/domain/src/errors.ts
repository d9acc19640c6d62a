/**
 * Business rule failures. The domain names the kind of failure; the HTTP edge maps kinds to
 * status codes (invalid 400, unauthorized 401, forbidden 403, not_found 404, conflict 409, gone 410,
 * unprocessable 422, rate_limited 429 with `details.retryAfterSeconds`).
 */
export type DomainErrorKind =
  'invalid' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'gone' | 'unprocessable' | 'rate_limited';

export interface FieldError {
  field: string;
  constraint: string;
  message: string;
}

export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly kind: DomainErrorKind,
    readonly code: string,
    message: string,
    readonly details?: { errors?: FieldError[]; reason?: string; [key: string]: unknown },
  ) {
    super(message);
  }
}

export const invalid = (code: string, message: string, field?: string) =>
  new DomainError('invalid', code, message, field ? { errors: [{ field, constraint: code, message }] } : undefined);
export const notFound = (resource: string, id: string) =>
  new DomainError(
    'not_found',
    `${resource.toUpperCase()}_NOT_FOUND`,
    `${resource.toLowerCase().replace(/_/g, ' ')} ${id} not found`,
  );
export const conflict = (code: string, message: string) => new DomainError('conflict', code, message);
