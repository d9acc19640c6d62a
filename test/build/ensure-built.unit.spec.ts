import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { STAMP_PATH, staleness } from '../../scripts/ensure-built.mjs';

describe('ensure-built: build only when the build is missing or older than the sources', () => {
  const repos: string[] = [];
  afterEach(() => repos.splice(0).forEach((repo) => rmSync(repo, { recursive: true, force: true })));

  /** A repository whose files have the given modification times (seconds since the epoch). */
  const repoWith = (files: Record<string, number>): string => {
    const repo = mkdtempSync(join(tmpdir(), 'ensure-built-'));
    repos.push(repo);
    for (const [path, time] of Object.entries(files)) {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), '');
      utimesSync(join(repo, path), time, time);
    }
    return repo;
  };

  it('builds when no build has finished', () => {
    expect(staleness([], repoWith({ 'apps/api/src/cli.ts': 100 }))).toBe('no finished build');
  });

  it('runs the build it has when it is newer than every source, settings included', () => {
    const repo = repoWith({
      'apps/api/src/cli.ts': 100,
      'libs/domain/src/primitives.ts': 150,
      'packages/client/src/index.ts': 120,
      'tsconfig.json': 90,
      'dist/apps/api/src/cli.js': 200,
      [STAMP_PATH]: 200,
    });
    expect(staleness(['dist/apps/api/src/cli.js'], repo)).toBeUndefined();
  });

  it.each([
    ['an app', 'apps/mcp/src/main.ts'],
    ['a library', 'libs/domain/src/primitives.ts'],
    ["a package's source", 'packages/client/src/index.ts'],
    ['a build setting', 'tsconfig.build.json'],
  ])('builds when %s changed after the build started', (_what, path) => {
    const repo = repoWith({ 'apps/api/src/cli.ts': 100, [STAMP_PATH]: 200, [path]: 201 });
    expect(staleness([], repo)).toBe('sources changed since the last build');
  });

  it('builds when the entry to run is missing, and ignores dependencies and other builds', () => {
    const files = { 'apps/api/node_modules/x/index.ts': 300, 'packages/client/dist/index.d.ts': 300 };
    const repo = repoWith({ 'apps/api/src/cli.ts': 100, [STAMP_PATH]: 200, ...files });
    expect(staleness([], repo)).toBeUndefined();
    expect(staleness(['dist/apps/mcp/src/main.js'], repo)).toBe('dist/apps/mcp/src/main.js is missing');
  });
});
