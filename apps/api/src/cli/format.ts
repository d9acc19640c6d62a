/** Readable text for the CLI's output without --json: aligned tables and key/value lines. */

type Cell = string | number | boolean | null | undefined;

const cell = (value: Cell): string => (value === undefined || value === null || value === '' ? '-' : String(value));

/** A table with a header row; columns padded to their widest cell. `(none)` without rows. */
export function table(headers: string[], rows: Cell[][]): string {
  if (rows.length === 0) return '(none)';
  const lines = [headers, ...rows.map((r) => r.map(cell))];
  const widths = headers.map((_, i) => Math.max(...lines.map((l) => l[i]?.length ?? 0)));
  return lines
    .map((l) =>
      l
        .map((c, i) => (i === l.length - 1 ? c : c.padEnd(widths[i])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** `key  value` lines, keys padded to the longest. */
export function fields(pairs: [string, Cell][]): string {
  const width = Math.max(0, ...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${k.padEnd(width)}  ${cell(v)}`).join('\n');
}

/** Every leaf of a JSON value as a dotted path (`source.accountId`, `attempts.0.statusCode`) and its value. */
export function leaves(value: unknown, prefix = ''): [string, Cell][] {
  if (value === null || typeof value !== 'object') return [[prefix, value as Cell]];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  if (entries.length === 0) return prefix ? [[prefix, Array.isArray(value) ? '[]' : '{}']] : [];
  return entries.flatMap(([k, v]) => leaves(v, prefix ? `${prefix}.${k}` : k));
}

/** What a page of a list says about the rest: the total and the cursor of the next page. */
export function pageFooter(page: { data: unknown[]; hasMore: boolean; nextCursor?: string; totalCount?: number }) {
  const total = page.totalCount !== undefined ? ` of ${page.totalCount}` : '';
  const more = page.hasMore && page.nextCursor ? `; next page: --cursor ${page.nextCursor}` : '';
  return `${page.data.length}${total}${more}`;
}
