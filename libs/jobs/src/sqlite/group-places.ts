import type Database from 'better-sqlite3';

export const PLACES_SCHEMA = `
CREATE TABLE IF NOT EXISTS group_places (
  queue TEXT NOT NULL,
  grp TEXT NOT NULL,
  next INTEGER NOT NULL,
  PRIMARY KEY (queue, grp)
);
CREATE TABLE IF NOT EXISTS queue_floors (
  queue TEXT PRIMARY KEY,
  floor INTEGER NOT NULL
);
`;

/**
 * Places in a queue's claim order, fair between groups (start-time fair queueing): a job takes its group's next place,
 * raised to the queue's floor, and its group's next place moves past it; workers claim by place first (job-store.ts).
 * The floor is the lowest place a waiting job holds, and never goes down. So a group's jobs keep the order they came
 * in, a group with nothing waiting starts at the front instead of behind another group's backlog, and each group has
 * at most one job at each place: a job waits for at most one job of each group per place ahead of it, however long
 * the backlogs. A run deferred (its group at its limit) goes to the back of its group, as a dead job revived does.
 * Kept in the transactions that insert, defer and revive jobs. Jobs without a group are the group ''.
 */
export class GroupPlaces {
  private readonly stmt: Record<'next' | 'floor' | 'raise' | 'take' | 'dead' | 'revive' | 'list', Database.Statement>;

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      next: db.prepare(`SELECT next FROM group_places WHERE queue = @queue AND grp = COALESCE(@group, '')`),
      floor: db.prepare(
        `SELECT MAX(COALESCE((SELECT floor FROM queue_floors WHERE queue = @queue), 0),
           COALESCE((SELECT MIN(place) FROM jobs WHERE queue = @queue AND state = 'waiting'), 0)) AS floor`,
      ),
      raise: db.prepare(
        `INSERT INTO queue_floors (queue, floor) VALUES (@queue, @floor)
         ON CONFLICT (queue) DO UPDATE SET floor = MAX(floor, excluded.floor)`,
      ),
      take: db.prepare(
        `INSERT INTO group_places (queue, grp, next) VALUES (@queue, COALESCE(@group, ''), @place + 1)
         ON CONFLICT (queue, grp) DO UPDATE SET next = MAX(next, excluded.next)`,
      ),
      dead: db.prepare(`SELECT grp FROM jobs WHERE queue = @queue AND id = @id AND state = 'dead'`),
      revive: db.prepare(
        `UPDATE jobs SET state = 'waiting', attempts_made = 0, due_at = @now, last_error = NULL, updated_at = @now,
           finished_at = NULL, place = @place
         WHERE queue = @queue AND id = @id AND state = 'dead'`,
      ),
      list: db.prepare(`SELECT grp, next FROM group_places WHERE queue = ? ORDER BY grp`),
    };
  }

  /** The place a job of `group` would take now (`taken` reserves it once the job is written). */
  placeFor(queue: string, group: string | null): number {
    const { floor } = this.stmt.floor.get({ queue }) as { floor: number };
    this.stmt.raise.run({ queue, floor });
    const next = (this.stmt.next.get({ queue, group }) as { next: number } | undefined)?.next ?? 0;
    return Math.max(next, floor);
  }

  /** A job of `group` took `place`: the group's next job comes after it. */
  taken(queue: string, group: string | null, place: number): void {
    this.stmt.take.run({ queue, group, place });
  }

  /** A dead job back to waiting, behind its group's jobs; false when it is not dead. */
  revive(queue: string, id: string, now: number): boolean {
    return this.db.transaction(() => {
      const job = this.stmt.dead.get({ queue, id }) as { grp: string | null } | undefined;
      if (!job) return false;
      const place = this.placeFor(queue, job.grp);
      this.stmt.revive.run({ queue, id, now, place });
      this.taken(queue, job.grp, place);
      return true;
    })();
  }

  /** Each group's next place in `queue`. */
  of(queue: string): Record<string, number> {
    const rows = this.stmt.list.all(queue) as { grp: string; next: number }[];
    return Object.fromEntries(rows.map((row) => [row.grp, row.next]));
  }
}
