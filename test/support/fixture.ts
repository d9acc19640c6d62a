import { afterAll, beforeAll, describe } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '#domain/clock.js';
import type { IdGenerator } from '#domain/primitives.js';
import { startChildService, type ChildService } from './child-service.js';
import { findRedisServer, startRedis, type RedisHandle } from './redis-server.js';
import { startTestService, type Client, type TestService } from './service.js';
import { pointWebhooksAt, startWebhookReceiver, type ReceiverMode, type WebhookReceiver } from './webhook-receiver.js';

/** Where a file's platform clock starts unless it says otherwise: 2026-01-05T12:00:00Z. */
export const DEFAULT_START = Date.UTC(2026, 0, 5, 12);

export interface FixtureOptions {
  /** The platform clock (a `ManualClock` at `start`, or at DEFAULT_START, unless given). */
  clock?: ManualClock;
  start?: number;
  ids?: IdGenerator;
  env?: Record<string, string>;
  /** A data directory the file owns (removed by the file); a fresh one otherwise. */
  dataDir?: string;
  /** Starts a webhook receiver in this mode and points the sandbox platform's webhooks at it. */
  webhooks?: ReceiverMode;
  /** Starts a webhook receiver in this mode, pointed at by nothing until a test configures it. */
  receiver?: ReceiverMode;
  /** The job queue: SQLite (the default) or BullMQ on a redis-server of the file's own. */
  jobs?: JobQueueAdapter;
}

export type JobQueueAdapter = 'sqlite' | 'bullmq';

/**
 * Declares `suite` once per job-queue adapter (which it passes to `useTestService({ jobs })`). In CI a missing
 * redis-server is an error (startRedis throws); elsewhere the BullMQ run is skipped with a warning.
 */
export function describeEachJobQueue(what: string, suite: (adapter: JobQueueAdapter) => void): void {
  const redisMissing = !findRedisServer() && !process.env.CI;
  if (redisMissing) console.warn(`Skipping the BullMQ ${what} suite: redis-server is not on PATH`);
  for (const [adapter, skip] of [
    ['sqlite', false],
    ['bullmq', redisMissing],
  ] as const) {
    (skip ? describe.skip : describe)(`${what} through the ${adapter} job queue`, () => suite(adapter));
  }
}

/** The file's service, bound when its `beforeAll` has run; the clients can be taken before that. */
export interface ServiceFixture extends TestService {
  clock: ManualClock;
  /** The receiver of `webhooks` (throws when the fixture has none). */
  readonly receiver: WebhookReceiver;
  /**
   * A new platform with a webhook receiver of its own (closed after the file's tests), which its webhooks are
   * pointed at unless `point` is false (the test configures the endpoint).
   */
  webhookPlatform(options?: { sandbox?: boolean; point?: boolean }): Promise<WebhookPlatform>;
}

/** A platform of a test's own, its webhooks pointed at a receiver of its own. */
export interface WebhookPlatform {
  platformId: string;
  api: Client;
  receiver: WebhookReceiver;
}

/** A client whose calls go to the client `target()` returns when they are made. */
function lateClient(target: () => Client): Client {
  return {
    get payments() {
      return target().payments;
    },
    request: (method, path, body, headers) => target().request(method, path, body, headers),
    get: (path, headers) => target().get(path, headers),
    post: (path, body, headers) => target().post(path, body, headers),
    patch: (path, body, headers) => target().patch(path, body, headers),
    delete: (path, headers) => target().delete(path, headers),
  };
}

/**
 * Starts the whole service in-process for the file's tests (in `beforeAll`, closed in `afterAll`), with a
 * receiver for its webhooks if asked. `t.api` and `t.anonymous` may be kept in constants at once; everything else
 * is read inside tests and hooks. A test that counts or lists what it made, or changes the platform's config, takes
 * a platform of its own: `await t.otherPlatform()`.
 */
export function useTestService(options: FixtureOptions = {}): ServiceFixture {
  const clock = options.clock ?? new ManualClock(options.start ?? DEFAULT_START);
  let running: TestService | undefined;
  let redis: RedisHandle | undefined;
  let receiver: WebhookReceiver | undefined;
  const receivers: WebhookReceiver[] = [];
  beforeAll(async () => {
    let env = options.env;
    if (options.jobs === 'bullmq') {
      redis = await startRedis();
      env = { ...env, JOBS: 'bullmq', REDIS_URL: redis!.url };
    }
    running = await startTestService({ clock, ids: options.ids, env, dataDir: options.dataDir });
    const mode = options.webhooks ?? options.receiver;
    if (mode) receiver = await startWebhookReceiver(mode);
    if (receiver && options.webhooks) await pointWebhooksAt(running.api, receiver);
  });
  afterAll(async () => {
    await running?.close();
    await redis?.stop();
    await Promise.all([receiver, ...receivers].map((r) => r?.close()));
  });
  const started = (): TestService => {
    if (!running) throw new Error('the test service starts in beforeAll: use it inside tests and hooks');
    return running;
  };
  return {
    clock,
    get service() {
      return started().service;
    },
    get url() {
      return started().url;
    },
    get dataDir() {
      return started().dataDir;
    },
    api: lateClient(() => started().api),
    anonymous: lateClient(() => started().anonymous),
    get receiver() {
      if (!receiver) throw new Error('this fixture has no webhook receiver (options `webhooks`, `receiver`)');
      return receiver;
    },
    otherPlatform: (platformOptions) => started().otherPlatform(platformOptions),
    async webhookPlatform({ sandbox, point = true } = {}) {
      const platform = await started().otherPlatform({ sandbox });
      const own = await startWebhookReceiver();
      receivers.push(own);
      if (point) await pointWebhooksAt(platform.api, own);
      return { ...platform, receiver: own };
    },
    close: () => started().close(),
  };
}

/**
 * A data directory of the file's own, which the processes it starts share (a restarted one reads what the last
 * one wrote). After the file's tests, `stop` ends whatever still runs on it, then the directory is removed.
 */
export function useDataDir(prefix: string, stop: () => Promise<unknown> | undefined = () => undefined): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(async () => {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/**
 * A data directory of the file's own and what its tests start on it: service processes (`start`) and webhook
 * receivers (`receiver`). After the file's tests they are stopped, the last started first, and the directory removed.
 */
export function useChildServices(prefix: string) {
  const running: (() => Promise<unknown>)[] = [];
  const dataDir = useDataDir(prefix, async () => {
    for (const stop of running.splice(0).reverse()) await stop();
  });
  return {
    dataDir,
    async start(env?: Record<string, string>): Promise<ChildService> {
      const child = await startChildService(dataDir, env);
      running.push(() => child.kill());
      return child;
    },
    async receiver(mode?: ReceiverMode) {
      const receiver = await startWebhookReceiver(mode);
      running.push(() => receiver.close());
      return receiver;
    },
  };
}
