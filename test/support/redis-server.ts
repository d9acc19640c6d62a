import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from './ports.js';

export interface RedisHandle {
  url: string;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 10_000;

/** Absolute path of `redis-server` on PATH, if any. */
export function findRedisServer(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'redis-server');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/**
 * Starts a throwaway `redis-server` on a free loopback port (no persistence, `noeviction` as
 * BullMQ requires). Returns undefined when the binary is missing so a suite can skip with a
 * printed reason; in CI a missing binary is an error.
 */
export async function startRedis(): Promise<RedisHandle | undefined> {
  const binary = findRedisServer();
  if (!binary) {
    if (process.env.CI)
      throw new Error('redis-server is not on PATH: .ci/run should have installed it (Debian package redis-server)');
    return undefined;
  }
  let lastError: unknown;
  // The free port can be taken between probing and binding: try a few ports.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      return await startOn(binary, await freePort());
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/** Starts `redis-server` on `port` again (after a test stopped the one it had there). */
export async function startRedisOn(port: number): Promise<RedisHandle> {
  const binary = findRedisServer();
  if (!binary) throw new Error('redis-server is not on PATH');
  return startOn(binary, port);
}

async function startOn(binary: string, port: number): Promise<RedisHandle> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-'));
  const child = spawn(
    binary,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'noeviction',
      '--daemonize',
      'no',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });

  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      cleanup();
      throw new Error(
        `redis-server exited during start (code ${child.exitCode}, signal ${child.signalCode}):\n${output}`,
      );
    }
    if (await answersPing(port)) break;
    if (Date.now() > deadline) {
      await terminate(child, exited);
      cleanup();
      throw new Error(`redis-server did not answer PING on port ${port} within ${START_TIMEOUT_MS} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  let stopping: Promise<void> | undefined;
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => {
      stopping ??= terminate(child, exited).finally(cleanup);
      return stopping;
    },
  };
}

/** SIGTERM, wait for exit; SIGKILL if it does not exit in time. */
async function terminate(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), STOP_TIMEOUT_MS);
  });
  const late = await Promise.race([exited.then(() => false), timedOut]);
  clearTimeout(timer);
  if (late) {
    child.kill('SIGKILL');
    await exited;
  }
}

/** One raw PING over RESP: no client library, so no reconnect loops while the server starts. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}
