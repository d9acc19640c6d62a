import { Matches } from 'class-validator';
import { CURRENCY_CODE_PATTERN, CURRENCY_CODE_TEXT } from '#domain/primitives.js';

/**
 * A currency code as the public API takes it: a free ISO 4217-shaped string, not an enumeration. Where money
 * moves, the application refuses codes the service does not support (400 INVALID_CURRENCY); filters on an
 * unsupported code simply match nothing.
 */
export const IsCurrencyCode = (field: string, each = false) =>
  Matches(CURRENCY_CODE_PATTERN, {
    each,
    message: each ? `each ${field} must be ${CURRENCY_CODE_TEXT}` : `${field} must be ${CURRENCY_CODE_TEXT}`,
  });
