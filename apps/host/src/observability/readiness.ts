import type { Infrastructure } from '#application/infrastructure.js';
import { allProjections } from '#read-models/projections/index.js';

/** One dependency's state, as the health answers list it (the shape `@nestjs/terminus` gives its indicators). */
export type CheckResult = { status: 'up' | 'down'; [detail: string]: unknown };

/** Whether the process can serve: each check's result, by name. */
export interface Readiness {
  ready: boolean;
  checks: Record<string, CheckResult>;
}

export interface ReadinessBounds {
  /** Log positions a projection may be behind the head before the process stops being ready. */
  maxProjectionLag: number;
  /** How long a store may take to answer a check. */
  timeoutMs: number;
}

/** `work`, or a rejection naming what did not answer within `ms`. */
async function within<T>(ms: number, what: string, work: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const down = (error: unknown): CheckResult => ({
  status: 'down',
  message: error instanceof Error ? error.message : String(error),
});

/**
 * Readiness in the sense of Kubernetes: the event store answers (its head position), the read-model store answers
 * (every projection's checkpoint), the job queue answers (a queue's depth), and no projection is further behind the
 * head than the bound. Each check runs on every call, so readiness comes back by itself once the cause is gone.
 */
export async function checkReadiness(
  infra: Pick<Infrastructure, 'eventStore' | 'readModels' | 'jobs'>,
  bounds: ReadinessBounds,
): Promise<Readiness> {
  const checks: Record<string, CheckResult> = {};
  let head: bigint | undefined;
  try {
    head = await within(bounds.timeoutMs, 'the event store', () => infra.eventStore.headPosition());
    checks.eventStore = { status: 'up', head: head.toString() };
  } catch (error) {
    checks.eventStore = down(error);
  }
  try {
    const names = allProjections.map((p) => p.name);
    const checkpoints = await within(bounds.timeoutMs, 'the read-model store', () =>
      Promise.all(names.map((name) => infra.readModels.getCheckpoint(name))),
    );
    checks.readModels = { status: 'up' };
    if (head !== undefined) {
      const lags = checkpoints.map((c) => (c === undefined ? head : head > c ? head - c : 0n));
      const worst = lags.reduce((a, b) => (b > a ? b : a), 0n);
      const behind = names.filter((_, i) => lags[i] > BigInt(bounds.maxProjectionLag));
      checks.projections = behind.length
        ? { status: 'down', maxLag: worst.toString(), bound: bounds.maxProjectionLag, behind }
        : { status: 'up', maxLag: worst.toString(), bound: bounds.maxProjectionLag };
    }
  } catch (error) {
    checks.readModels = down(error);
  }
  try {
    await within(bounds.timeoutMs, 'the job queue', () => infra.jobs.depth('timers'));
    checks.jobs = { status: 'up' };
  } catch (error) {
    checks.jobs = down(error);
  }
  return { ready: Object.values(checks).every((c) => c.status === 'up'), checks };
}
