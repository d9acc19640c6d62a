import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { marked } from 'marked';
import { repositoryRoot } from '../http/repository-root.js';

/** A static file of the docs site: where it is, and its media type. */
interface Asset {
  file: string;
  type: string;
}

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/** The guides, in the order of the navigation: file name (under docs/guides) and title. */
export const GUIDES: readonly (readonly [name: string, title: string])[] = [
  ['getting-started', 'Getting started'],
  ['customers-and-accounts', 'Customers and accounts'],
  ['payments', 'Payments'],
  ['documents-and-verifications', 'Documents and verifications'],
  ['kyc-review', 'KYC review'],
  ['audit', 'Audit'],
  ['wallet-sessions', 'Wallet sessions'],
  ['passkeys-and-oidc', 'Passkeys and OpenID Connect'],
  ['signed-retry', 'Signed retry'],
  ['webhooks', 'Webhooks'],
  ['sandbox', 'Sandbox'],
  ['agents', 'Agents'],
  ['cards', 'Cards'],
];

/** The repository root: the nearest ancestor holding docs/guides. */
export const docsRoot = () => repositoryRoot('docs/guides/getting-started.md', 'docs/guides not found');

const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/**
 * The files the docs page loads, by public name: an allow-list, so the route never reads anything else. Swagger UI
 * comes from the installed swagger-ui-dist package (no CDN, nothing fetched at run time).
 */
function assets(): Record<string, Asset> {
  const root = docsRoot();
  return {
    'swagger-ui.css': { file: join(swaggerUi, 'swagger-ui.css'), type: CSS },
    'swagger-ui-bundle.js': { file: join(swaggerUi, 'swagger-ui-bundle.js'), type: JS },
    'favicon-32x32.png': { file: join(swaggerUi, 'favicon-32x32.png'), type: 'image/png' },
    'docs.css': { file: join(root, 'docs/site/docs.css'), type: CSS },
    'docs.js': { file: join(root, 'docs/site/docs.js'), type: JS },
  };
}

let listed: Record<string, Asset> | undefined;
const cache = new Map<string, Buffer | string>();
const once = <T extends Buffer | string>(key: string, read: () => T): T => {
  if (!cache.has(key)) cache.set(key, read());
  return cache.get(key) as T;
};

/** A docs asset's content and media type, or undefined for a name not on the list. */
export function docsAsset(name: string): { body: Buffer; type: string } | undefined {
  listed ??= assets();
  const asset = Object.hasOwn(listed, name) ? listed[name] : undefined;
  return asset && { body: once(`asset:${name}`, () => readFileSync(asset.file)), type: asset.type };
}

const escape = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The page frame every docs page shares: the title bar with the reference and the guides. */
function frame(base: string, current: string, title: string, head: string, body: string): string {
  const link = (href: string, label: string, name: string) =>
    `<a href="/${base}/${href}"${name === current ? ' aria-current="page"' : ''}>${escape(label)}</a>`;
  const nav = [link('docs', 'API reference', 'reference'), ...GUIDES.map(([n, t]) => link(`docs/guides/${n}`, t, n))];
  return `<!doctype html>
<html lang="en" data-base="${escape(base)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Payments Platform API</title>
<link rel="icon" href="/${base}/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/${base}/docs/assets/docs.css">${head}
</head><body>
<header class="site"><h1>Payments Platform API</h1><nav>${nav.join('')}</nav></header>
${body}
</body></html>`;
}

/** The API reference: Swagger UI over /openapi.json. */
export function referencePage(base: string): string {
  return once(`reference:${base}`, () =>
    frame(
      base,
      'reference',
      'API reference',
      // The document is fetched while Swagger UI's script loads, not after it ran.
      `\n<link rel="preload" href="/${base}/openapi.json" as="fetch" crossorigin="anonymous">` +
        `\n<link rel="stylesheet" href="/${base}/docs/assets/swagger-ui.css">`,
      `<div id="swagger-ui"></div>
<script src="/${base}/docs/assets/swagger-ui-bundle.js"></script>
<script src="/${base}/docs/assets/docs.js"></script>`,
    ),
  );
}

/** A guide rendered from its Markdown (docs/guides/<name>.md), or undefined for a name that is not a guide. */
export function guidePage(base: string, name: string): string | undefined {
  const guide = GUIDES.find(([n]) => n === name);
  if (!guide) return undefined;
  return once(`guide:${base}:${name}`, () => {
    const markdown = readFileSync(join(docsRoot(), 'docs/guides', `${name}.md`), 'utf8');
    const html = marked.parse(markdown, { async: false, gfm: true });
    return frame(base, name, guide[1], '', `<main class="guide">${html}</main>`);
  });
}
