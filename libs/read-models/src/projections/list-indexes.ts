import type { IndexSpec } from '../read-model-store.js';

/** What a list filters by: a field (a dotted path allowed), fields in order, or `[]` for the list unfiltered. */
export type ListFilter = string | readonly string[];

const fieldsOf = (filter: ListFilter): readonly string[] => (typeof filter === 'string' ? [filter] : filter);

/**
 * The indexes of a platform's lists of a collection, one per filter: `platformId`, the filter's fields, then
 * `createdAt` (lists sort by it), so that a page is a seek and its count walks the index. `flags` and `covers` are
 * fields every one of these lists tests besides (see IndexSpec). The indexes of the filters in `counted` also keep a
 * count per key, for filters that take few values (the whole platform, a status, a type, a currency): their lists'
 * `totalCount` is then exact and costs one lookup at any size.
 */
export function listIndexes(
  collection: string,
  filters: readonly ListFilter[],
  also: { flags?: string[]; covers?: string[]; counted?: readonly ListFilter[] } = {},
): IndexSpec[] {
  const counted = new Set((also.counted ?? []).map((filter) => fieldsOf(filter).join()));
  return filters.map((filter) => ({
    collection,
    fields: ['platformId', ...fieldsOf(filter), 'createdAt'],
    ...(also.flags ? { flags: also.flags } : {}),
    ...(also.covers ? { covers: also.covers } : {}),
    ...(counted.has(fieldsOf(filter).join()) ? { counted: true } : {}),
  }));
}
