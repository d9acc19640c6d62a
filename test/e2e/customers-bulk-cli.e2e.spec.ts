import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { basicAuth, client, startTestService, type TestService } from '../support/service.js';
import { COLUMNS, csvOf, individual, waitForJob } from './customers-bulk-support.js';
import { useDataDir } from '../support/fixture.js';

/** `npm run cli -- <args>` on a data directory (the build is current: jest runs after it); stdout is not a terminal. */
function cli(dataDir: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [resolve('dist/apps/api/src/cli.js'), ...args], {
    env: { ...process.env, NODE_OPTIONS: '', DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('customers:import from the CLI', () => {
  let t: TestService | undefined;
  const dataDir = useDataDir('payments-bulk-cli-', () => t?.close());

  it('imports a file as the platform’s job with progress lines; the API shows the job and customers', async () => {
    const created = cli(dataDir, 'platform:create', '--name', 'Importer', '--sandbox', '--json');
    expect(created.status).toBe(0);
    const { platformId, tokenId, clientSecret } = JSON.parse(created.stdout);
    const bad = new Set([3, 17]);
    const rows = Array.from({ length: 30 }, (_, i) =>
      individual(`cli-${i}`, bad.has(i) ? { customerType: 'PERSON' } : {}),
    );
    const file = join(dataDir, 'customers.csv');
    writeFileSync(file, csvOf(rows));

    const run = cli(dataDir, 'customers:import', '--platform', platformId, file, '--json');
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: expect.any(String) });
    const outcome = JSON.parse(run.stdout);
    expect(outcome).toMatchObject({
      jobId: expect.stringMatching(/^Job:/),
      status: 'COMPLETED',
      progress: { total: 30, processed: 30, successful: 28, failed: 2 },
    });
    expect(outcome.errors.map((e: any) => [e.line, e.code, e.details.errors[0].field])).toEqual([
      [5, 'INVALID_INPUT', 'customerType'],
      [19, 'INVALID_INPUT', 'customerType'],
    ]);
    // Not a terminal: plain progress lines, the last one complete.
    expect(run.stderr).toContain(`customers:import: job ${outcome.jobId}`);
    expect(run.stderr.trim().split('\n').pop()).toBe('customers:import: 30/30 rows (28 created, 2 failed)');

    const refused = cli(dataDir, 'customers:import', '--platform', platformId, writeBad(dataDir));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/cannot be imported: the CSV header is not valid: .*umaAddress/);
    expect(cli(dataDir, 'customers:import', '--platform', platformId).status).toBe(2);

    t = await startTestService({ dataDir });
    const api = client(t.url, basicAuth(tokenId, clientSecret));
    const job = await waitForJob(api, outcome.jobId);
    expect(job).toMatchObject({ status: 'COMPLETED', progress: outcome.progress });
    expect(job.errors).toEqual(outcome.errors);
    expect((await api.get('/customers?limit=1')).body.totalCount).toBe(28);
  });
});

function writeBad(dataDir: string): string {
  const file = join(dataDir, 'bad.csv');
  writeFileSync(file, csvOf([individual('x')], COLUMNS.slice(1)));
  return file;
}
