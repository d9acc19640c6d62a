import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root: the nearest ancestor of this module holding `marker` (a file the caller serves or reads). The
 * same code runs from `apps/…` under Jest and from `dist/apps/…` after `npm run build`, so the depth differs.
 * `missing` is the error's message when no ancestor holds it.
 */
export function repositoryRoot(marker: string, missing: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, marker))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(missing);
    dir = parent;
  }
}
