import type { After, PlanFilter, QueryPlan, Scalar } from '../query-plan.js';
import { COUNT_CAP } from '../read-model-store.js';
import { BOUND_LIMIT } from '#event-store/sqlite/event-rows.js';

/**
 * Translates a QueryPlan into SQL over a collection's table `(id, body)`. Field paths are inlined as
 * `json_extract(body, '$.field')` (field names are validated in query-plan.ts) so that the
 * collection's expression indexes match. Values are bound parameters.
 *
 * json_extract yields SQL values without affinity: JSON numbers as INTEGER/REAL, strings as
 * TEXT, true/false as 1/0. Type checks via json_type keep a number from matching a boolean and
 * comparisons within one type, like MongoDB's type bracketing.
 */
export interface SqlFragment {
  sql: string;
  params: unknown[];
}

interface Operand {
  /** SQL expression of the value. */
  value: string;
  /** SQL expression of its JSON type (json_type names). */
  type: string;
}

function operand(field: string): Operand {
  if (field === 'id') return { value: 'id', type: `'text'` };
  return { value: `json_extract(body, '$.${field}')`, type: `json_type(body, '$.${field}')` };
}

/** better-sqlite3 binds no booleans: JSON true/false extract as 1/0. */
const bind = (v: Scalar): unknown => (typeof v === 'boolean' ? (v ? 1 : 0) : v);

function typeCheck(o: Operand, v: Exclude<Scalar, null>): string {
  // Every TEXT sorts at or after '' and every number before it: the check stays inside an index on the value, so a
  // date range (createdAt) is answered, and counted, from the index alone.
  if (typeof v === 'string') return `${o.value} >= ''`;
  if (typeof v === 'number') return `${o.type} IN ('integer', 'real')`;
  return `${o.type} IN ('true', 'false')`;
}

/** Truth of `operand = v` as 1, or 0/NULL otherwise. */
function equals(o: Operand, v: Scalar): SqlFragment {
  if (v === null) return { sql: `${o.value} IS NULL`, params: [] };
  if (typeof v === 'boolean') return { sql: `${o.type} = '${v ? 'true' : 'false'}'`, params: [] };
  // A bound TEXT never equals a number and vice versa (no affinity), but a number equals a boolean's 1/0.
  if (typeof v === 'string') return { sql: `${o.value} = ?`, params: [v] };
  return { sql: `(${o.value} = ? AND ${typeCheck(o, v)})`, params: [v] };
}

const COMPARE = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function filterSql(f: PlanFilter): SqlFragment {
  const o = operand(f.field);
  switch (f.op) {
    case 'eq':
      return equals(o, f.value);
    case 'ne': {
      // Matches documents without the field as well (as MongoDB's $ne does).
      const eq = equals(o, f.value);
      return { sql: `(${eq.sql}) IS NOT 1`, params: eq.params };
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return { sql: `(${typeCheck(o, f.value)} AND ${o.value} ${COMPARE[f.op]} ?)`, params: [bind(f.value)] };
    case 'in': {
      if (f.value.length === 0) return { sql: '0', params: [] };
      const parts = f.value.map((v) => equals(o, v));
      return { sql: `(${parts.map((p) => p.sql).join(' OR ')})`, params: parts.flatMap((p) => p.params) };
    }
    case 'contains': {
      if (f.field === 'id') return { sql: '0', params: [] };
      const element = equals({ value: 'e.value', type: 'e.type' }, f.value);
      const each = `SELECT 1 FROM json_each(body, '$.${f.field}') AS e WHERE ${element.sql}`;
      const sql = `(${o.type} = 'array' AND EXISTS (${each}))`;
      return { sql, params: element.params };
    }
    case 'exists':
      return { sql: `${o.value} IS ${f.value ? 'NOT ' : ''}NULL`, params: [] };
  }
}

/** Rows strictly after the cursor position in the plan's order (NULL sorts first ascending). */
function afterSql(sort: Operand, order: 'asc' | 'desc', after: After): SqlFragment {
  const v = bind(after.value);
  if (order === 'asc') {
    if (v === null) return { sql: `(${sort.value} IS NOT NULL OR id > ?)`, params: [after.id] };
    return { sql: `(${sort.value} > ? OR (${sort.value} = ? AND id > ?))`, params: [v, v, after.id] };
  }
  if (v === null) return { sql: `(${sort.value} IS NULL AND id < ?)`, params: [after.id] };
  return {
    sql: `(${sort.value} < ? OR ${sort.value} IS NULL OR (${sort.value} = ? AND id < ?))`,
    params: [v, v, after.id],
  };
}

export interface SqlQuery {
  /** Page query: selects id, body and the sort value `sv`, limit+1 rows to learn hasMore. */
  page: SqlFragment;
  /** Count of all matches (up to COUNT_CAP), ignoring cursor and limit. */
  count: SqlFragment;
}

/** `table` is the collection's table, a checked name (doc-indexes.ts `tableOf`). */
export function buildSqlQuery(table: string, plan: QueryPlan): SqlQuery {
  const filters = plan.filters.map(filterSql);
  const where = ['1', ...filters.map((f) => f.sql)];
  const params: unknown[] = [...filters.flatMap((f) => f.params)];
  const sort = operand(plan.sortBy);
  const dir = plan.sortOrder === 'asc' ? 'ASC' : 'DESC';
  const orderBy = plan.sortBy === 'id' ? `id ${dir}` : `${sort.value} ${dir}, id ${dir}`;
  const ordered = `ORDER BY ${orderBy} ${BOUND_LIMIT}`;
  // Bounded: a count goes through at most COUNT_CAP matches. Ordered like the page, so the planner picks the same
  // index for both (unordered, it preferred walking the collection's primary key range).
  const count = {
    sql: `SELECT count(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${where.join(' AND ')} ${ordered})`,
    params: [...params, COUNT_CAP],
  };

  if (plan.after) {
    const after = afterSql(sort, plan.sortOrder, plan.after);
    where.push(after.sql);
    params.push(...after.params);
  }
  const page = {
    sql: `SELECT id, body, ${sort.value} AS sv FROM ${table} WHERE ${where.join(' AND ')} ${ordered}`,
    params: [...params, plan.limit + 1],
  };
  return { page, count };
}
