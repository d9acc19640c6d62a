import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { FieldError } from '#domain/errors.js';
import { ApiError, invalidInput, malformedJson } from './errors.js';

/** Deepest nesting a body may have. The deepest body the API defines has 4 levels; 32 leaves room. */
export const MAX_BODY_DEPTH = 32;

/** Keys that reach object prototypes when a body is merged or spread into another object. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Field errors are capped so a body with thousands of bad strings does not produce a huge answer. */
const MAX_ERRORS = 20;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether raw UTF-8 JSON nests deeper than `max`, scanned before parsing: the validators, class-transformer
 * and every recursive walk after them overflow the stack on bodies a few thousand levels deep, and parsing
 * such a body first would already cost most of a second. UTF-8 multi-byte sequences never contain ASCII
 * bytes, so the byte scan is exact.
 */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}

const fieldOf = (path: string, key: string) => (path ? `${path}.${key}` : key);

/**
 * Field errors for values no endpoint accepts, anywhere in a parsed body: a top level that is not an
 * object, prototype keys (`__proto__`, `constructor`, `prototype`) and NUL characters in keys or strings
 * (they truncate in C-based stores and logs and hide the rest of a value from people reading it).
 */
export function unsafeBodyValues(body: unknown): FieldError[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return [{ field: 'body', constraint: 'isObject', message: 'the body must be a JSON object' }];
  }
  const errors: FieldError[] = [];
  const stack: [unknown, string][] = [[body, '']];
  while (stack.length > 0 && errors.length < MAX_ERRORS) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) {
        errors.push({ field: path, constraint: 'noNulCharacter', message: `${path} must not contain NUL characters` });
      }
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push([item, fieldOf(path, String(i))]));
    } else if (typeof value === 'object' && value !== null) {
      for (const key of Object.keys(value)) {
        const field = fieldOf(path, key);
        if (FORBIDDEN_KEYS.has(key)) {
          errors.push({ field, constraint: 'forbiddenKey', message: `${key} is not allowed as a field name` });
        } else if (key.includes('\u0000')) {
          errors.push({ field, constraint: 'noNulCharacter', message: 'field names must not contain NUL characters' });
        } else {
          stack.push([(value as Record<string, unknown>)[key], field]);
        }
      }
    }
  }
  return errors;
}

/** Carries an ApiError through body-parser, which would overwrite the error's own `body` with the raw bytes. */
class RefusedBody extends Error {
  readonly status: number;
  constructor(readonly refusal: ApiError) {
    super(refusal.message);
    this.status = refusal.getStatus();
  }
}

/** Refuses raw JSON the service does not parse: another charset than UTF-8, or nesting past MAX_BODY_DEPTH. */
function checkRawJson(bytes: Uint8Array, encoding: string): void {
  // RFC 8259 §8.1: JSON exchanged between systems is UTF-8; the depth scan relies on it.
  if (encoding.toLowerCase() !== 'utf-8' && encoding.toLowerCase() !== 'utf8') {
    throw new ApiError({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'send the JSON body in UTF-8' });
  }
  if (nestsDeeperThan(bytes, MAX_BODY_DEPTH)) {
    const message = `the body must not nest deeper than ${MAX_BODY_DEPTH} levels`;
    throw invalidInput([{ field: 'body', constraint: 'maxDepth', message }]);
  }
}

function refuseDeepBodies(_req: Request, _res: Response, bytes: Buffer, encoding: string): void {
  try {
    checkRawJson(bytes, encoding);
  } catch (error) {
    throw new RefusedBody(error as ApiError);
  }
}

/** Refuses a parsed body with unsafe values (see `unsafeBodyValues`). */
function checkParsed(body: unknown): void {
  const errors = unsafeBodyValues(body);
  if (errors.length > 0) throw invalidInput(errors);
}

/**
 * The JSON body parser of the API: express.json with a depth limit checked before parsing and a walk
 * that refuses unsafe values after it. Failures reach the body error middleware as ApiErrors.
 */
export function jsonBody(options: { limit?: string } = {}): RequestHandler {
  const parse = express.json({ limit: options.limit ?? '1mb', strict: false, verify: refuseDeepBodies });
  return (req: Request, res: Response, next: NextFunction) => {
    parse(req, res, (error?: unknown) => {
      if (error) return next(error instanceof RefusedBody ? error.refusal : error);
      // undefined: no JSON body was sent (no body, or another content type).
      if (req.body === undefined) return next();
      try {
        checkParsed(req.body);
        next();
      } catch (refusal) {
        next(refusal);
      }
    });
  };
}

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;

/**
 * The same parser for a body Fastify read (its content-type parser for application/json): the same checks in the
 * same order, an empty body as `{}` like express.json, malformed JSON as 400 INVALID_INPUT. Throws ApiErrors.
 */
export function parseJsonBytes(bytes: Buffer, contentType: string | undefined): unknown {
  checkRawJson(bytes, CHARSET.exec(contentType ?? '')?.[1] ?? 'utf-8');
  if (bytes.length === 0) return {};
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw malformedJson();
  }
  checkParsed(body);
  return body;
}
