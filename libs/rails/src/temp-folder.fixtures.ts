/** Test support: a fresh temporary folder for each test of the describe block that asks for one. */
import { afterEach, beforeEach } from '@jest/globals';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Before each test makes a folder `<tmp>/<prefix>XXXXXX` with the given subfolders, after it removes it; the
 * function returned gives the current test's folder.
 */
export function useTempFolder(prefix: string, subfolders: string[] = []): () => string {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
    for (const sub of subfolders) await mkdir(join(dir, sub));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return () => dir;
}
