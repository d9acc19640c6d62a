import { afterAll, expect } from '@jest/globals';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
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

/** A CLI command that runs until stopped (`listen`): its stdout lines as they come, and how it ended. */
export interface RunningCli {
  lines: string[];
  stderr: () => string;
  /** Polls (real time, bounded) until a line matches. */
  waitForLine(match: (line: string) => boolean, timeoutMs?: number, what?: string): Promise<string>;
  /** Sends SIGINT (Ctrl-C) and waits for the exit. */
  stop(): Promise<{ status: number | null; signal: NodeJS.Signals | null }>;
}

/** Started children not stopped by their tests: killed when the file ends. */
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

/** Starts `npm run cli -- <args>` on the test service's data directory, as a child that keeps running. */
export function startCli(dataDir: string, ...args: string[]): RunningCli {
  const child = spawn(process.execPath, [resolve('dist/apps/api/src/cli.js'), ...args], {
    env: { ...process.env, NODE_OPTIONS: '', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const lines: string[] = [];
  let partial = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ status: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (status, signal) => {
      running.delete(child);
      done({ status, signal });
    }),
  );
  return {
    lines,
    stderr: () => stderr,
    async waitForLine(match, timeoutMs = 15_000, what = 'a line') {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.find(match);
        if (found !== undefined) return found;
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`cli ${args[0]}: no ${what} (stdout: ${lines.join('\n')}; stderr: ${stderr})`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async stop() {
      child.kill('SIGINT');
      const result = await exited;
      if (partial) lines.push(partial);
      partial = '';
      return result;
    },
  };
}
