import type { Document, Sort } from 'mongodb';
import type { After, PlanFilter, QueryPlan, Scalar } from '../query-plan.js';

/**
 * Translates a QueryPlan into MongoDB filter and sort documents with the same meaning as the
 * SQLite translation: a missing field counts as null, `exists` means present and not null,
 * comparisons stay within one type (MongoDB's type bracketing), `contains` needs an array.
 */
const path = (field: string): string => (field === 'id' ? '_id' : field);

/** Missing or null, but not an array holding null (which `{field: null}` would also match). */
const isNull = (field: string): Document => ({
  $or: [{ [field]: { $exists: false } }, { [field]: { $type: 'null' } }],
});
const notNull = (field: string): Document => ({ [field]: { $exists: true, $not: { $type: 'null' } } });

function equals(field: string, value: Scalar): Document {
  return value === null ? isNull(field) : { [field]: { $eq: value } };
}

function filterDoc(f: PlanFilter): Document {
  const field = path(f.field);
  switch (f.op) {
    case 'eq':
      return equals(field, f.value);
    case 'ne':
      return f.value === null ? notNull(field) : { [field]: { $ne: f.value } };
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return { [field]: { [`$${f.op}`]: f.value } };
    case 'in':
      if (f.value.length === 0) return { _id: { $in: [] } };
      return { $or: f.value.map((v) => equals(field, v)) };
    case 'contains':
      return { [field]: { $elemMatch: { $eq: f.value } } };
    case 'exists':
      return f.value ? notNull(field) : isNull(field);
  }
}

function afterDoc(field: string, order: 'asc' | 'desc', after: After): Document {
  const v = after.value;
  if (field === '_id') return { _id: { [order === 'asc' ? '$gt' : '$lt']: after.id } };
  if (order === 'asc') {
    if (v === null) return { $or: [notNull(field), { $and: [isNull(field), { _id: { $gt: after.id } }] }] };
    return { $or: [{ [field]: { $gt: v } }, { [field]: v, _id: { $gt: after.id } }] };
  }
  if (v === null) return { $and: [isNull(field), { _id: { $lt: after.id } }] };
  return { $or: [{ [field]: { $lt: v } }, isNull(field), { [field]: v, _id: { $lt: after.id } }] };
}

export interface MongoQuery {
  /** Filter of the page (filters and cursor position). */
  page: Document;
  /** Filter for totalCount (no cursor). */
  count: Document;
  sort: Sort;
}

export function buildMongoQuery(plan: QueryPlan): MongoQuery {
  const filters = plan.filters.map(filterDoc);
  const count = filters.length ? { $and: filters } : {};
  const sortField = path(plan.sortBy);
  const page = plan.after ? { $and: [...filters, afterDoc(sortField, plan.sortOrder, plan.after)] } : count;
  const dir = plan.sortOrder === 'asc' ? 1 : -1;
  const sort: Sort = sortField === '_id' ? { _id: dir } : { [sortField]: dir, _id: dir };
  return { page, count, sort };
}
