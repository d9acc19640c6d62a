import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { basicAuth, client, TEST_ALLOWED_HOSTS, type Client } from './service.js';

export const COMPILED_MAIN = resolve('dist/apps/api/src/main.js');

/** A compiled entry point running as a child process: its output so far and `kill` (SIGKILL by default). */
export interface ChildWorker {
  process: ChildProcess;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** The service as a child process, with its address and a client authenticated as the sandbox platform. */
export interface ChildService extends ChildWorker {
  url: string;
  api: Client;
  /** The sandbox platform's Authorization header (for a client of one's own, such as a benchmark's unchecked one). */
  auth: string;
}

/**
 * The Node options the service and the worker run with (`npm start`, the Dockerfile): a young generation of at most
 * 8 MB a semi-space, so that a 29 MB bulk import's buffers are collected young instead of growing it (Node 20 lets it
 * reach 16 MB, Node 24 64 MB; see docs/operations.md). Passed as `NODE_OPTIONS`, so that a test's own replace them.
 */
export const SERVICE_NODE_OPTIONS = '--max-semi-space-size=8';

/** The environment of a child on `dataDir`: this process's, plain logs and the service's Node options, then `env`. */
const childEnv = (dataDir: string, env: Record<string, string>): NodeJS.ProcessEnv => ({
  ...process.env,
  NODE_OPTIONS: SERVICE_NODE_OPTIONS,
  // As the image and `npm start` run it: two malloc arenas, not one per thread (docs/operations.md).
  MALLOC_ARENA_MAX: '2',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'log',
  NO_COLOR: '1',
  ...env,
});

/**
 * Runs the compiled service (`npm run build` output) as a child process on a data directory and
 * resolves once it listens. Used by crash tests, which must kill a real process.
 */
export async function startChildService(
  dataDir: string,
  env: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<ChildService> {
  const started = await spawnUntilReady(
    COMPILED_MAIN,
    childEnv(dataDir, { PORT: '0', HOST: '127.0.0.1', WEBHOOK_ALLOWED_HOSTS: TEST_ALLOWED_HOSTS, ...env }),
    // eslint-disable-next-line no-control-regex -- an ANSI colour code ends the address in coloured logs
    { what: 'service', ready: /listening on (http:\/\/[^\s\x1b]+)/, before: 'listening', timeoutMs },
  );
  const url = started.match[1];
  const credentials = JSON.parse(readFileSync(join(dataDir, 'sandbox-credentials.json'), 'utf8')) as {
    tokenId: string;
    clientSecret: string;
  };
  const auth = basicAuth(credentials.tokenId, credentials.clientSecret);
  return {
    process: started.process,
    url,
    api: client(url, auth),
    auth,
    output: started.output,
    kill: started.kill,
  };
}

export const COMPILED_WORKER = resolve('dist/apps/worker/src/main.js');

/**
 * Runs the compiled worker (`dist/apps/worker/src/main.js`) on a data directory and resolves once
 * it started its duties (projections running, or standing by for another worker's leases).
 */
export async function startChildWorker(
  dataDir: string,
  env: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<ChildWorker> {
  const {
    process: child,
    output,
    kill,
  } = await spawnUntilReady(COMPILED_WORKER, childEnv(dataDir, env), {
    what: 'worker',
    ready: /projections running/,
    before: 'starting',
    timeoutMs,
  });
  return { process: child, output, kill };
}

/**
 * Runs a compiled entry point (`npm run build` output) with `env` and resolves once its output matches `ready`:
 * the match, the output so far, and `kill` (SIGKILL by default), which waits for the process to exit.
 */
async function spawnUntilReady(
  main: string,
  env: NodeJS.ProcessEnv,
  { what, ready, before, timeoutMs }: { what: string; ready: RegExp; before: string; timeoutMs: number },
): Promise<ChildWorker & { match: RegExpExecArray }> {
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first (npm test does)`);
  const child = spawn(process.execPath, [main], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  // Kept as chunks and joined on demand: a busy child logs megabytes, and appending to one string that is read after
  // every chunk copies all of it each time (it stalled the benchmarks' clients, which share this process).
  const chunks: string[] = [];
  const out = () => chunks.join('');
  let started = false;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const match = await new Promise<RegExpExecArray>((resolveMatch, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${what} did not start within ${timeoutMs} ms:\n${out()}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      chunks.push(chunk.toString());
      if (started) return;
      const found = ready.exec(out());
      if (found) {
        started = true;
        clearTimeout(timer);
        resolveMatch(found);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code} before ${before}:\n${out()}`));
    });
  });
  return {
    process: child,
    match,
    output: out,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
