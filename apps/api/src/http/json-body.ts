import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { FieldError } from '#domain/errors.js';
import { ApiError, invalidInput, malformedJson } from './errors.js';

/** Deepest nesting a body may have. The deepest body the API defines has 4 levels; 32 leaves room. */
export const MAX_BODY_DEPTH = 32;

/** Keys that reach object prototypes when a body is merged or spread into another object. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A UTF-16 surrogate that is not half of a pair (with the u flag a pair is one code point, never matched). */
const LONE_SURROGATE = /\p{Cs}/u;

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
  return scanJson(bytes, max).tooDeep;
}

/** An object or array being scanned: the keys seen so far (objects) and where its values are. */
interface Frame {
  path: string;
  keys?: Set<string>;
  expectKey: boolean;
  key: string;
  index: number;
}

const pathOf = (frame: Frame | undefined) =>
  frame === undefined ? '' : fieldOf(frame.path, frame.keys ? frame.key : String(frame.index));

const COMMA = 0x2c;

/** A key's text: its raw bytes, unescaped when it holds escapes (left raw when they are malformed: parsing fails). */
function keyText(bytes: Uint8Array, start: number, end: number, escaped: boolean): string {
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
  if (!escaped) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/**
 * One pass over raw UTF-8 JSON before it is parsed: whether it nests deeper than `max` (the scan stops there), and
 * the keys repeated within one object, which JSON.parse would silently resolve to the last value while a log, a
 * firewall or another parser reading the first sees another (`{"amount":1,"amount":100000}`). The errors only
 * matter once the JSON has parsed: on malformed input the scan still ends but its findings mean nothing.
 */
export function scanJson(bytes: Uint8Array, max: number): { tooDeep: boolean; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const stack: Frame[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === QUOTE) {
      const start = i + 1;
      let escaped = false;
      for (i = start; i < bytes.length && bytes[i] !== QUOTE; i++) {
        if (bytes[i] === BACKSLASH) {
          escaped = true;
          i++;
        }
      }
      const top = stack[stack.length - 1];
      if (top?.keys && top.expectKey) {
        top.expectKey = false;
        top.key = keyText(bytes, start, i, escaped);
        if (top.keys.has(top.key) && errors.length < MAX_ERRORS) {
          const field = pathOf(top);
          errors.push({ field, constraint: 'noDuplicateKey', message: `${field} is given more than once` });
        }
        top.keys.add(top.key);
      }
    } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (stack.length >= max) return { tooDeep: true, errors };
      const path = pathOf(stack[stack.length - 1]);
      stack.push({ path, expectKey: true, key: '', index: 0, ...(b === OPEN_OBJECT ? { keys: new Set() } : {}) });
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      stack.pop();
    } else if (b === COMMA) {
      const top = stack[stack.length - 1];
      if (top?.keys) top.expectKey = true;
      else if (top) top.index++;
    }
  }
  return { tooDeep: false, errors };
}

const fieldOf = (path: string, key: string) => (path ? `${path}.${key}` : key);

/**
 * Field errors for values no endpoint accepts, anywhere in a parsed body: a top level that is not an
 * object, prototype keys (`__proto__`, `constructor`, `prototype`), NUL characters in keys or strings
 * (they truncate in C-based stores and logs and hide the rest of a value from people reading it), and lone
 * surrogates (`"\ud800"` not paired: such a string has no UTF-8 form, so it cannot be stored, signed or forwarded).
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
      } else if (LONE_SURROGATE.test(value)) {
        errors.push({ field: path, constraint: 'wellFormedUnicode', message: `${path} must be well-formed Unicode` });
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
        } else if (LONE_SURROGATE.test(key)) {
          const message = 'field names must be well-formed Unicode';
          errors.push({ field: path || 'body', constraint: 'wellFormedUnicode', message });
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

/**
 * Refuses raw JSON the service does not parse: another charset than UTF-8, or nesting past MAX_BODY_DEPTH. Answers
 * the repeated keys, refused once the body has parsed (malformed JSON is told as such first).
 */
function checkRawJson(bytes: Uint8Array, encoding: string): FieldError[] {
  // RFC 8259 §8.1: JSON exchanged between systems is UTF-8; the depth scan relies on it.
  if (encoding.toLowerCase() !== 'utf-8' && encoding.toLowerCase() !== 'utf8') {
    throw new ApiError({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'send the JSON body in UTF-8' });
  }
  const scan = scanJson(bytes, MAX_BODY_DEPTH);
  if (scan.tooDeep) {
    const message = `the body must not nest deeper than ${MAX_BODY_DEPTH} levels`;
    throw invalidInput([{ field: 'body', constraint: 'maxDepth', message }]);
  }
  return scan.errors;
}

/** The repeated keys found in a request's raw body, until its parsed body is checked. */
const repeatedKeys = new WeakMap<Request, FieldError[]>();

/**
 * The raw JSON bytes of the requests whose signature covers them (a card processor's messages: an HMAC of the exact
 * body), kept until the request is gone.
 */
const rawBodies = new WeakMap<object, Buffer>();
const KEEPS_RAW_BODY = /\/(card-processor|kyc-provider)\//i;

/** Keeps `bytes` as the raw body of `req` when its route verifies a signature over them. */
export function keepRawBody(req: object, url: string | undefined, bytes: Buffer): void {
  if (url !== undefined && KEEPS_RAW_BODY.test(url)) rawBodies.set(req, bytes);
}

/** The raw JSON body of a request whose route verifies a signature over it (undefined for other routes). */
export const rawBodyOf = (req: object): Buffer | undefined => rawBodies.get(req);

function scanRawBody(req: Request, _res: Response, bytes: Buffer, encoding: string): void {
  keepRawBody(req, req.originalUrl ?? req.url, bytes);
  try {
    const errors = checkRawJson(bytes, encoding);
    if (errors.length > 0) repeatedKeys.set(req, errors);
  } catch (error) {
    throw new RefusedBody(error as ApiError);
  }
}

/** Refuses a parsed body with repeated keys or unsafe values (see `scanJson` and `unsafeBodyValues`). */
function checkParsed(body: unknown, repeated: FieldError[] = []): void {
  const errors = [...repeated, ...unsafeBodyValues(body)].slice(0, MAX_ERRORS);
  if (errors.length > 0) throw invalidInput(errors);
}

/**
 * The JSON body parser of the API: express.json with a depth limit and a scan for repeated keys before parsing, and a
 * walk that refuses unsafe values after it. Failures reach the body error middleware as ApiErrors.
 */
export function jsonBody(options: { limit?: string } = {}): RequestHandler {
  const parse = express.json({ limit: options.limit ?? '1mb', strict: false, verify: scanRawBody });
  return (req: Request, res: Response, next: NextFunction) => {
    parse(req, res, (error?: unknown) => {
      if (error) return next(error instanceof RefusedBody ? error.refusal : error);
      // undefined: no JSON body was sent (no body, or another content type).
      if (req.body === undefined) return next();
      try {
        checkParsed(req.body, repeatedKeys.get(req));
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
  const repeated = checkRawJson(bytes, CHARSET.exec(contentType ?? '')?.[1] ?? 'utf-8');
  if (bytes.length === 0) return {};
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw malformedJson();
  }
  checkParsed(body, repeated);
  return body;
}
