import { afterAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startChildService, type ChildService } from '../support/child-service.js';
import type { Client } from '../support/service.js';

async function snapshot(api: Client) {
  const lists: Record<string, unknown> = {};
  for (const path of ['/customers?limit=100&isIncludingDeleted=true', '/customers/internal-accounts?limit=100', '/platform/internal-accounts?limit=100', '/tokens?limit=100']) {
    const res = await api.get(path);
    expect(res.status).toBe(200);
    lists[path] = res.body;
  }
  return lists;
}

describe('read models rebuilt from position 0 (CLI)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-rebuild-'));
  let child: ChildService | undefined;
  afterAll(async () => {
    await child?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('gives the same list results as before', async () => {
    child = await startChildService(dataDir);
    const api = child.api;
    const ids: string[] = [];
    for (let i = 0; i < 15; i++) {
      const res = await api.post('/customers', { platformCustomerId: `rb-${i}`, customerType: i % 3 ? 'INDIVIDUAL' : 'BUSINESS', currencies: i % 2 ? ['USD', 'EUR'] : ['MXN'] });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const accounts = (await api.get('/customers/internal-accounts?limit=100')).body.data;
    for (const [i, a] of accounts.entries()) expect((await api.post(`/sandbox/internal-accounts/${a.id}/fund`, { amount: 100 + i })).status).toBe(200);
    expect((await api.patch(`/customers/${ids[1]}`, { region: 'ES' })).status).toBe(200);
    const unfunded = (await api.post('/customers', { platformCustomerId: 'rb-gone', customerType: 'INDIVIDUAL' })).body;
    expect((await api.delete(`/customers/${unfunded.id}`)).status).toBe(200);
    expect((await api.post('/tokens', { name: 'second' })).status).toBe(201);
    const before = await snapshot(api);
    await child.kill('SIGTERM');

    const out = execFileSync(process.execPath, [resolve('dist/apps/api/src/cli.js'), 'read-models:rebuild'], {
      env: { ...process.env, NODE_OPTIONS: '', DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    expect(JSON.parse(out).rebuilt).toEqual(expect.arrayContaining(['customers', 'internal-accounts', 'platforms']));

    child = await startChildService(dataDir);
    expect(await snapshot(child.api)).toEqual(before);
  });
});
