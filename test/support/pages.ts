import { expect } from '@jest/globals';
import type { Client } from './service.js';

/** One page of a list answer. */
export interface Page<T = any> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

/**
 * Every page of the list at `path` (a query string included, without a cursor), following nextCursor: each page
 * answers 200 and has more exactly when it gives a cursor.
 */
export async function walkPages<T = any>(api: Client, path: string): Promise<Page<T>[]> {
  const pages: Page<T>[] = [];
  let cursor: string | undefined;
  do {
    const res = await api.get(`${path}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    pages.push(res.body);
    cursor = res.body.nextCursor;
    expect(Boolean(cursor)).toBe(res.body.hasMore);
  } while (cursor);
  return pages;
}
