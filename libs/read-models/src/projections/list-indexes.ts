import type { IndexSpec } from '../read-model-store.js';

/** What a list filters by: a field (a dotted path allowed), fields in order, or `[]` for the list unfiltered. */
export type ListFilter = string | readonly string[];

/**
 * The indexes of a platform's lists of a collection, one per filter: `platformId`, the filter's fields, then
 * `createdAt` (lists sort by it), so that a page is a seek and its count walks the index. `flags` and `covers` are
 * fields every one of these lists tests besides (see IndexSpec).
 */
export function listIndexes(
  collection: string,
  filters: readonly ListFilter[],
  also: { flags?: string[]; covers?: string[] } = {},
): IndexSpec[] {
  return filters.map((filter) => ({
    collection,
    fields: ['platformId', ...(typeof filter === 'string' ? [filter] : filter), 'createdAt'],
    ...(also.flags ? { flags: also.flags } : {}),
    ...(also.covers ? { covers: also.covers } : {}),
  }));
}
