import { Injectable } from '@nestjs/common';
import {
  SANDBOX_UMA_PROVIDERS,
  matchesUmaProviderFilter,
  type UmaProvider,
  type UmaProviderFilter,
} from '#domain/uma-providers/uma-providers.js';
import { InvalidCursor } from '#read-models/read-model-store.js';

export interface UmaProviderListRequest extends UmaProviderFilter {
  limit?: number;
  cursor?: string;
  sortOrder?: 'asc' | 'desc';
}

/** Cursor: the last name returned and the order it was taken in, base64url JSON. */
const encodeCursor = (name: string, sortOrder: string) =>
  Buffer.from(JSON.stringify({ n: name, o: sortOrder })).toString('base64url');

function decodeCursor(cursor: string, sortOrder: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursor();
  }
  const c = parsed as { n?: unknown; o?: unknown };
  // A cursor from the other sort order would skip or repeat providers.
  if (!c || typeof c.n !== 'string' || c.o !== sortOrder) throw new InvalidCursor();
  return c.n;
}

/** Providers by name (unique), in the requested order, paginated like every other list. */
@Injectable()
export class UmaProviderQueries {
  private readonly providers: readonly UmaProvider[] = SANDBOX_UMA_PROVIDERS;

  list(request: UmaProviderListRequest): {
    data: UmaProvider[];
    hasMore: boolean;
    nextCursor?: string;
    totalCount: number;
  } {
    const sortOrder = request.sortOrder ?? 'desc';
    const limit = request.limit ?? 20;
    const direction = sortOrder === 'asc' ? 1 : -1;
    const matching = this.providers
      .filter((p) => matchesUmaProviderFilter(p, request))
      .sort((a, b) => direction * a.name.localeCompare(b.name, 'en'));
    let start = 0;
    if (request.cursor !== undefined) {
      const after = decodeCursor(request.cursor, sortOrder);
      start = matching.findIndex((p) => direction * p.name.localeCompare(after, 'en') > 0);
      if (start < 0) start = matching.length;
    }
    const data = matching.slice(start, start + limit);
    const hasMore = start + limit < matching.length;
    return {
      data,
      hasMore,
      ...(hasMore ? { nextCursor: encodeCursor(data[data.length - 1].name, sortOrder) } : {}),
      totalCount: matching.length,
    };
  }
}
