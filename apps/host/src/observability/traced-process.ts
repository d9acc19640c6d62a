import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, propagation, trace, type Span } from '@opentelemetry/api';
import type { CommandRunner } from '#application/command-runner.js';
import type { Infrastructure } from '#application/infrastructure.js';
import { DomainError } from '#domain/errors.js';
import type { EventStore, NewEvent } from '#event-store/event-store.js';
import type { Job, JobQueue } from '#jobs/job-queue.js';
import type { Projection } from '#read-models/projection.js';
import { streamKind } from './metrics.js';

const tracer = () => trace.getTracer('payments-platform');

/** Runs `work` in a span named `name`; a refusal by a decider is an outcome, not an error of the span. */
async function inSpan<T>(name: string, attributes: Record<string, string | number>, work: () => Promise<T>) {
  return tracer().startActiveSpan(name, { kind: SpanKind.INTERNAL, attributes }, async (span: Span) => {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof DomainError)) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR });
      } else span.setAttribute('payments.refusal', error.code);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The active trace as W3C `traceparent` (nothing outside a sampled span). */
function traceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/**
 * The spans of the process's own write path, added only when tracing is on (`startTracing`): each command the runner
 * runs, each append (its events carry the trace as `traceparent` in their metadata), each job its workers run, and
 * each event a projection applies, as a child of the trace that wrote it.
 */
export function traceProcess(infra: Infrastructure, projections: readonly Projection[]): void {
  // The runner's run as it is (with the metrics' measure around it, when there is one): the span covers it.
  const inner = infra.runner.run;
  infra.runner.run = function tracedRun(this: CommandRunner, ...args: Parameters<CommandRunner['run']>) {
    const command = args[2] as { type?: unknown };
    const type = typeof command === 'object' && typeof command.type === 'string' ? command.type : 'computed';
    const attributes = { 'payments.stream_kind': streamKind(args[0]), 'payments.command': type };
    return inSpan(`command ${type}`, attributes, () => inner.apply(this, args));
  } as CommandRunner['run'];
  traceAppends(infra.eventStore);
  traceJobs(infra.jobs);
  for (const projection of projections) traceProjection(projection);
}

/** Each job a worker of the process runs, in a span of its own (a root: a job outlives the request that queued it). */
function traceJobs(jobs: JobQueue): void {
  const process = jobs.process.bind(jobs);
  jobs.process = <T>(queue: string, handler: (job: Job<T>) => Promise<void>, options?: { concurrency?: number }) => {
    const traced = (job: Job<T>) => {
      const attributes = {
        'payments.queue': queue,
        'payments.job': job.name,
        'payments.attempt': job.attemptsMade + 1,
      };
      return context.with(ROOT_CONTEXT, () => inSpan(`job ${queue} ${job.name}`, attributes, () => handler(job)));
    };
    return process(queue, traced, options);
  };
}

function traceAppends(store: EventStore): void {
  const append = store.appendToStream.bind(store);
  store.appendToStream = (stream, events, expected) => {
    const attributes = { 'payments.stream_kind': streamKind(stream), 'payments.events': events.length };
    return inSpan('event-store append', attributes, () => {
      const parent = traceparent();
      // The metadata changes, so its serialized form (taken by the runner before the trace was added) is made again.
      const carried: NewEvent[] = parent
        ? events.map((e) => {
            const metadata = { ...e.metadata, traceparent: parent };
            const serialized = e.serialized && { data: e.serialized.data, metadata: JSON.stringify(metadata) };
            return { ...e, metadata, ...(serialized ? { serialized } : {}) };
          })
        : [...events];
      return append(stream, carried, expected);
    });
  };
}

function traceProjection(projection: Projection): void {
  const apply = projection.apply.bind(projection);
  projection.apply = (event, tx) => {
    if (!projection.handles.includes(event.type)) return apply(event, tx);
    const carried = event.metadata.traceparent;
    const parent =
      typeof carried === 'string' ? propagation.extract(ROOT_CONTEXT, { traceparent: carried }) : ROOT_CONTEXT;
    const attributes = { 'payments.projection': projection.name, 'payments.event': event.type };
    return context.with(parent, () => inSpan(`project ${projection.name}`, attributes, () => apply(event, tx)));
  };
}
