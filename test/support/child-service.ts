import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { basicAuth, client, TEST_ALLOWED_HOSTS, type Client } from './service.js';

export const COMPILED_MAIN = resolve('dist/apps/api/src/main.js');

export interface ChildService {
  process: ChildProcess;
  url: string;
  api: Client;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Runs the compiled service (`npm run build` output) as a child process on a data directory and
 * resolves once it listens. Used by crash tests, which must kill a real process.
 */
export async function startChildService(
  dataDir: string,
  env: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<ChildService> {
  if (!existsSync(COMPILED_MAIN))
    throw new Error(`${COMPILED_MAIN} is missing: run \`npm run build\` first (npm test does)`);
  const child = spawn(process.execPath, [COMPILED_MAIN], {
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'log',
      NO_COLOR: '1',
      WEBHOOK_ALLOWED_HOSTS: TEST_ALLOWED_HOSTS,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`service did not start within ${timeoutMs} ms:\n${out}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      // eslint-disable-next-line no-control-regex -- an ANSI colour code ends the address in coloured logs
      const match = /listening on (http:\/\/[^\s\x1b]+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code} before listening:\n${out}`));
    });
  });
  const credentials = JSON.parse(readFileSync(join(dataDir, 'sandbox-credentials.json'), 'utf8')) as {
    tokenId: string;
    clientSecret: string;
  };
  return {
    process: child,
    url,
    api: client(url, basicAuth(credentials.tokenId, credentials.clientSecret)),
    output: () => out,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

export const COMPILED_WORKER = resolve('dist/apps/worker/src/main.js');

export interface ChildWorker {
  process: ChildProcess;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Runs the compiled worker (`dist/apps/worker/src/main.js`) on a data directory and resolves once
 * it started its duties (projections running, or standing by for another worker's leases).
 */
export async function startChildWorker(
  dataDir: string,
  env: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<ChildWorker> {
  if (!existsSync(COMPILED_WORKER))
    throw new Error(`${COMPILED_WORKER} is missing: run \`npm run build\` first (npm test does)`);
  const child = spawn(process.execPath, [COMPILED_WORKER], {
    env: { ...process.env, NODE_OPTIONS: '', DATA_DIR: dataDir, LOG_LEVEL: 'log', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  await new Promise<void>((ready, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`worker did not start within ${timeoutMs} ms:\n${out}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (/projections running/.test(out)) {
        clearTimeout(timer);
        ready();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code} before starting:\n${out}`));
    });
  });
  return {
    process: child,
    output: () => out,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
