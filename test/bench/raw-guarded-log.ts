import { createHash, randomUUID } from 'node:crypto';
import { canonicalJson } from '#domain/primitives.js';
import { chainMetadata, GENESIS_HASH, hashOf } from '#event-store/hash-chain.js';
import type BetterSqlite3 from 'better-sqlite3';
import { Sqlite } from '#sqlite/driver.js';

/**
 * The service's guarantees as a raw reference can keep them in one SQLite transaction a turn of the event loop (the
 * `guarded` references of the `quotes`, `signed-retry` and `cards-freeze` benchmarks): every change an event in a log
 * chained per stream by hash (the service's own `chainMetadata`, over canonical JSON), at the revision the stream was
 * at (a unique stream and revision), synced at commit (`synchronous=FULL`); the documents the API reads written beside
 * the events; timers (a quote's deadline); each Idempotency-Key stored with its request's hash, so that the key reused
 * with another request is refused. What the service adds on top of these (its framework, validation, threads, read
 * models in a file of their own) the references leave out: their CPU per operation is the floor of a service that
 * keeps these guarantees on the same libraries.
 */
export const LOG_SCHEMA = `
CREATE TABLE events (
  position INTEGER PRIMARY KEY, stream TEXT NOT NULL, revision INTEGER NOT NULL, type TEXT NOT NULL,
  data TEXT NOT NULL, metadata TEXT NOT NULL, UNIQUE (stream, revision)
);
CREATE TABLE docs (collection TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (collection, id));
CREATE TABLE timers (id TEXT PRIMARY KEY, due_at INTEGER NOT NULL);
CREATE INDEX timers_due ON timers (due_at);
`;

/** The request an Idempotency-Key was first used with, as the service hashes it. */
export const requestHashOf = (method: string, path: string, body: string) =>
  createHash('sha256')
    .update(canonicalJson({ method, path, body: body === '' ? null : (JSON.parse(body) as unknown) }))
    .digest('hex');

export interface GuardedLog {
  /** Appends `events` to `stream` at its next revisions, chained to its last event's hash. */
  append(stream: string, events: { type: string; data: Record<string, unknown> }[], actor: string): void;
  /** Writes a document the API reads. */
  putDoc(collection: string, id: string, body: unknown): void;
  setTimer(id: string, dueAt: number): void;
  clearTimer(id: string): void;
}

/**
 * The log of `platformId` on `db` (its tables made with LOG_SCHEMA): each stream's revision and last hash are kept in
 * memory for the process's life, as the service keeps its streams cached; the unique (stream, revision) refuses an
 * append that another writer got ahead of.
 */
export function guardedLog(db: BetterSqlite3.Database, platformId: string): GuardedLog {
  const statements = {
    append: db.prepare('INSERT INTO events (stream, revision, type, data, metadata) VALUES (?, ?, ?, ?, ?)'),
    doc: db.prepare(
      'INSERT INTO docs (collection, id, body) VALUES (?, ?, ?) ON CONFLICT (collection, id) DO UPDATE SET ' +
        'body = excluded.body',
    ),
    setTimer: db.prepare('INSERT INTO timers (id, due_at) VALUES (?, ?)'),
    clearTimer: db.prepare('DELETE FROM timers WHERE id = ?'),
  };
  const heads = new Map<string, { revision: number; hash: string }>();
  return {
    append(stream, events, actor) {
      const head = heads.get(stream) ?? { revision: -1, hash: GENESIS_HASH };
      let { revision, hash } = head;
      for (const event of events) {
        revision++;
        const data = JSON.stringify(event.data);
        const metadata = chainMetadata(hash, {
          streamName: stream,
          revision: BigInt(revision),
          type: event.type,
          // Hashed as stored, as the service hashes the JSON round-tripped form.
          data: JSON.parse(data) as unknown,
          metadata: { platformId, actor, correlationId: randomUUID() },
        });
        statements.append.run(stream, revision, event.type, data, JSON.stringify(metadata));
        hash = hashOf(metadata)!;
      }
      heads.set(stream, { revision, hash });
    },
    putDoc: (collection, id, body) => void statements.doc.run(collection, id, JSON.stringify(body)),
    setTimer: (id, dueAt) => void statements.setTimer.run(id, dueAt),
    clearTimer: (id) => void statements.clearTimer.run(id),
  };
}

/**
 * Commits the writes of one turn of the event loop in one transaction (one sync), then runs each write's `then`: a
 * reply goes out only once what it reports is durable.
 */
export function perTurn(db: BetterSqlite3.Database): (write: () => void, then: () => void) => void {
  let queue: { write: () => void; then: () => void }[] = [];
  const commit = db.transaction((turn: typeof queue) => turn.forEach(({ write }) => write()));
  const flush = () => {
    const turn = queue;
    queue = [];
    commit(turn);
    turn.forEach(({ then }) => then());
  };
  return (write, then) => {
    if (queue.length === 0) setImmediate(flush);
    queue.push({ write, then });
  };
}

/** Opens a guarded reference's file at `path`: WAL, every commit synced, the log's tables. */
export function openGuarded(path: string): BetterSqlite3.Database {
  const db = new Sqlite(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(LOG_SCHEMA);
  return db;
}
