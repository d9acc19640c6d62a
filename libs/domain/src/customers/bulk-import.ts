import { createdFrom, unreachable, type Decider, type Unset } from '../decider.js';
import { conflict, invalid } from '../errors.js';

/**
 * A bulk customer import: the rows of an uploaded CSV file, then the outcome of each row. The rows
 * are appended in chunks while the upload is read (the file is never held whole), the job is
 * accepted with its total, and a job runs the rows in order, recording outcomes in batches. An
 * outcome recorded twice (a job run again after a crash) is recorded once, so the counts stay
 * exact; when every row has an outcome the job finishes COMPLETED, or FAILED when no row created a
 * customer.
 */
export type BulkImportStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

export interface BulkImportProgress {
  total: number;
  processed: number;
  successful: number;
  failed: number;
}

/** A failed row: the public API's error entry (`correlationId` and the error), plus its line in the file. */
export interface BulkImportErrorEntry {
  correlationId: string;
  line: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** One data row of the file: its line (the header is line 1) and its cells as written. */
export interface BulkImportRow {
  line: number;
  values: string[];
}

/** What running a row came to: a customer, or the error POST /customers would have answered. */
export interface RowOutcome {
  line: number;
  correlationId: string;
  customerId?: string;
  error?: { code: string; message: string; details?: Record<string, unknown> };
}

/** The webhook at the end carries the first errors up to this size; GET on the job lists them all. */
export const WEBHOOK_ERRORS_BUDGET_BYTES = 256 * 1024;

/** What an import's stream holds from its creation on. */
interface BulkImportRecord {
  jobId: string;
  platformId: string;
  /** The actor that uploaded the file: the rows' customers are created on its behalf. */
  requestedBy: string;
  createdAt: string;
  updatedAt: string;
}

/** What every import's stream holds, before its creation too (empty then). */
interface BulkImportHoldings {
  columns: string[];
  /** Rows per chunk, in order: chunk k is the stream's event at revision k + 1. */
  chunks: number[];
  received: number;
  accepted: boolean;
  total: number;
  processed: number;
  successful: number;
  failed: number;
  /** Set once the import is accepted. */
  status?: BulkImportStatus;
  completedAt?: string;
  errorSample: BulkImportErrorEntry[];
  errorSampleBytes: number;
  errorsTruncated: boolean;
}

export type ExistingBulkImport = { exists: true } & BulkImportRecord & BulkImportHoldings;

export type BulkImportState = ({ exists: false } & Unset<BulkImportRecord> & BulkImportHoldings) | ExistingBulkImport;

export type BulkImportEvent =
  | {
      type: 'BulkImportCreated';
      data: { jobId: string; platformId: string; columns: string[]; requestedBy: string; createdAt: string };
    }
  | { type: 'BulkImportRowsAdded'; data: { jobId: string; platformId: string; first: number; rows: BulkImportRow[] } }
  | {
      type: 'BulkImportAccepted';
      data: { jobId: string; platformId: string; total: number; createdAt: string; acceptedAt: string };
    }
  | {
      type: 'BulkImportRowsProcessed';
      data: {
        jobId: string;
        platformId: string;
        /** Index (from 0) of the first row these outcomes are about, and how many they are. */
        first: number;
        count: number;
        successful: number;
        failed: number;
        errors: BulkImportErrorEntry[];
        processedAt: string;
      };
    }
  | {
      type: 'BulkImportFinished';
      data: {
        jobId: string;
        platformId: string;
        status: 'COMPLETED' | 'FAILED';
        progress: BulkImportProgress;
        /** The first errors, up to WEBHOOK_ERRORS_BUDGET_BYTES (all of them unless `errorsTruncated`). */
        errors: BulkImportErrorEntry[];
        errorsTruncated: boolean;
        createdAt: string;
        completedAt: string;
      };
    };

export type BulkImportCommand =
  | { type: 'CreateImport'; jobId: string; platformId: string; columns: string[]; requestedBy: string; now: string }
  | { type: 'AddRows'; rows: BulkImportRow[] }
  | { type: 'AcceptImport'; now: string }
  /** Outcomes of the rows from index `first` on, in order. */
  | { type: 'RecordOutcomes'; first: number; outcomes: RowOutcome[]; now: string }
  | { type: 'FinishImport'; now: string };

const initialState = (): BulkImportState => ({
  exists: false,
  columns: [],
  chunks: [],
  received: 0,
  accepted: false,
  total: 0,
  processed: 0,
  successful: 0,
  failed: 0,
  errorSample: [],
  errorSampleBytes: 0,
  errorsTruncated: false,
});

const isFinished = (state: BulkImportState) => state.status === 'COMPLETED' || state.status === 'FAILED';

const notAccepting = () =>
  conflict('INVALID_STATE_TRANSITION', 'the import was already accepted; no rows can be added');

type FailedRow = RowOutcome & { error: NonNullable<RowOutcome['error']> };

const isFailed = (outcome: RowOutcome): outcome is FailedRow => outcome.error !== undefined;

function errorEntry(outcome: FailedRow): BulkImportErrorEntry {
  const { code, message, details } = outcome.error;
  return { correlationId: outcome.correlationId, line: outcome.line, code, message, ...(details ? { details } : {}) };
}

function decide(cmd: BulkImportCommand, state: BulkImportState): BulkImportEvent[] {
  if (cmd.type === 'CreateImport') {
    if (state.exists) throw conflict('CONFLICT', `import ${cmd.jobId} already exists`);
    return [{ type: 'BulkImportCreated', data: createdFrom(cmd) }];
  }
  if (!state.exists) throw invalid('INVALID_STATE_TRANSITION', 'the import does not exist');
  switch (cmd.type) {
    case 'AddRows':
    case 'AcceptImport':
      return decideUpload(cmd, state);
    case 'RecordOutcomes':
      return decideOutcomes(cmd, state);
    case 'FinishImport':
      return decideFinish(cmd, state);
    default:
      return unreachable(cmd);
  }
}

type CommandOf<T extends BulkImportCommand['type']> = Extract<BulkImportCommand, { type: T }>;

const idsOf = (state: ExistingBulkImport) => ({ jobId: state.jobId, platformId: state.platformId });

/** The file's rows, appended while it is read, then the import accepted with their total. */
function decideUpload(cmd: CommandOf<'AddRows' | 'AcceptImport'>, state: ExistingBulkImport): BulkImportEvent[] {
  const ids = idsOf(state);
  if (cmd.type === 'AddRows') {
    if (state.accepted) throw notAccepting();
    if (cmd.rows.length === 0) return [];
    return [{ type: 'BulkImportRowsAdded', data: { ...ids, first: state.received, rows: cmd.rows } }];
  }
  if (state.accepted) return [];
  if (state.received === 0) throw invalid('INVALID_INPUT', 'the file has no customer rows', 'file');
  const accepted = { ...ids, total: state.received, createdAt: state.createdAt, acceptedAt: cmd.now };
  return [{ type: 'BulkImportAccepted', data: accepted }];
}

function decideOutcomes(cmd: CommandOf<'RecordOutcomes'>, state: ExistingBulkImport): BulkImportEvent[] {
  if (!state.accepted) throw invalid('INVALID_STATE_TRANSITION', 'the import was not accepted yet');
  if (cmd.first > state.processed)
    throw conflict('INVALID_STATE_TRANSITION', `outcomes from row ${cmd.first} leave a gap after ${state.processed}`);
  if (cmd.first + cmd.outcomes.length > state.total)
    throw invalid('INVALID_STATE_TRANSITION', `the import has ${state.total} rows`);
  // Outcomes already recorded (a run after a crash) are not counted again.
  const fresh = cmd.outcomes.slice(state.processed - cmd.first);
  if (fresh.length === 0) return [];
  const errors = fresh.filter(isFailed).map(errorEntry);
  return [
    {
      type: 'BulkImportRowsProcessed',
      data: {
        ...idsOf(state),
        first: state.processed,
        count: fresh.length,
        successful: fresh.length - errors.length,
        failed: errors.length,
        errors,
        processedAt: cmd.now,
      },
    },
  ];
}

function decideFinish(cmd: CommandOf<'FinishImport'>, state: ExistingBulkImport): BulkImportEvent[] {
  if (isFinished(state)) return [];
  if (!state.accepted || state.processed < state.total)
    throw conflict('INVALID_STATE_TRANSITION', `${state.processed} of ${state.total} rows have an outcome`);
  const progress = progressOf(state);
  return [
    {
      type: 'BulkImportFinished',
      data: {
        ...idsOf(state),
        status: state.successful === 0 ? 'FAILED' : 'COMPLETED',
        progress,
        errors: state.errorSample,
        errorsTruncated: state.errorsTruncated,
        createdAt: state.createdAt,
        completedAt: cmd.now,
      },
    },
  ];
}

function evolve(state: BulkImportState, event: BulkImportEvent): BulkImportState {
  if (event.type === 'BulkImportCreated') {
    const { jobId, platformId, columns, requestedBy, createdAt } = event.data;
    return { ...state, exists: true, jobId, platformId, columns, requestedBy, createdAt, updatedAt: createdAt };
  }
  // The other events are only ever appended to a created import's stream.
  return state.exists ? evolveExisting(state, event) : state;
}

function evolveExisting(
  state: ExistingBulkImport,
  event: Exclude<BulkImportEvent, { type: 'BulkImportCreated' }>,
): ExistingBulkImport {
  switch (event.type) {
    case 'BulkImportRowsAdded':
      return {
        ...state,
        chunks: [...state.chunks, event.data.rows.length],
        received: state.received + event.data.rows.length,
      };
    case 'BulkImportAccepted':
      return {
        ...state,
        accepted: true,
        total: event.data.total,
        status: 'PENDING',
        updatedAt: event.data.acceptedAt,
      };
    case 'BulkImportRowsProcessed': {
      const sample = [...state.errorSample];
      let bytes = state.errorSampleBytes;
      let truncated = state.errorsTruncated;
      for (const entry of event.data.errors) {
        const size = JSON.stringify(entry).length + 1;
        if (truncated || bytes + size > WEBHOOK_ERRORS_BUDGET_BYTES) truncated = true;
        else {
          sample.push(entry);
          bytes += size;
        }
      }
      return {
        ...state,
        processed: state.processed + event.data.count,
        successful: state.successful + event.data.successful,
        failed: state.failed + event.data.failed,
        status: 'PROCESSING',
        updatedAt: event.data.processedAt,
        errorSample: sample,
        errorSampleBytes: bytes,
        errorsTruncated: truncated,
      };
    }
    case 'BulkImportFinished':
      return {
        ...state,
        status: event.data.status,
        completedAt: event.data.completedAt,
        updatedAt: event.data.completedAt,
      };
  }
}

export const bulkImportDecider: Decider<BulkImportState, BulkImportCommand, BulkImportEvent> = {
  initialState,
  evolve,
  decide,
};

export const progressOf = (p: BulkImportProgress): BulkImportProgress => ({
  total: p.total,
  processed: p.processed,
  successful: p.successful,
  failed: p.failed,
});

/** Whether every row has an outcome and the job said so. */
export const bulkImportFinished = isFinished;

/** The public API's BulkCustomerImportJob resource. */
export interface BulkImportJobResource {
  id: string;
  status: BulkImportStatus;
  progress: BulkImportProgress;
  errors: BulkImportErrorEntry[];
  completedAt?: string;
  createdAt: string;
  updatedAt: string;
}

/** The `BULK_UPLOAD.<COMPLETED|FAILED>` webhook's data: the finished job (its first errors, see the event). */
export function finishedJobResource(
  data: Extract<BulkImportEvent, { type: 'BulkImportFinished' }>['data'],
): BulkImportJobResource & { errorsTruncated?: true } {
  return {
    id: data.jobId,
    status: data.status,
    progress: progressOf(data.progress),
    errors: data.errors,
    ...(data.errorsTruncated ? { errorsTruncated: true as const } : {}),
    completedAt: data.completedAt,
    createdAt: data.createdAt,
    updatedAt: data.completedAt,
  };
}
