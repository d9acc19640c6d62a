import { performance } from 'node:perf_hooks';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { CommandRunner } from '#application/command-runner.js';
import type { Infrastructure } from '#application/infrastructure.js';
import { BULK_IMPORT_QUEUE } from '#application/customers/bulk-imports.js';
import { CARD_PROVISIONING_QUEUE } from '#application/cards/card-jobs.js';
import { DomainError } from '#domain/errors.js';
import { RAIL_QUEUE } from '#domain/payments/rails/bank-rails.js';
import { TIMER_QUEUE } from '#domain/payments/transactions/payment-plan.js';
import { WEBHOOK_QUEUE } from '#domain/webhooks/retry-policy.js';
import type { EventStore } from '#event-store/event-store.js';
import { allProjections } from '#read-models/projections/index.js';

/** The job queues whose depth is reported. */
export const OBSERVED_QUEUES = [TIMER_QUEUE, WEBHOOK_QUEUE, RAIL_QUEUE, CARD_PROVISIONING_QUEUE, BULK_IMPORT_QUEUE];

/** Latency buckets in seconds, from a cached read to a slow store. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What a command ended in: appended (or decided nothing to append), refused by its decider, or failed. */
export type CommandOutcome = 'ok' | 'refused' | 'error';

const outcomeOf = (error: unknown): CommandOutcome => (error instanceof DomainError ? 'refused' : 'error');

/** A stream's kind (`card`, `ledger`, `wallet`, ...): the part of its name before the id, never the id itself. */
export const streamKind = (streamName: string): string => streamName.split('-', 1)[0] ?? streamName;

/** A command's type, as its decider switches on it; a command computed from the state is `computed`. */
const commandType = (command: unknown): string =>
  typeof command === 'object' && command !== null && typeof (command as { type?: unknown }).type === 'string'
    ? (command as { type: string }).type
    : 'computed';

/**
 * The process's Prometheus metrics (`prom-client`), in a registry of its own: HTTP requests by route, method and
 * status; commands by stream kind, type and outcome; event appends (latency and batch sizes); projection lag and
 * job queue depth, read when scraped; the process's own (CPU, memory, event loop lag, GC). Labels never carry ids,
 * so their number stays bounded whatever the traffic.
 */
export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly httpRequests: Histogram<'method' | 'route' | 'status'>;
  private readonly commands: Histogram<'stream' | 'command' | 'outcome'>;
  private readonly appends: Histogram<'outcome'>;
  private readonly appendBatch: Histogram;
  private readonly webhookAttempts: Histogram<'outcome'>;

  constructor(processName: string) {
    this.registry.setDefaultLabels({ process: processName });
    collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    const latency = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Histogram<L>({ name, help, labelNames, buckets: LATENCY_BUCKETS, registers });
    this.httpRequests = latency(
      'http_request_duration_seconds',
      'HTTP requests answered, by method, route pattern and status, and their duration',
      ['method', 'route', 'status'],
    );
    this.commands = latency(
      'command_duration_seconds',
      'Commands run through the command runner, by stream kind, command type and outcome, and their duration',
      ['stream', 'command', 'outcome'],
    );
    this.appends = latency(
      'event_append_duration_seconds',
      'Appends to the event store (one per batch of commands on a stream), by outcome, and their duration',
      ['outcome'],
    );
    this.webhookAttempts = latency(
      'webhook_attempt_duration_seconds',
      'Webhook delivery attempts to receivers by outcome (DELIVERED, RETRYING, FAILED, DEAD), and their duration',
      ['outcome'],
    );
    this.appendBatch = new Histogram({
      name: 'event_append_batch_events',
      help: 'Events written by one append',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 1024],
      registers,
    });
  }

  /** One webhook delivery attempt to a receiver. */
  observeWebhookAttempt(outcome: string, latencyMs: number): void {
    this.webhookAttempts.observe({ outcome }, latencyMs / 1000);
  }

  /** One answered HTTP request (the request log's line: route is the matched pattern, null for none). */
  observeRequest(line: { method?: string; route: string | null; status: number; duration: number }): void {
    const labels = { method: line.method ?? 'UNKNOWN', route: line.route ?? 'unmatched', status: String(line.status) };
    this.httpRequests.observe(labels, line.duration / 1000);
  }

  /**
   * Measures the process's one write path: every command its runner runs (and every runner `for` derives from it),
   * and every append to its event store; then registers the gauges read at scrape time.
   */
  instrument(infra: Infrastructure): this {
    this.measureCommands(infra.runner);
    this.measureAppends(infra.eventStore);
    this.watchProjections(infra);
    this.watchQueues(infra);
    infra.observers = { webhookAttempt: (outcome, latencyMs) => this.observeWebhookAttempt(outcome, latencyMs) };
    return this;
  }

  /** The Prometheus text exposition of every metric. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  private measureCommands(runner: CommandRunner): void {
    const run = CommandRunner.prototype.run;
    const commands = this.commands;
    // On the instance, so that the runners `for` derives (prototype: this one) are measured too.
    runner.run = async function measuredRun(this: CommandRunner, ...args: Parameters<CommandRunner['run']>) {
      const started = performance.now();
      const labels = { stream: streamKind(args[0]), command: commandType(args[2]) };
      try {
        const result = await run.apply(this, args);
        commands.observe({ ...labels, outcome: 'ok' }, (performance.now() - started) / 1000);
        return result;
      } catch (error) {
        commands.observe({ ...labels, outcome: outcomeOf(error) }, (performance.now() - started) / 1000);
        throw error;
      }
    } as CommandRunner['run'];
  }

  private measureAppends(store: EventStore): void {
    const append = store.appendToStream.bind(store);
    const { appends, appendBatch } = this;
    store.appendToStream = async (...args: Parameters<EventStore['appendToStream']>) => {
      const started = performance.now();
      try {
        const result = await append(...args);
        appends.observe({ outcome: 'ok' }, (performance.now() - started) / 1000);
        appendBatch.observe(args[1].length);
        return result;
      } catch (error) {
        appends.observe(
          { outcome: error instanceof Error ? error.name : 'error' },
          (performance.now() - started) / 1000,
        );
        throw error;
      }
    };
  }

  private watchProjections({ eventStore, readModels }: Infrastructure): void {
    new Gauge({
      name: 'projection_checkpoint_lag',
      help:
        "Log positions between the event log's head and each projection's checkpoint " +
        '(events on the embedded store; commit-position bytes on EventStoreDB)',
      labelNames: ['projection'],
      registers: [this.registry],
      async collect() {
        const head = await eventStore.headPosition();
        for (const { name } of allProjections) {
          const checkpoint = await readModels.getCheckpoint(name);
          const lag = checkpoint === undefined ? head : head > checkpoint ? head - checkpoint : 0n;
          this.set({ projection: name }, Number(lag));
        }
      },
    });
  }

  private watchQueues({ jobs, clock }: Infrastructure): void {
    new Gauge({
      name: 'job_queue_oldest_due_age_seconds',
      help: "How long each queue's longest-waiting runnable job has been due (0 when none waits), on the queue clock",
      labelNames: ['queue'],
      registers: [this.registry],
      async collect() {
        const now = clock.now().getTime();
        for (const queue of OBSERVED_QUEUES) {
          const due = await jobs.oldestDue(queue);
          this.set({ queue }, due ? Math.max(0, now - due.getTime()) / 1000 : 0);
        }
      },
    });
    new Gauge({
      name: 'job_queue_jobs',
      help: 'Jobs in each queue by state (waiting, delayed, active, dead; each counted up to 10,000)',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        for (const queue of OBSERVED_QUEUES) {
          const depth = await jobs.depth(queue);
          for (const [state, count] of Object.entries(depth)) this.set({ queue, state }, count);
        }
      },
    });
  }
}
