import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { marked, type Token, type Tokens } from 'marked';

/** Build outputs and local data: present in a working tree, absent from a clone. */
const NOT_IN_A_CLONE = ['node_modules', 'dist', 'data', 'coverage', 'test-output', '.test-data'];

/** The plain text of inline tokens, as GitHub reads a heading's text (markup and HTML tags left out). */
function plainText(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((token) => {
      if (token.type === 'html') return '';
      if ('tokens' in token && token.tokens) return plainText(token.tokens);
      return 'text' in token ? String(token.text) : '';
    })
    .join('');
}

/** GitHub's anchor for a heading (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown text's headings; a repeated slug gets `-1`, `-2`, … as on GitHub. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type !== 'heading') return;
    const slug = headingSlug(plainText((token as Tokens.Heading).tokens));
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  });
  return anchors;
}

/** Every link and image target of a Markdown text, tables and lists included (code is not Markdown: skipped). */
export function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type === 'link' || token.type === 'image') targets.push((token as Tokens.Link).href);
  });
  return targets;
}

/** Markdown files under `dir` (relative to `root`), recursively, in a stable order. */
export function markdownFiles(root: string, dir: string): string[] {
  return (readdirSync(join(root, dir), { recursive: true }) as string[])
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(dir, name))
    .sort();
}

/**
 * Why a relative link of `file` (relative to `root`) does not resolve in the repository, or undefined when it does.
 * Absolute URLs (`https:`, `mailto:`) are not checked. A path must name a file or folder inside `root` that a clone
 * has, and an `#anchor` a heading of the Markdown file it names (or of `file` itself). A guide (docs/guides) may link
 * a sibling guide by its name without `.md`, as the docs site serves it.
 */
export function brokenLink(root: string, file: string, href: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return undefined;
  const hash = href.indexOf('#');
  const path = decodeURIComponent(hash < 0 ? href : href.slice(0, hash));
  const anchor = hash < 0 ? undefined : decodeURIComponent(href.slice(hash + 1));
  const from = path.startsWith('/') ? '.' : dirname(file);
  let target = path === '' ? resolve(root, file) : resolve(root, from, path.replace(/^\//, ''));
  const inside = relative(root, target);
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return 'points outside the repository';
  if (NOT_IN_A_CLONE.includes(inside.split(sep)[0])) return 'points at a file a clone does not have';
  if (!existsSync(target)) {
    const guide = file.startsWith(`docs${sep}guides${sep}`) && existsSync(`${target}.md`);
    if (!guide) return 'no such file';
    target = `${target}.md`;
  }
  if (anchor === undefined) return undefined;
  if (!statSync(target).isFile() || !target.endsWith('.md')) return `#${anchor} on a file that is not Markdown`;
  return headingAnchors(readFileSync(target, 'utf8')).has(anchor) ? undefined : `no heading #${anchor}`;
}

/** Every broken relative link of the given Markdown files, as `file: href (why)`. */
export function brokenLinks(root: string, files: string[]): string[] {
  return files.flatMap((file) =>
    linkTargets(readFileSync(join(root, file), 'utf8')).flatMap((href) => {
      const why = brokenLink(root, file, href);
      return why ? [`${file}: ${href} (${why})`] : [];
    }),
  );
}
