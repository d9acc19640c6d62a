import { createHash } from 'node:crypto';
import { InvalidCursor, type FilterOp, type Query } from './read-model-store.js';

/**
 * Query validation and the cursor scheme shared by every ReadModelStore adapter, so both
 * translate the same normalized plan and page the same way.
 */
export type Scalar = string | number | boolean | null;

export type PlanFilter =
  | { field: string; op: 'eq' | 'ne' | 'contains'; value: Scalar }
  | { field: string; op: 'gt' | 'gte' | 'lt' | 'lte'; value: string | number | boolean }
  | { field: string; op: 'in'; value: Scalar[] }
  | { field: string; op: 'exists'; value: boolean };

/** Where the previous page ended: the last document's sort value and id. */
export interface After {
  value: Scalar;
  id: string;
}

export interface QueryPlan {
  filters: PlanFilter[];
  sortBy: string;
  sortOrder: 'asc' | 'desc';
  limit: number;
  after?: After;
  /** Short hash of collection, filters and sort: a cursor only fits the query that made it. */
  fingerprint: string;
}

export const DEFAULT_SORT = 'createdAt';
export const MAX_LIMIT = 1000;

// Fields are inlined into SQL paths (so expression indexes match), hence the strict shape.
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const OPS: readonly FilterOp[] = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'contains', 'exists'];

function field(name: unknown): string {
  if (typeof name !== 'string' || !FIELD.test(name))
    throw new TypeError(`invalid read-model field name: ${String(name)}`);
  return name;
}

/** An index's declared shape (an IndexSpec without its collection). */
export interface IndexShape {
  fields: readonly string[];
  flags?: readonly string[];
  covers?: readonly string[];
}

/** Validates an index's field names (the SQLite store inlines them) and names the index after them. */
export function indexNameOf({ fields, flags = [], covers = [] }: IndexShape): string {
  if (fields.length === 0) throw new TypeError('an index needs at least one field');
  const part = (names: readonly string[]) => names.map((f) => field(f).replace(/\./g, '__')).join('_');
  const suffix = (label: string, names: readonly string[]) => (names.length ? `_${label}_${part(names)}` : '');
  return `by_${part(fields)}${suffix('flags', flags)}${suffix('covers', covers)}`;
}

/**
 * An index's keys in order: its fields but the last, its flags, its last field (the sort), `id` (ties are ordered by
 * it), then the fields it covers.
 */
export function indexKeysOf({ fields, flags = [], covers = [] }: IndexShape): string[] {
  return [...fields.slice(0, -1), ...flags, ...fields.slice(-1), 'id', ...covers];
}

/**
 * One part of a kept count's key (see IndexSpec `counted`): an equality field's value, a flag's JSON type, or whether
 * a covered field is present.
 */
export interface CountPart {
  field: string;
  kind: 'value' | 'flag' | 'presence';
}

/** The key of the counts an index keeps: its equality fields (all but the sort), its flags, its covered fields. */
export function countPartsOf({ fields, flags = [], covers = [] }: IndexShape): CountPart[] {
  return [
    ...fields.slice(0, -1).map((f) => ({ field: field(f), kind: 'value' as const })),
    ...flags.map((f) => ({ field: field(f), kind: 'flag' as const })),
    ...covers.map((f) => ({ field: field(f), kind: 'presence' as const })),
  ];
}

/** Whether a filter asks for one value of a count's part: a string, true or false, present or not. */
function asks(part: CountPart, filter: PlanFilter): boolean {
  if (filter.field !== part.field) return false;
  if (part.kind === 'presence') return filter.op === 'exists';
  return filter.op === 'eq' && typeof filter.value === (part.kind === 'value' ? 'string' : 'boolean');
}

/** Every value a flag's part can hold (`json_type` of a field, null when it is missing), and a presence's. */
const FLAG_VALUES: readonly Scalar[] = ['true', 'false', 'null', 'integer', 'real', 'text', 'array', 'object', null];
const PRESENCE_VALUES: readonly Scalar[] = ['present', 'absent'];
/** A flag or presence left open is answered by the sum over its values: at most this many keys in all. */
const MAX_KEYS = 32;

/** The key value a filter that `asks` for a part stands for. */
function askedValue(part: CountPart, filter: PlanFilter): Scalar {
  if (part.kind === 'value') return filter.value as string;
  if (part.kind === 'flag') return filter.value ? 'true' : 'false';
  return filter.value ? 'present' : 'absent';
}

/**
 * The keys of the counts whose sum answers `filters` exactly, when they ask for one value of every value part of
 * `parts`, for one value of any of its flag and presence parts, and for nothing else: in the parts' order, a value's
 * string, a flag's JSON type (`'true'`, `'false'`) and a presence's `'present'` or `'absent'`; a flag or presence
 * not asked for stands for each value it can hold, one key each. Otherwise undefined (the matches are counted from an
 * index instead).
 */
export function countKeysOf(parts: readonly CountPart[], filters: readonly PlanFilter[]): Scalar[][] | undefined {
  const used = new Set<PlanFilter>();
  let keys: Scalar[][] = [[]];
  for (const part of parts) {
    const filter = filters.find((f) => !used.has(f) && asks(part, f));
    if (filter) used.add(filter);
    else if (part.kind === 'value') return undefined;
    const values = filter ? [askedValue(part, filter)] : part.kind === 'flag' ? FLAG_VALUES : PRESENCE_VALUES;
    if (keys.length * values.length > MAX_KEYS) return undefined;
    keys = keys.flatMap((key) => values.map((value) => [...key, value]));
  }
  return used.size === filters.length ? keys : undefined;
}

function scalar(value: unknown, what: string): Scalar {
  if (value instanceof Date) return value.toISOString();
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw new TypeError(`${what}: expected a string, finite number, boolean or null`);
}

function planFilter(f: { field: string; op: FilterOp; value: unknown }): PlanFilter {
  const name = field(f.field);
  const what = `filter ${name} ${f.op}`;
  switch (f.op) {
    case 'eq':
    case 'ne':
    case 'contains':
      return { field: name, op: f.op, value: scalar(f.value, what) };
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const value = scalar(f.value, what);
      if (value === null) throw new TypeError(`${what}: cannot compare with null`);
      return { field: name, op: f.op, value };
    }
    case 'in':
      if (!Array.isArray(f.value)) throw new TypeError(`${what}: expected an array`);
      return { field: name, op: 'in', value: f.value.map((v) => scalar(v, what)) };
    case 'exists':
      if (typeof f.value !== 'boolean') throw new TypeError(`${what}: expected true or false`);
      return { field: name, op: 'exists', value: f.value };
    default:
      throw new TypeError(`unknown filter op ${String(f.op)}; expected one of ${OPS.join(', ')}`);
  }
}

function fingerprintOf(collection: string, filters: PlanFilter[], sortBy: string, sortOrder: string): string {
  // Filter order does not change the result, so it does not change the fingerprint either.
  const canonical = filters.map((f) => JSON.stringify([f.field, f.op, f.value])).sort();
  return createHash('sha256')
    .update(JSON.stringify([collection, sortBy, sortOrder, canonical]))
    .digest('base64url')
    .slice(0, 12);
}

export function encodeCursor(fingerprint: string, after: After): string {
  return Buffer.from(JSON.stringify([fingerprint, after.value, after.id]), 'utf8').toString('base64url');
}

function decodeCursor(cursor: unknown, fingerprint: string): After {
  if (typeof cursor !== 'string' || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw new InvalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) throw new InvalidCursor();
  const [hash, value, id] = parsed as unknown[];
  if (hash !== fingerprint || typeof id !== 'string') throw new InvalidCursor();
  if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) throw new InvalidCursor();
  return { value: value as Scalar, id };
}

/** Validates a query and decodes its cursor; throws InvalidCursor for a bad or foreign cursor. */
export function planQuery(collection: string, query: Query): QueryPlan {
  const limit = query.limit;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw new RangeError(`limit must be an integer from 1 to ${MAX_LIMIT}; got ${String(limit)}`);
  const sortOrder = query.sortOrder ?? 'asc';
  if (sortOrder !== 'asc' && sortOrder !== 'desc')
    throw new TypeError(`sortOrder must be asc or desc; got ${String(sortOrder)}`);
  const sortBy = field(query.sortBy ?? DEFAULT_SORT);
  const filters = (query.filters ?? []).map(planFilter);
  const fingerprint = fingerprintOf(collection, filters, sortBy, sortOrder);
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, fingerprint);
  return { filters, sortBy, sortOrder, limit, fingerprint, ...(after ? { after } : {}) };
}

/** The sort value a cursor records for a document (missing counts as null, as both stores sort it). */
export function sortValueOf(doc: Record<string, unknown>, path: string): Scalar {
  let current: unknown = doc;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return null;
    current = (current as Record<string, unknown>)[key];
  }
  if (current === undefined || current === null) return null;
  if (typeof current === 'object') throw new TypeError(`sort field ${path} must hold a string, number or boolean`);
  return current as Scalar;
}
