import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startTestService, type Client, type TestService } from '../support/service.js';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `npm run cli -- <args>` on the test service's data directory (the build is current: jest runs after it). Run
 * asynchronously: the service in this process keeps projecting and delivering while the CLI runs.
 */
function cli(dataDir: string, ...args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [resolve('dist/apps/api/src/cli.js'), ...args],
      { env: { ...process.env, NODE_OPTIONS: '', DATA_DIR: dataDir }, encoding: 'utf8' },
      (error, stdout, stderr) => done({ status: error ? (error.code as number) : 0, stdout, stderr }),
    );
  });
}

/** A successful --json run's result. */
async function json(dataDir: string, ...args: string[]): Promise<any> {
  const run = await cli(dataDir, ...args, '--json');
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  return JSON.parse(run.stdout);
}

/** A failed --json run: its exit status, nothing on stdout, and the error object it wrote on stderr. */
async function failure(dataDir: string, ...args: string[]): Promise<{ status: number | null; error: any }> {
  const run = await cli(dataDir, ...args, '--json');
  expect(run.stdout).toBe('');
  return { status: run.status, error: JSON.parse(run.stderr) };
}

describe('the operators’ CLI', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'payments-cli-'));
  let t: TestService;
  let platformA: string;
  let other: { platformId: string; api: Client };

  beforeAll(async () => {
    t = await startTestService({ dataDir });
    platformA = t.service.sandbox!.platformId;
    other = await t.otherPlatform();
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates platforms and tokens and lists platforms, as JSON with --json and as text without', async () => {
    const created = await json(dataDir, 'platform:create', '--name', 'Ops', '--sandbox');
    expect(created).toEqual({
      platformId: expect.stringMatching(/^Platform:/),
      tokenId: expect.stringMatching(/^ApiToken:/),
      clientSecret: expect.any(String),
    });
    const token = await json(dataDir, 'token:create', '--platform', created.platformId, '--name', 'ops');
    expect(token).toEqual({
      platformId: created.platformId,
      tokenId: expect.stringMatching(/^ApiToken:/),
      clientSecret: expect.any(String),
    });

    const listed = await json(dataDir, 'platforms:list');
    expect(listed.map((p: any) => p.id)).toEqual(expect.arrayContaining([platformA, other.platformId]));
    const text = await cli(dataDir, 'platforms:list');
    expect(text.status).toBe(0);
    expect(text.stdout.split('\n')[0]).toMatch(/^platform\s+name\s+sandbox\s+created$/);
    expect(text.stdout).toContain(platformA);

    const unknown = 'Platform:00000000-0000-4000-8000-000000000000';
    expect(await failure(dataDir, 'token:create', '--platform', unknown)).toEqual({
      status: 1,
      error: { status: 404, code: 'PLATFORM_NOT_FOUND', message: `platform ${unknown} not found` },
    });
    const usage = await cli(dataDir, 'token:create');
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/^error: token:create needs --platform Platform:<uuid>\n\nusage:/);
  });
});
