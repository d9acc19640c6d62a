import { describe, expect, it } from '@jest/globals';
import { deciderSpec } from '../testing/decider-spec.js';
import {
  WEBHOOK_ERRORS_BUDGET_BYTES,
  bulkImportDecider,
  finishedJobResource,
  type BulkImportCommand,
  type BulkImportEvent,
  type RowOutcome,
} from './bulk-import.js';
import { PLATFORM, T0, testId } from '../testing/fixtures.js';

const spec = deciderSpec(bulkImportDecider);
const JOB = testId('Job', '1');
const ids = { jobId: JOB, platformId: PLATFORM };
const T1 = '2026-01-01T00:01:00.000Z';
const T2 = '2026-01-01T00:02:00.000Z';

const create: BulkImportCommand = {
  type: 'CreateImport',
  ...ids,
  columns: ['platformCustomerId', 'customerType'],
  requestedBy: 'ApiToken:t',
  now: T0,
};
const rows = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ line: from + i + 2, values: [`c${from + i}`, 'INDIVIDUAL'] }));
const ok = (line: number): RowOutcome => ({ line, correlationId: `c${line - 2}`, customerId: `Customer:${line}` });
const bad = (line: number): RowOutcome => ({
  line,
  correlationId: `c${line - 2}`,
  error: { code: 'CONFLICT', message: 'taken' },
});
const accepted = (n: number): BulkImportEvent[] =>
  spec.history(create, { type: 'AddRows', rows: rows(0, n) }, { type: 'AcceptImport', now: T0 });

describe('bulk import decider', () => {
  it('adds rows in chunks numbered from the first row, and is accepted with their total', () => {
    const events = spec.history(
      create,
      { type: 'AddRows', rows: rows(0, 3) },
      { type: 'AddRows', rows: rows(3, 2) },
      { type: 'AcceptImport', now: T1 },
    );
    expect(events.map((e) => e.type)).toEqual([
      'BulkImportCreated',
      'BulkImportRowsAdded',
      'BulkImportRowsAdded',
      'BulkImportAccepted',
    ]);
    expect(events[2].data).toMatchObject({ first: 3 });
    expect(events[3].data).toEqual({ ...ids, total: 5, createdAt: T0, acceptedAt: T1 });
    const state = spec.fold(events);
    expect(state).toMatchObject({ status: 'PENDING', chunks: [3, 2], total: 5, processed: 0 });
  });

  it('refuses an empty file, rows after acceptance, and a second create', () => {
    spec.given(spec.history(create)).when({ type: 'AcceptImport', now: T1 }).thenFails({ code: 'INVALID_INPUT' });
    spec
      .given(accepted(2))
      .when({ type: 'AddRows', rows: rows(2, 1) })
      .thenFails({ kind: 'conflict' });
    spec.given(spec.history(create)).when(create).thenFails({ kind: 'conflict' });
    spec.given(accepted(2)).when({ type: 'AcceptImport', now: T2 }).then([]);
  });

  it('counts outcomes once: a batch recorded again after a crash adds only what is new', () => {
    const first = spec
      .given(accepted(4))
      .when({ type: 'RecordOutcomes', first: 0, outcomes: [ok(2), bad(3)], now: T1 });
    const [processed] = first.thenEmits();
    expect(processed.data).toEqual({
      ...ids,
      first: 0,
      count: 2,
      successful: 1,
      failed: 1,
      errors: [{ correlationId: 'c1', line: 3, code: 'CONFLICT', message: 'taken' }],
      processedAt: T1,
    });
    const after = [...accepted(4), processed];
    // The same batch again, and a batch overlapping it: only row index 2 and 3 are new.
    spec
      .given(after)
      .when({ type: 'RecordOutcomes', first: 0, outcomes: [ok(2), bad(3)], now: T2 })
      .then([]);
    const [overlap] = spec
      .given(after)
      .when({ type: 'RecordOutcomes', first: 1, outcomes: [bad(3), ok(4), ok(5)], now: T2 })
      .thenEmits();
    expect(overlap.data).toMatchObject({ first: 2, count: 2, successful: 2, failed: 0, errors: [] });
    expect(spec.fold([...after, overlap])).toMatchObject({
      processed: 4,
      successful: 3,
      failed: 1,
      status: 'PROCESSING',
    });
  });

  it('refuses a gap, rows past the total, and outcomes before acceptance', () => {
    spec
      .given(accepted(4))
      .when({ type: 'RecordOutcomes', first: 1, outcomes: [ok(3)], now: T1 })
      .thenFails({ kind: 'conflict' });
    spec
      .given(accepted(1))
      .when({ type: 'RecordOutcomes', first: 0, outcomes: [ok(2), ok(3)], now: T1 })
      .thenFails({ kind: 'invalid' });
    spec
      .given(spec.history(create, { type: 'AddRows', rows: rows(0, 1) }))
      .when({ type: 'RecordOutcomes', first: 0, outcomes: [ok(2)], now: T1 })
      .thenFails({ kind: 'invalid' });
  });

  it('finishes once every row has an outcome: COMPLETED with any customer created, FAILED with none', () => {
    const done = (outcomes: RowOutcome[]) =>
      spec.history(
        create,
        { type: 'AddRows', rows: rows(0, outcomes.length) },
        { type: 'AcceptImport', now: T0 },
        { type: 'RecordOutcomes', first: 0, outcomes, now: T1 },
        { type: 'FinishImport', now: T2 },
      );
    const completed = done([ok(2), bad(3)]);
    const finished = completed[completed.length - 1];
    // What the event records and the job resource shows alike.
    const progress = { total: 2, processed: 2, successful: 1, failed: 1 };
    const errors = [{ correlationId: 'c1', line: 3, code: 'CONFLICT', message: 'taken' }];
    expect(finished).toEqual({
      type: 'BulkImportFinished',
      data: {
        ...ids,
        status: 'COMPLETED',
        progress,
        errors,
        errorsTruncated: false,
        createdAt: T0,
        completedAt: T2,
      },
    });
    expect(finishedJobResource(finished.data as never)).toEqual({
      id: JOB,
      status: 'COMPLETED',
      progress,
      errors,
      completedAt: T2,
      createdAt: T0,
      updatedAt: T2,
    });
    const failed = done([bad(2), bad(3)]);
    expect(failed[failed.length - 1].data).toMatchObject({ status: 'FAILED' });
    spec.given(completed).when({ type: 'FinishImport', now: T2 }).then([]);
    spec.given(accepted(2)).when({ type: 'FinishImport', now: T2 }).thenFails({ kind: 'conflict' });
  });

  it('keeps the first errors up to the webhook budget and says when more were left out', () => {
    const n = 2_000;
    const message = 'x'.repeat(200);
    const outcomes = Array.from({ length: n }, (_, i) => ({
      ...bad(i + 2),
      error: { code: 'INVALID_INPUT', message },
    }));
    const events = spec.history(
      create,
      { type: 'AddRows', rows: rows(0, n) },
      { type: 'AcceptImport', now: T0 },
      { type: 'RecordOutcomes', first: 0, outcomes, now: T1 },
      { type: 'FinishImport', now: T2 },
    );
    const finished = events[events.length - 1].data as { errors: { line: number }[]; errorsTruncated: boolean };
    expect(finished.errorsTruncated).toBe(true);
    expect(finished.errors.length).toBeLessThan(n);
    expect(JSON.stringify(finished.errors).length).toBeLessThanOrEqual(WEBHOOK_ERRORS_BUDGET_BYTES);
    expect(finished.errors.map((e) => e.line)).toEqual(Array.from({ length: finished.errors.length }, (_, i) => i + 2));
  });
});
