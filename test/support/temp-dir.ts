import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from '@jest/globals';

/**
 * Gives each test a fresh temporary directory, named by `prefix` (read it with the returned function). After the
 * test, `close` runs (closing what was opened in it), then the directory is removed.
 */
export function useTempDir(prefix: string, close: () => unknown = () => undefined): () => string {
  let dir: string | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => {
    if (!dir) throw new Error('the temporary directory exists only while a test runs');
    return dir;
  };
}
