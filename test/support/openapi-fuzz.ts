import fc from 'fast-check';
import { badQueryValue, encodeComponent, LONE_SURROGATES } from './openapi-fuzz-strings.js';

/**
 * Generators of bad requests from the served OpenAPI document. Every generated request carries at least
 * one fault that the contract refuses (a value of the wrong type or out of its declared bounds, an unknown
 * field, a prototype key, a NUL character, too deep a body, a malformed body, a malformed or unknown id),
 * so the only right answer is a 4xx and no change of state. Values around the fault are valid where the
 * schema allows it, so the fault is what reaches the handler.
 */

export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
  maxProperties?: number;
  additionalProperties?: Schema | boolean;
  oneOf?: Schema[];
  $ref?: string;
};

export interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  query: { name: string; required: boolean; schema: Schema }[];
  body?: Schema;
  /** A multipart/form-data body (see openapi-fuzz-form.ts). */
  form?: Schema;
}

export interface BadRequest {
  /** The fault that makes this request bad, for the failure report. */
  fault: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body?: string;
}

/** Ids to put in path and body fields: real ones of the fuzzed platform, and real ones of another platform. */
export interface IdPools {
  own: Record<string, string[]>;
  foreign: string[];
}

export const UNKNOWN_FIELD = 'zzUnknownField';

export { encodeComponent, LONE_SURROGATES };

/** Id prefixes for well-formed ids that name nothing (fresh random uuids). */
const KINDS = [
  'Customer',
  'Card',
  'InternalAccount',
  'ExternalAccount',
  'Quote',
  'Transaction',
  'Session',
  'Token',
  'Lookup',
  'BeneficialOwner',
  'Document',
];
const MAX_DEPTH_TOO_DEEP = 3000;

export function operations(doc: { paths: Record<string, Record<string, any>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, byMethod] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(byMethod)) {
      const params = (op.parameters ?? []) as { name: string; in: string; required?: boolean; schema: Schema }[];
      ops.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, required: Boolean(p.required), schema: p.schema })),
        body: op.requestBody?.content?.['application/json']?.schema,
        form: op.requestBody?.content?.['multipart/form-data']?.schema,
      });
    }
  }
  return ops;
}

export class SchemaFuzzer {
  // Arbitraries are built once per schema node: building them (regexes above all) costs more than using them.
  private readonly validCache = new Map<Schema, fc.Arbitrary<unknown>>();
  private readonly badCache = new Map<Schema, fc.Arbitrary<unknown>>();
  private readonly patternCache = new Map<string, fc.Arbitrary<string>>();

  constructor(
    private readonly components: Record<string, Schema>,
    private readonly ids: IdPools,
  ) {}

  /** Follows `$ref` and merges sibling keywords (`{$ref, not}`, `{type, $ref}`). */
  resolve(schema: Schema): Schema {
    if (!schema.$ref) return schema;
    const { $ref, ...rest } = schema;
    return { ...rest, ...this.resolve(this.components[$ref.split('/').pop()!]) };
  }

  private types(s: Schema): string[] {
    if (s.oneOf) return [...new Set(s.oneOf.flatMap((b) => this.types(this.resolve(b))))];
    if (s.const !== undefined || s.enum) return [typeof (s.const ?? s.enum![0])];
    if (s.properties || s.additionalProperties) return ['object'];
    return Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  }

  /** A value the schema accepts (ids from the pools, so handlers get past their lookups). */
  valid(schema: Schema): fc.Arbitrary<unknown> {
    let arbitrary = this.validCache.get(schema);
    if (!arbitrary) this.validCache.set(schema, (arbitrary = this.buildValid(this.resolve(schema))));
    return arbitrary;
  }

  private buildValid(s: Schema): fc.Arbitrary<unknown> {
    if (s.const !== undefined) return fc.constant(s.const);
    if (s.oneOf) return fc.oneof(...s.oneOf.map((b) => this.valid(b)));
    if (s.enum) return fc.constantFrom(...s.enum);
    const type = this.types(s).find((t) => t !== 'null');
    if (type === 'string') return this.validString(s);
    if (type === 'integer' || type === 'number') {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 0);
      return fc.integer({ min, max: Math.min(s.maximum ?? min + 1000, min + 1000) });
    }
    if (type === 'boolean') return fc.boolean();
    if (type === 'array')
      return fc.array(this.valid(s.items ?? {}), {
        minLength: s.minItems ?? 0,
        maxLength: Math.min(s.maxItems ?? 3, 3),
      });
    if (s.properties) {
      const props = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, this.valid(v)]));
      return fc.record(props, { requiredKeys: s.required ?? [] });
    }
    if (typeof s.additionalProperties === 'object') {
      return fc.dictionary(fc.stringMatching(/^[A-Z_]{1,12}$/), this.valid(s.additionalProperties), {
        maxKeys: Math.min(s.maxProperties ?? 3, 3),
      });
    }
    return fc.constant('x');
  }

  private validString(s: Schema): fc.Arbitrary<unknown> {
    const kinds = s.pattern?.match(/^\^\(?([A-Za-z|]+)\)?:\[0-9a-f\]\{8\}/)?.[1];
    if (kinds) {
      const own = kinds.split('|').flatMap((k) => this.ids.own[k] ?? []);
      const fresh = fc.constantFrom(...kinds.split('|')).chain((k) => fc.uuid({ version: 4 }).map((u) => `${k}:${u}`));
      return own.length > 0 ? fc.oneof(fc.constantFrom(...own), fresh) : fresh;
    }
    if (s.format === 'email') return fc.emailAddress().filter((e) => e.length <= (s.maxLength ?? 254));
    if (s.format === 'date') return fc.constantFrom('2026-01-05', '2025-12-31');
    if (s.format === 'date-time') return fc.constantFrom('2026-01-05T12:00:00.000Z', '2025-12-31T23:59:59Z');
    const max = Math.min(s.maxLength ?? 30, 30);
    if (s.pattern) return this.matching(s);
    return fc.string({ minLength: Math.max(s.minLength ?? 0, 1), maxLength: Math.max(max, s.minLength ?? 1) });
  }

  /**
   * A few strings matching the pattern, drawn once with a fixed seed: fc.stringMatching is slow on long
   * repetitions (`[0-9a-f]{128}`), and the values around a fault need not vary much.
   */
  private matching(s: Schema): fc.Arbitrary<string> {
    const key = `${s.pattern}/${s.minLength}/${s.maxLength}`;
    let arbitrary = this.patternCache.get(key);
    if (!arbitrary) {
      const regex = new RegExp(s.pattern!, 'u');
      const fits = (v: string) =>
        regex.test(v) && v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity);
      const samples = fc.sample(fc.stringMatching(new RegExp(s.pattern!)), { numRuns: 8, seed: 1 }).filter(fits);
      arbitrary = samples.length > 0 ? fc.constantFrom(...samples) : fc.constant('x');
      this.patternCache.set(key, arbitrary);
    }
    return arbitrary;
  }

  /** A value the schema refuses: wrong type, null, out of bounds, unknown enum value, NUL, too deep. */
  bad(schema: Schema): fc.Arbitrary<unknown> {
    let arbitrary = this.badCache.get(schema);
    if (!arbitrary) this.badCache.set(schema, (arbitrary = this.buildBad(this.resolve(schema))));
    return arbitrary;
  }

  private buildBad(s: Schema): fc.Arbitrary<unknown> {
    const types = this.types(s);
    const others: [string, unknown][] = [
      ['string', 'text'],
      ['integer', 7],
      ['number', 7.5],
      ['boolean', true],
      ['object', {}],
      ['array', []],
      ['array', [{}]],
      ['null', null],
    ];
    const wrong = others
      .filter(([t]) => !types.includes(t) && !(t === 'integer' && types.includes('number')))
      .map(([, v]) => v);
    if (types.length === 0) return deep();
    const choices: fc.Arbitrary<unknown>[] = [fc.constantFrom(...wrong), deep()];
    // null on its own too: optional fields that let it through as a value were the commonest 500
    if (!types.includes('null')) choices.push(fc.constant(null));
    if (types.includes('string') && !types.includes('null')) {
      choices.push(this.valid(s).map((v) => (typeof v === 'string' ? `${v}\u0000` : '\u0000')));
    }
    if (types.includes('string')) {
      // a lone surrogate anywhere in a string (JSON.stringify writes it as the escape \ud800)
      choices.push(
        fc
          .tuple(this.valid(s), fc.constantFrom(...LONE_SURROGATES), fc.boolean())
          .map(([v, u, first]) => (typeof v === 'string' ? (first ? `${u}${v}` : `${v}${u}`) : u)),
      );
    }
    if (s.enum || s.const !== undefined) choices.push(fc.constantFrom('UNKNOWN_VALUE', 'lowercase', ''));
    if (s.maxLength !== undefined)
      choices.push(fc.integer({ min: 1, max: 5000 }).map((n) => 'a'.repeat(s.maxLength! + n)));
    if (s.minLength) choices.push(fc.constant(''));
    if (types.includes('integer') || types.includes('number')) {
      choices.push(fc.constantFrom(2 ** 53 + 2, 1e300, Number.MAX_VALUE, -1e300));
      if (s.maximum !== undefined) choices.push(fc.integer({ min: 1, max: 1000 }).map((n) => s.maximum! + n));
      if (s.minimum !== undefined) choices.push(fc.constant(s.minimum - 1));
      if (s.exclusiveMinimum !== undefined) choices.push(fc.constantFrom(s.exclusiveMinimum, s.exclusiveMinimum - 5));
      if (types.includes('integer')) choices.push(fc.constantFrom(1.5, -0.25));
    }
    if (types.includes('array')) {
      if (s.items) choices.push(this.bad(s.items).map((item) => [item]));
      if (s.maxItems !== undefined)
        choices.push(fc.array(this.valid(s.items ?? {}), { minLength: s.maxItems + 1, maxLength: s.maxItems + 3 }));
      if (s.minItems) choices.push(fc.constant([]));
    }
    if (s.properties || (s.oneOf && types.includes('object')))
      choices.push(this.objectWithFault(s).map(([, value]) => value));
    return fc.oneof(...choices);
  }

  /** An object the schema refuses because of one fault; the fault is named for the report. */
  objectWithFault(schema: Schema): fc.Arbitrary<[string, Record<string, unknown>]> {
    const s = this.resolve(schema);
    if (s.oneOf) return fc.oneof(...s.oneOf.map((b) => this.objectWithFault(b)));
    const base = this.valid(s) as fc.Arbitrary<Record<string, unknown>>;
    const names = Object.keys(s.properties ?? {});
    type Fault = [string, (o: Record<string, unknown>) => Record<string, unknown>];
    const faults: fc.WeightedArbitrary<Fault>[] = [
      {
        weight: 1,
        arbitrary: fc
          .jsonValue({ maxDepth: 2 })
          .map((v): Fault => ['unknown field', (o) => ({ ...o, [UNKNOWN_FIELD]: v })]),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom('__proto__', 'constructor', 'prototype')
          .map((k): Fault => [`key ${k}`, (o) => withOwnKey(o, k, { polluted: true })]),
      },
      {
        weight: 1,
        arbitrary: fc
          .constantFrom(...LONE_SURROGATES)
          .map((u): Fault => [`key ${JSON.stringify(u)}`, (o) => withOwnKey(o, `k${u}`, 1)]),
      },
    ];
    if (names.length > 0) {
      // most faults are one bad property value, so each property's checks are exercised
      const one = fc
        .constantFrom(...names)
        .chain((name) =>
          this.bad(s.properties![name]).map((v): Fault => [`${name}=${preview(v)}`, (o) => ({ ...o, [name]: v })]),
        );
      faults.push({ weight: 6, arbitrary: one });
    }
    return fc.tuple(base, fc.oneof(...faults)).map(([o, [name, apply]]) => [name, apply(o)]);
  }

  /** Request bodies (as text, with their content type) that the operation must refuse. */
  badBody(op: Operation): fc.Arbitrary<{ fault: string; body: string; contentType: string }> {
    const json = (fault: string, body: string) => ({ fault, body, contentType: 'application/json' });
    const choices: fc.Arbitrary<{ fault: string; body: string; contentType: string }>[] = [
      fc.constantFrom('[]', '"text"', '5', 'null', 'true', '[{}]').map((b) => json(`top level ${b}`, b)),
      fc
        .constantFrom('{', '{"a":}', "{'a':1}", '{"a":1,}', 'undefined', '{"a":"\\x"}', '\u0000')
        .map((b) => json(`malformed ${JSON.stringify(b)}`, b)),
      fc
        .integer({ min: 33, max: MAX_DEPTH_TOO_DEEP })
        .map((d) => json(`nested ${d} deep`, `{"a":${'['.repeat(d)}${']'.repeat(d)}}`)),
    ];
    if (op.body) {
      choices.push(this.objectWithFault(op.body).map(([fault, value]) => json(fault, JSON.stringify(value))));
      choices.push(this.objectWithFault(op.body).map(([fault, value]) => json(fault, JSON.stringify(value))));
      // a valid body with one of its keys given twice, first with another value: the last would win
      choices.push(
        fc.tuple(this.valid(op.body), fc.jsonValue({ maxDepth: 1 })).map(([value, other]) => {
          const text = JSON.stringify(value);
          const key = Object.keys(value as object)[0] ?? 'a';
          const rest = text === '{}' ? `${JSON.stringify(key)}:2}` : text.slice(1);
          return json(`key ${key} twice`, `{${JSON.stringify(key)}:${JSON.stringify(other)},${rest}`);
        }),
      );
      if (this.resolve(op.body).required?.length) {
        // without a JSON content type the body is not read: the required fields are missing
        // (an empty content type: fetch would label a string body text/plain otherwise)
        choices.push(
          fc
            .tuple(this.valid(op.body), fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', ''))
            .map(([value, contentType]) => ({
              fault: `content type ${contentType || 'none'}`,
              body: JSON.stringify(value),
              contentType,
            })),
        );
      }
    }
    return fc.oneof(...choices);
  }

  /** A query string with one refused value, or a missing required parameter, or an unknown one. */
  badQuery(op: Operation): fc.Arbitrary<{ fault: string; query: string }> {
    const choices: fc.Arbitrary<{ fault: string; query: string }>[] = [
      fc
        .string({ minLength: 1, maxLength: 5 })
        .map((v) => ({ fault: 'unknown parameter', query: `${UNKNOWN_FIELD}=${encodeComponent(v)}` })),
    ];
    const required = op.query.filter((q) => q.required);
    const validRequired = () =>
      fc
        .tuple(...required.map((q) => this.valid(q.schema)))
        .map((vs) => vs.map((v, i) => `${required[i].name}=${encodeComponent(String(v))}`));
    for (const q of op.query) {
      const others = () => (q.required ? fc.constant([] as string[]) : validRequired());
      choices.push(
        fc.tuple(badQueryValue(q.name, this.resolve(q.schema)), others()).map(([values, rest]) => ({
          fault: `${q.name}=${preview(values)}`,
          query: [...rest, ...values.map((v) => `${q.name}=${encodeComponent(v)}`)].join('&'),
        })),
      );
    }
    if (required.length > 0) choices.push(fc.constant({ fault: `missing ${required.map((q) => q.name)}`, query: '' }));
    return fc.oneof(...choices);
  }

  /** A path segment that names nothing of the platform: malformed, unknown, or another platform's. */
  badId(lastSegmentOfGet: boolean): fc.Arbitrary<string> {
    const choices: fc.Arbitrary<string>[] = [
      fc.constantFrom(
        '../customers',
        '../../etc/passwd',
        '..%2F',
        'not-an-id',
        ' ',
        '\u0000',
        'Card:',
        'Card:not-a-uuid',
        ...LONE_SURROGATES,
        `Customer:${LONE_SURROGATES[0]}`,
      ),
      fc
        .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
        .filter((v) => v.trim() !== '' && v !== '.' && v !== '..'),
      fc.tuple(fc.constantFrom(...KINDS), fc.uuid({ version: 4 })).map(([k, u]) => `${k}:${u}`),
      fc.uuid({ version: 4 }),
    ];
    if (this.ids.foreign.length > 0) choices.push(fc.constantFrom(...this.ids.foreign));
    // an empty trailing segment of a GET turns the request into the collection's list: not a bad request
    if (!lastSegmentOfGet) choices.push(fc.constant(''));
    return fc.oneof(...choices);
  }
}

/** JSON nested `depth` levels of arrays: past the body depth limit wherever it is placed. */
const deep = () =>
  fc.integer({ min: 33, max: MAX_DEPTH_TOO_DEEP }).map((d) => JSON.parse(`${'['.repeat(d)}${']'.repeat(d)}`));

/** An own `__proto__` key survives JSON.stringify only when defined as a property, never by assignment. */
function withOwnKey(o: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = { ...o };
  Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
  return copy;
}

function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…(${text.length})` : text;
}
