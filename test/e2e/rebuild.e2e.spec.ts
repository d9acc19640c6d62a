import { describe, expect, it } from '@jest/globals';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startChildService, type ChildService } from '../support/child-service.js';
import type { Client } from '../support/service.js';
import { useDataDir } from '../support/fixture.js';

async function snapshot(api: Client) {
  const lists: Record<string, unknown> = {};
  for (const path of [
    '/customers?limit=100&isIncludingDeleted=true',
    '/customers/internal-accounts?limit=100',
    '/platform/internal-accounts?limit=100',
    '/tokens?limit=100',
  ]) {
    const res = await api.get(path);
    expect(res.status).toBe(200);
    lists[path] = res.body;
  }
  return lists;
}

describe('read models rebuilt from position 0 (CLI)', () => {
  let child: ChildService | undefined;
  const dataDir = useDataDir('payments-rebuild-', () => child?.kill());

  it('gives the same list results as before', async () => {
    child = await startChildService(dataDir);
    const api = child.api;
    const ids: string[] = [];
    for (let i = 0; i < 15; i++) {
      const res = await api.post('/customers', {
        platformCustomerId: `rb-${i}`,
        customerType: i % 3 ? 'INDIVIDUAL' : 'BUSINESS',
        currencies: i % 2 ? ['USD', 'EUR'] : ['MXN'],
      });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const accounts = (await api.get('/customers/internal-accounts?limit=100')).body.data;
    for (const [i, a] of accounts.entries())
      expect((await api.post(`/sandbox/internal-accounts/${a.id}/fund`, { amount: 100 + i })).status).toBe(200);
    expect((await api.patch(`/customers/${ids[1]}`, { region: 'ES' })).status).toBe(200);
    const unfunded = (await api.post('/customers', { platformCustomerId: 'rb-gone', customerType: 'INDIVIDUAL' })).body;
    expect((await api.delete(`/customers/${unfunded.id}`)).status).toBe(200);
    expect((await api.post('/tokens', { name: 'second' })).status).toBe(201);
    const before = await snapshot(api);
    await child.kill('SIGTERM');

    const out = execFileSync(process.execPath, [resolve('dist/apps/api/src/cli.js'), 'read-models:rebuild', '--json'], {
      env: { ...process.env, NODE_OPTIONS: '', DATA_DIR: dataDir },
      encoding: 'utf8',
    });
    expect(JSON.parse(out).rebuilt).toEqual(expect.arrayContaining(['customers', 'internal-accounts', 'platforms']));

    child = await startChildService(dataDir);
    expect(await snapshot(child.api)).toEqual(before);
  });

  it('is safe while a worker projects: it takes the projector leases, and nothing is applied twice', async () => {
    const liveDir = mkdtempSync(join(tmpdir(), 'payments-rebuild-live-'));
    const live = await startChildService(liveDir);
    try {
      const api = live.api;
      const customer = (await api.post('/customers', { platformCustomerId: 'rb-live', customerType: 'INDIVIDUAL' }))
        .body;
      const account: string = (
        await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`)
      ).body.data[0].id;
      let funded = 0;
      const fund = async (n: number) => {
        for (let i = 0; i < n; i++) {
          expect((await api.post(`/sandbox/internal-accounts/${account}/fund`, { amount: 1 })).status).toBe(200);
          funded += 1;
        }
      };
      await fund(40);
      // The rebuild runs in its own process while the service keeps projecting fundings.
      const rebuilt = new Promise<string>((done, fail) =>
        execFile(
          process.execPath,
          [resolve('dist/apps/api/src/cli.js'), 'read-models:rebuild', '--json'],
          { env: { ...process.env, NODE_OPTIONS: '', DATA_DIR: liveDir }, encoding: 'utf8' },
          (error, out) => (error ? fail(error) : done(out)),
        ),
      );
      // Meanwhile a document read by id is found, though its collection is being replayed (caughtUpReads).
      let reading = true;
      const read = async () => {
        for (let reads = 0; reading || reads < 5; reads++) {
          expect((await api.get(`/customers/${customer.id}`)).status).toBe(200);
          expect((await api.get(`/internal-accounts/${account}`)).status).toBe(200);
        }
      };
      await Promise.all([rebuilt.finally(() => (reading = false)), fund(60), read()]);
      expect(JSON.parse(await rebuilt).rebuilt).toEqual(expect.arrayContaining(['internal-accounts']));
      await fund(5);
      // The service's projector takes the leases back and catches up: the balance is exact.
      const deadline = Date.now() + 20_000;
      let balance: number | undefined;
      while (Date.now() < deadline) {
        balance = (await api.get(`/internal-accounts/${account}`)).body.balance?.amount;
        if (balance === funded) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(balance).toBe(funded);
      expect((await api.get(`/customers/${customer.id}`)).status).toBe(200);
    } finally {
      await live.kill();
      rmSync(liveDir, { recursive: true, force: true });
    }
  }, 90_000);
});
