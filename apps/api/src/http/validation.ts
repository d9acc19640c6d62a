import { ValidationPipe, type ValidationError } from '@nestjs/common';
import type { FieldError } from '../../../../libs/domain/src/errors.js';
import { invalidInput } from './errors.js';

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const e of errors) {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    for (const [constraint, message] of Object.entries(e.constraints ?? {})) {
      out.push({ field, constraint, message: constraint === 'whitelistValidation' ? `${field} is not a known field` : message });
    }
    if (e.children?.length) out.push(...flatten(e.children, field));
  }
  return out;
}

/**
 * Every body and query goes through class-validator: unknown fields are refused, types are
 * checked (no implicit conversion of body values), and all failures come back as field errors.
 */
export function validationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => invalidInput(flatten(errors)),
  });
}
