import type { BlobStore } from '#blob-store/blob-store.js';
import type { CommandRunner } from './command-runner.js';
import type { AppConfig } from '#config/config.js';
import type { Clock } from '#domain/clock.js';
import type { EventStore } from '#event-store/event-store.js';
import type { JobQueue } from '#jobs/job-queue.js';
import type { ProjectionRunner } from '#read-models/runner/projection-runner.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import type { PlatformClocks } from './command-context.js';

/**
 * The storage adapters selected by configuration, plus the local projector and the command runner: what the
 * application runs on. The
 * processes assemble it (apps/host); the application only names the ports.
 */
export interface Infrastructure {
  eventStore: EventStore;
  readModels: ReadModelStore;
  jobs: JobQueue;
  /** Files of uploaded documents, by content hash. */
  blobs: BlobStore;
  projections: ProjectionRunner;
  /** What the infrastructure was built with; worker duties (webhooks, timers) need both. */
  config: AppConfig;
  /** The base clock (real time, or a test's manual clock); the queue clock. */
  clock: Clock;
  /** Every platform's own clock: the base clock plus the platform's sandbox offset. */
  clocks: PlatformClocks;
  /**
   * The process's one command runner (its cache, locks and queues per stream): the API's handlers, the worker's
   * duties and the bulk importer all decide through it, each declaring what it needs (`CommandRunner.for`).
   */
  runner: CommandRunner;
  /** What the process measures beyond its write path (set by its metrics; absent, nothing is measured). */
  observers?: ProcessObservers;
  close(): Promise<void>;
}

/** Measurements parts of the process report as they happen. */
export interface ProcessObservers {
  /** One webhook delivery attempt: its outcome (DELIVERED, RETRYING, FAILED...) and how long the receiver took. */
  webhookAttempt(outcome: string, latencyMs: number): void;
}
