/**
 * When a shared processor (projections, webhook dispatch, the card reactor) sets one event aside instead of retrying
 * it forever: an event whose handling keeps failing is a fault of that event's data (or of the code that reads it),
 * and would otherwise stop the processor for every platform. A failure that says a store or the network is
 * unavailable is never the event's fault: it is not retried here but thrown on, so that the processor resumes from
 * its checkpoint later, as after a crash. Any other failure is tried `attempts` times in all, waiting
 * `delaysMs` in between, and the event is set aside after the last.
 */
export interface SetAsidePolicy {
  /** Tries in all before an event is set aside (at least 1). */
  attempts: number;
  /** Wait before each further try (the last value repeats). */
  delaysMs: readonly number[];
}

export const DEFAULT_SET_ASIDE_POLICY: SetAsidePolicy = { attempts: 3, delaysMs: [100, 1000] };

/** Error names of conditions that pass by themselves: the store, the network, a lease or a concurrent writer. */
const TRANSIENT_NAMES = new Set([
  'WrongExpectedVersion',
  'SubscriptionEnded',
  'LeaseLost',
  'ConcurrentProjectionUpdate',
  'CheckpointMovedBack',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'UnavailableError',
  'DeadlineExceededError',
  'NotLeaderError',
  'MaxRetriesPerRequestError',
  'AbortError',
]);

/** Error codes (SQLite and system) of a store or a connection that is unavailable or busy now. */
const TRANSIENT_CODE = new RegExp(
  '^(SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|PROTOCOL|NOMEM)|E(CONNREFUSED|CONNRESET|CONNABORTED|TIMEDOUT|' +
    'PIPE|NOTFOUND|AI_AGAIN|HOSTUNREACH|NETUNREACH|NOSPC|IO|MFILE|NFILE|AGAIN|BUSY))',
);

/** Whether a failure says something unavailable now (never a reason to set an event aside). */
export function isTransientFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (TRANSIENT_NAMES.has(error.name)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && TRANSIENT_CODE.test(code)) return true;
  return error.cause !== undefined && error.cause !== error && isTransientFailure(error.cause);
}

/** The last failure of an event to be set aside, and how often it was tried. */
export interface SetAsideFailure {
  error: unknown;
  attempts: number;
}

export type Handled<T> = { ok: true; value: T } | ({ ok: false } & SetAsideFailure);

/**
 * Runs `work` under the policy: its value, or the last failure once every try failed (the event is then to be set
 * aside). A transient failure is thrown at once, as is any failure once `stopped()` says the processor is stopping.
 */
export async function handleOrSetAside<T>(
  work: () => Promise<T>,
  policy: SetAsidePolicy = DEFAULT_SET_ASIDE_POLICY,
  stopped: () => boolean = () => false,
): Promise<Handled<T>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { ok: true, value: await work() };
    } catch (error) {
      if (isTransientFailure(error) || stopped()) throw error;
      if (attempt >= policy.attempts) return { ok: false, error, attempts: attempt };
      const delays = policy.delaysMs;
      const delay = delays.length === 0 ? 0 : delays[Math.min(attempt - 1, delays.length - 1)];
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** What a set-aside record keeps of a failure: its kind and message, short, without addresses that name a person. */
export function describeFailure(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const redacted = text.replace(/[^\s@"'<>]+@[^\s@"'<>]+/g, '[redacted]').replace(/\s+/g, ' ');
  return redacted.length > 300 ? `${redacted.slice(0, 299)}…` : redacted;
}
