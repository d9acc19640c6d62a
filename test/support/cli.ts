import { expect } from '@jest/globals';
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';

/** A CLI run's exit status and output. */
export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `npm run cli -- <args>` on the test service's data directory (the build is current: jest runs after it). Run
 * asynchronously: the service in this process keeps projecting and delivering while the CLI runs.
 */
export function cli(dataDir: string, ...args: string[]): Promise<CliRun> {
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
export async function cliJson(dataDir: string, ...args: string[]): Promise<any> {
  const run = await cli(dataDir, ...args, '--json');
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  return JSON.parse(run.stdout);
}

/** A failed --json run: its exit status, nothing on stdout, and the error object it wrote on stderr. */
export async function cliFailure(dataDir: string, ...args: string[]): Promise<{ status: number | null; error: any }> {
  const run = await cli(dataDir, ...args, '--json');
  expect(run.stdout).toBe('');
  return { status: run.status, error: JSON.parse(run.stderr) };
}
