import { randomIds, streams, type IdGenerator } from '#domain/primitives.js';
import { bulkImportCustomerId, columnOf, customerRow } from '#domain/customers/bulk-import-csv.js';
import {
  bulkImportDecider,
  bulkImportFinished,
  progressOf,
  type BulkImportProgress,
  type BulkImportRow,
  type BulkImportState,
  type RowOutcome,
} from '#domain/customers/bulk-import.js';
import { umaAddressKey } from '#domain/claims/claim.js';
import { DomainError, type FieldError } from '#domain/errors.js';
import type { EventStore } from '#event-store/event-store.js';
import { UnrecoverableJobError } from '#jobs/job-queue.js';
import { IdentityClaims } from '../claims/identity-claims.js';
import { CommandContext, faultPoint, type PlatformClocks } from '../command-context.js';
import type { CommandRunner } from '../command-runner.js';
import type { Actor } from '../tokens.js';
import { CreateCustomerCommand, CreateCustomerHandler } from './customer-commands.js';

/**
 * The checks of a `POST /customers` body, exactly as the API applies them (its DTO and validation
 * pipe), as field errors; the apps provide it, libraries do not know the HTTP edge.
 */
export type CustomerBodyValidator = (body: Record<string, unknown>) => Promise<FieldError[]>;

export interface BulkImportProcessorDeps {
  eventStore: EventStore;
  /** The process's runner. */
  runner: CommandRunner;
  clocks: PlatformClocks;
  validate: CustomerBodyValidator;
  ids?: IdGenerator;
  /** Rows created at once (default 16). */
  concurrency?: number;
  /** Rows whose outcomes are recorded together (default 250). */
  window?: number;
}

type Input = ConstructorParameters<typeof CreateCustomerCommand>[0];

/** Runs `work` on at most `n` items at once. */
function limiter(n: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    // A finished piece of work hands its slot straight to the next waiting one.
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
}

/** The row's public error: the code and message POST /customers would answer, fields named by column. */
function rowError(error: DomainError): NonNullable<RowOutcome['error']> {
  const { errors, ...rest } = error.details ?? {};
  const details = {
    ...rest,
    ...(errors ? { errors: errors.map((e) => ({ ...e, field: columnOf(e.field) })) } : {}),
  };
  return { code: error.code, message: error.message, ...(Object.keys(details).length > 0 ? { details } : {}) };
}

/**
 * Runs a bulk import: every row not yet recorded, in order, as an ordinary customer creation (the
 * same validation, handler, uniqueness claims and events as POST /customers, on behalf of the actor
 * that uploaded the file), recording outcomes every `window` rows. Each row creates its customer
 * under an id derived from the job and its line, so a run after a crash (or a second run at the
 * same time) finds what an earlier run created and counts it once: no row ever creates two
 * customers. Rows of one window run concurrently, except that a row waits for the earlier rows of
 * the window with the same platformCustomerId or UMA address, so the first of them wins as it would
 * one by one. A business refusal is the row's outcome; anything else fails the run, to be retried.
 */
export class BulkImportProcessor {
  private readonly runner: CommandRunner;
  private readonly create: CreateCustomerHandler;

  constructor(private readonly deps: BulkImportProcessorDeps) {
    // The import's stream is folded 16 chunks of rows (about 1 MB) at a time, the streams of the rows' customers and
    // claims, each touched once, are not kept long, and no reader waits for the read models to show a row.
    this.runner = deps.runner.for({
      answersAfter: 'append',
      cache: { name: 'bulk-imports', size: 1_000 },
      readPage: 16,
    });
    const claims = new IdentityClaims(this.runner, deps.eventStore, deps.clocks);
    this.create = new CreateCustomerHandler(
      new CommandContext(this.runner, deps.clocks, deps.ids ?? randomIds),
      claims,
    );
  }

  /** Runs the import to its end and answers its final state; `onProgress` hears after every window. */
  async run(jobId: string, onProgress?: (progress: BulkImportProgress) => void): Promise<BulkImportState> {
    const stream = streams.bulkImport(jobId);
    const { state: job } = await this.runner.load(stream, bulkImportDecider);
    if (!job.exists || !job.accepted) throw new UnrecoverableJobError(`bulk import ${jobId} was never accepted`);
    if (bulkImportFinished(job)) return job;
    const actor: Actor = { platformId: job.platformId, actor: job.requestedBy, correlationId: jobId };
    const options = { metadata: { ...actor }, answersAfter: 'append' as const };
    const now = async () => (await this.deps.clocks.now(actor.platformId)).toISOString();
    onProgress?.(progressOf(job));
    let first = job.processed;
    for await (const rows of this.windows(stream, job)) {
      const outcomes = await this.runWindow(jobId, job.columns, rows, actor);
      if (first <= job.total / 2 && job.total / 2 < first + rows.length) faultPoint('bulk-import-halfway');
      const command = { type: 'RecordOutcomes' as const, first, outcomes, now: await now() };
      const { state } = await this.runner.run(stream, bulkImportDecider, command, options);
      first += rows.length;
      onProgress?.(progressOf(state));
      // Requests and other imports get the event loop between windows.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const { state } = await this.runner.run(
      stream,
      bulkImportDecider,
      { type: 'FinishImport', now: await now() },
      options,
    );
    return state;
  }

  /** The rows without an outcome, in windows, read chunk by chunk from the import's stream. */
  private async *windows(stream: string, job: BulkImportState): AsyncGenerator<BulkImportRow[]> {
    const size = this.deps.window ?? 250;
    let window: BulkImportRow[] = [];
    let index = 0;
    for (const [k, count] of job.chunks.entries()) {
      if (index + count <= job.processed) {
        index += count;
        continue;
      }
      const [event] = await this.deps.eventStore.readStream(stream, { fromRevision: BigInt(k + 1), maxCount: 1 });
      const data = event?.data as { first: number; rows: BulkImportRow[] } | undefined;
      if (event?.type !== 'BulkImportRowsAdded' || data?.first !== index)
        throw new Error(`${stream}: chunk ${k} is not at revision ${k + 1}`);
      for (const row of data.rows.slice(Math.max(0, job.processed - index))) {
        window.push(row);
        if (window.length >= size) {
          yield window;
          window = [];
        }
      }
      index += count;
    }
    if (window.length > 0) yield window;
  }

  private async runWindow(jobId: string, columns: string[], rows: BulkImportRow[], actor: Actor) {
    const limit = limiter(this.deps.concurrency ?? 16);
    const latest = new Map<string, Promise<unknown>>();
    return Promise.all(
      rows.map((row) => {
        const mapped = customerRow(columns, row.values, row.line);
        const keys = identityKeysOf(mapped.body);
        const before = keys.map((key) => latest.get(key)).filter((p) => p !== undefined);
        const outcome = Promise.all(before).then(() => limit(() => this.runRow(jobId, row, mapped, actor)));
        const finished = outcome.catch(() => undefined);
        for (const key of keys) latest.set(key, finished);
        return outcome;
      }),
    );
  }

  private async runRow(
    jobId: string,
    row: BulkImportRow,
    mapped: ReturnType<typeof customerRow>,
    actor: Actor,
  ): Promise<RowOutcome> {
    const { line } = row;
    const { correlationId, body } = mapped;
    // The CSV's own rules first; the body's checks add what they do not already say about a column.
    const named = new Set(mapped.errors.map((e) => e.field));
    const checked = (await this.deps.validate(body)).map((e) => ({ ...e, field: columnOf(e.field) }));
    const errors = [...mapped.errors, ...checked.filter((e) => !named.has(e.field))];
    if (errors.length > 0) {
      const message = `the row is not a valid customer: ${errors[0].message}`;
      return { line, correlationId, error: { code: 'INVALID_INPUT', message, details: { errors } } };
    }
    try {
      const command = new CreateCustomerCommand(body as unknown as Input, actor, bulkImportCustomerId(jobId, line));
      const customerId = await this.create.execute(command);
      return { line, correlationId, customerId };
    } catch (error) {
      if (error instanceof DomainError) return { line, correlationId, error: rowError(error) };
      throw error;
    }
  }
}

/** The unique identities a row claims, as ordering keys within a window. */
function identityKeysOf(body: Record<string, unknown>): string[] {
  const keys: string[] = [];
  if (typeof body.platformCustomerId === 'string') keys.push(`pc:${body.platformCustomerId}`);
  if (typeof body.umaAddress === 'string') keys.push(`uma:${umaAddressKey(body.umaAddress).value}`);
  return keys;
}
