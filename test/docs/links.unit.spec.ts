import { describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brokenLinks, headingAnchors, markdownFiles } from '../support/markdown-links.js';
import { useTempDir } from '../support/temp-dir.js';

const root = resolve('.');

describe('links of the README and docs/', () => {
  it('resolve to files and headings inside the repository', () => {
    const files = ['README.md', ...markdownFiles(root, 'docs')];
    expect(files).toEqual(expect.arrayContaining(['docs/architecture.md', 'docs/guides/getting-started.md']));
    expect(brokenLinks(root, files)).toEqual([]);
  });
});

describe('the link check', () => {
  const dir = useTempDir('markdown-links-');

  it('names a missing file, a missing heading and a path outside the repository', () => {
    mkdirSync(join(dir(), 'docs'));
    writeFileSync(join(dir(), 'docs', 'a.md'), '# A `b`: c\n\n## Twice\n\n## Twice\n');
    writeFileSync(
      join(dir(), 'README.md'),
      [
        '[ok](docs/a.md#a-b-c) [ok](docs/a.md#twice-1) [ok](#here) [web](https://example.com/x.md)',
        '',
        '| [gone](docs/gone.md) | [anchor](docs/a.md#nowhere) | [out](../shared/spec.md) |',
        '|---|---|---|',
        '',
        '# Here',
        '',
        '```md',
        '[code is not checked](nowhere.md)',
        '```',
      ].join('\n'),
    );
    expect(brokenLinks(dir(), ['README.md'])).toEqual([
      'README.md: docs/gone.md (no such file)',
      'README.md: docs/a.md#nowhere (no heading #nowhere)',
      'README.md: ../shared/spec.md (points outside the repository)',
    ]);
  });

  it('slugs headings as GitHub does', () => {
    const anchors = headingAnchors('# What `npm start` prints, and where to go next\n\n## Audit: history & state\n');
    expect([...anchors]).toEqual(['what-npm-start-prints-and-where-to-go-next', 'audit-history--state']);
  });
});
