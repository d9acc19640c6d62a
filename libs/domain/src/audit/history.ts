import { invalid } from '../errors.js';

/**
 * Audit history: one stored event as an auditor reads it. Pure functions over plain values so the
 * same rules serve every history endpoint and their unit tests.
 */
export interface AuditSourceEvent {
  type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  revision: bigint;
  recordedAt: Date;
}

export interface HistoryEntry {
  /** Revision of the event in its stream: the order of the history. */
  revision: number;
  type: string;
  /** When the store recorded it. */
  recordedAt: string;
  /** The business time the event carries (the platform's clock when it was decided), when it carries one. */
  occurredAt?: string;
  actor: string | null;
  correlationId: string | null;
  /** The event data, secrets redacted. */
  changes: Record<string, unknown>;
}

export const REDACTED = '[REDACTED]';

/**
 * Fields that hold secret material or something derived from it (sealed seeds, hashes of
 * secrets, OTPs, keys). Matched on the field name anywhere in the data; `transactionHash`
 * (an on-chain reference) and public keys are not secrets.
 */
const SECRET_FIELD =
  /secret|seed|sealed|otp|password|passcode|privatekey|signingkey|apikey|^key$|keymaterial|hash|ciphertext|token$/i;
const NOT_SECRET = new Set(['transactionHash', 'publicKey', 'otpId', 'emailOtpId']);

export function isSecretField(name: string): boolean {
  return !NOT_SECRET.has(name) && SECRET_FIELD.test(name);
}

/** A deep copy of `value` with every secret field's value replaced by `[REDACTED]`. */
export function redact<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => redact(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = isSecretField(k) && v !== null && v !== undefined ? REDACTED : redact(v);
  }
  return out as T;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const asTime = (v: unknown): string | undefined => (typeof v === 'string' && ISO.test(v) ? v : undefined);

/** Where the events of the write path carry the moment they were decided on the platform's clock. */
const TIME_FIELDS = ['updatedAt', 'createdAt', 'deletedAt', 'settledAt', 'at', 'now'] as const;
const NESTED = ['card', 'transaction', 'quote', 'authorization'] as const;

/**
 * The business time of an event: the decision's `now` as the event records it (top-level time
 * fields, then the snapshot it carries, then a `now` in its metadata), or undefined.
 */
export function businessTime(
  data: Record<string, unknown>,
  metadata: Record<string, unknown> = {},
): string | undefined {
  for (const f of TIME_FIELDS) {
    const t = asTime(data[f]);
    if (t) return t;
  }
  for (const n of NESTED) {
    const inner = data[n];
    if (inner && typeof inner === 'object') {
      const snapshot = inner as Record<string, unknown>;
      const t = asTime(snapshot.updatedAt) ?? asTime(snapshot.createdAt);
      if (t) return t;
    }
  }
  return asTime(metadata.now);
}

type Timed = Pick<AuditSourceEvent, 'data' | 'metadata' | 'recordedAt'>;

/**
 * The instant each event of one stream happened, which `asOf` compares against. Sandbox platforms
 * run on their own clocks (PlatformClocks), so an event's business time is what the platform saw
 * and recordedAt (the store's real time) is not comparable with it. An event that carries no time
 * (SignedRequestApplied, LedgerAccountOpened...) was decided with its neighbours: it takes the time
 * of the timed event before it (or, leading the stream, the first one after it); a stream with no
 * timed event at all falls back to recordedAt.
 */
export function effectiveTimes(events: readonly Timed[]): number[] {
  const own = events.map((e) => {
    const t = businessTime(e.data, e.metadata);
    return t ? Date.parse(t) : undefined;
  });
  const first = own.find((t) => t !== undefined);
  let last = first;
  return events.map((e, i) => {
    const t = own[i];
    if (t !== undefined) last = t;
    return last ?? e.recordedAt.getTime();
  });
}

export function toHistoryEntry(event: AuditSourceEvent): HistoryEntry {
  const occurredAt = businessTime(event.data, event.metadata);
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    revision: Number(event.revision),
    type: event.type,
    recordedAt: event.recordedAt.toISOString(),
    ...(occurredAt ? { occurredAt } : {}),
    actor: text(event.metadata.actor),
    correlationId: text(event.metadata.correlationId),
    changes: redact(event.data),
  };
}

/**
 * The events of one stream up to and including `asOf`, as a prefix: folding stops at the first
 * event after the instant, so the state is one the stream really passed through.
 */
export function eventsUpTo<E extends Timed>(events: readonly E[], asOf: Date): E[] {
  const limit = asOf.getTime();
  const times = effectiveTimes(events);
  const end = times.findIndex((t) => t > limit);
  return end === -1 ? [...events] : events.slice(0, end);
}

/** Folds `events` with a decider's evolve, from its initial state. */
export function fold<S, E>(initial: S, evolve: (state: S, event: E) => S, events: readonly E[]): S {
  return events.reduce(evolve, initial);
}

// Cursors: an opaque encoding of the last revision a page returned.
const CURSOR_PREFIX = 'rev:';

export function encodeCursor(revision: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${revision}`).toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const text = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString() : '';
  const m = /^rev:(\d{1,15})$/.exec(text);
  if (!m) throw invalid('INVALID_INPUT', 'cursor is not one this service returned', 'cursor');
  return Number(m[1]);
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

/** One page of revision-ordered entries, after the cursor's revision; limit 1-100 (default 20). */
export function pageOf<T extends { revision: number }>(
  entries: readonly T[],
  request: { limit?: number; cursor?: string },
): Page<T> {
  const limit = request.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw invalid('INVALID_INPUT', 'limit must be an integer between 1 and 100', 'limit');
  }
  const after = request.cursor !== undefined ? decodeCursor(request.cursor) : -1;
  const rest = entries.filter((e) => e.revision > after);
  const data = rest.slice(0, limit);
  const hasMore = rest.length > limit;
  const next = hasMore ? { nextCursor: encodeCursor(data[data.length - 1].revision) } : {};
  return { data, hasMore, ...next, totalCount: entries.length };
}
