import { notFound } from '#domain/errors.js';
import type { Doc, Filter, Page, Query, ReadModelStore } from '#read-models/read-model-store.js';

/** A list request as the API takes it: filters on top of the platform scope, limit and cursor. */
export interface ListRequest {
  filters: Filter[];
  limit?: number;
  cursor?: string;
  sortOrder?: 'asc' | 'desc';
  sortBy?: string;
}

/** Lists documents of one platform and maps each to its API resource. */
export async function listForPlatform<T extends Doc>(
  store: ReadModelStore,
  collection: string,
  platformId: string,
  request: ListRequest,
  toResource: (doc: T) => Record<string, unknown>,
): Promise<Page<Doc>> {
  const query: Query = {
    filters: [{ field: 'platformId', op: 'eq', value: platformId }, ...request.filters],
    sortBy: request.sortBy ?? 'createdAt',
    sortOrder: request.sortOrder ?? 'desc',
    limit: request.limit ?? 20,
    cursor: request.cursor,
  };
  const page = await store.find<T>(collection, query);
  return { ...page, data: page.data.map((d) => toResource(d) as Doc) };
}

/** Strips the fields that exist only for scoping. */
export function stripPlatform<T extends Doc>(doc: T): Record<string, unknown> {
  const { platformId: _platformId, ...rest } = doc as Doc & { platformId?: unknown };
  return rest;
}

/** One document of the platform, or a 404 naming `resource`: another platform's document reads as missing. */
export async function getForPlatform<T extends Doc>(
  store: ReadModelStore,
  collection: string,
  resource: string,
  platformId: string,
  id: string,
): Promise<T> {
  const doc = await store.get<T>(collection, id);
  if (!doc || doc.platformId !== platformId) throw notFound(resource, id);
  return doc;
}

/** Oldest first, within one platform. */
const oldestOfPlatform = (platformId: string, filters: Filter[], limit: number, cursor?: string): Query => ({
  filters: [{ field: 'platformId', op: 'eq', value: platformId }, ...filters],
  sortBy: 'createdAt',
  sortOrder: 'asc',
  limit,
  cursor,
});

/** Every document of the platform that matches `filters`, oldest first (read in pages of 100). */
export async function allForPlatform<T extends Doc>(
  store: ReadModelStore,
  collection: string,
  platformId: string,
  filters: Filter[],
): Promise<T[]> {
  const docs: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.find<T>(collection, oldestOfPlatform(platformId, filters, 100, cursor));
    docs.push(...page.data);
    cursor = page.hasMore ? page.nextCursor : undefined;
  } while (cursor);
  return docs;
}

/** The oldest document of the platform that matches `filters`, if there is one. */
export async function firstForPlatform<T extends Doc>(
  store: ReadModelStore,
  collection: string,
  platformId: string,
  filters: Filter[],
): Promise<T | undefined> {
  return (await store.find<T>(collection, oldestOfPlatform(platformId, filters, 1))).data[0];
}
