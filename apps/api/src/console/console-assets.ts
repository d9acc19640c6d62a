import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot } from '../http/repository-root.js';

/** A file the console serves, and where it lives relative to the repository root. */
interface Asset {
  path: string;
  type: string;
}

const JS = 'text/javascript; charset=utf-8';

/**
 * The console's files by public name. An allow-list, so the route can never read anything else;
 * the two libraries come from the installed node_modules (no CDN, no network at run time).
 */
export const CONSOLE_ASSETS: Record<string, Asset> = {
  'console.css': { path: 'apps/dashboard/public/console.css', type: 'text/css; charset=utf-8' },
  'api.js': { path: 'apps/dashboard/public/api.js', type: JS },
  'format.js': { path: 'apps/dashboard/public/format.js', type: JS },
  'views.js': { path: 'apps/dashboard/public/views.js', type: JS },
  'charts.js': { path: 'apps/dashboard/public/charts.js', type: JS },
  'main.js': { path: 'apps/dashboard/public/main.js', type: JS },
  'ops.js': { path: 'apps/dashboard/public/ops.js', type: JS },
  'rails.js': { path: 'apps/dashboard/public/rails.js', type: JS },
  'reviews.js': { path: 'apps/dashboard/public/reviews.js', type: JS },
  'chart.umd.js': { path: 'node_modules/chart.js/dist/chart.umd.js', type: JS },
};

const root = () =>
  repositoryRoot('apps/dashboard/public/index.html', 'operations console files not found (apps/dashboard/public)');

const cache = new Map<string, string>();

/** The text of a console file (read once; the files do not change while the service runs). */
export function readConsoleFile(relativePath: string): string {
  let text = cache.get(relativePath);
  if (text === undefined) {
    text = readFileSync(join(root(), relativePath), 'utf8');
    cache.set(relativePath, text);
  }
  return text;
}
