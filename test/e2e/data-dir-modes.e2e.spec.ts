import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { useDataDir } from '../support/fixture.js';
import { startTestService, type TestService } from '../support/service.js';

/** Every file under `dir` with its permission bits, directories included. */
function modes(dir: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, entry);
    found[entry] = (statSync(path).mode & 0o777).toString(8);
  }
  return found;
}

/** The data directory holds personal data: a new one and its databases are readable by the service's user only. */
describe('data directory permissions', () => {
  const parent = useDataDir('payments-modes-');
  const dataDir = join(parent, 'new', 'data');
  let running: TestService | undefined;
  let umask: number;

  beforeAll(async () => {
    // A permissive umask (the usual 022) must not open the files to other users.
    umask = process.umask(0o022);
    running = await startTestService({ dataDir });
  });
  afterAll(async () => {
    await running?.close();
    process.umask(umask);
  });

  it('creates the directory 0700 and the database files (with their -wal and -shm) 0600', async () => {
    expect(
      (await running!.api.post('/customers', { platformCustomerId: 'modes-1', customerType: 'INDIVIDUAL' })).status,
    ).toBe(201);
    expect((statSync(dataDir).mode & 0o777).toString(8)).toBe('700');
    expect((statSync(join(parent, 'new')).mode & 0o777).toString(8)).toBe('700');
    const found = modes(dataDir);
    const files = Object.keys(found).filter((f) => statSync(join(dataDir, f)).isFile());
    expect(files).toEqual(expect.arrayContaining(['service.db', 'service.db-wal', 'read-models.db', 'jobs.db']));
    for (const [entry, mode] of Object.entries(found))
      expect({ entry, mode }).toEqual({ entry, mode: statSync(join(dataDir, entry)).isDirectory() ? '700' : '600' });
  });
});
