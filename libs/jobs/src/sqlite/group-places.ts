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
  private readonly stmt: Record<'next' | 'floor' | 'raise' | 'take' | 'list', Database.Statement>;

  constructor(db: Database.Database) {
    this.stmt = {
      next: db.prepare(`SELECT next FROM group_places WHERE queue = @queue AND grp = COALESCE(@group, '')`),
      floor: db.prepare(
        `SELECT COALESCE((SELECT floor FROM queue_floors WHERE queue = @queue), 0) AS stored,
           (SELECT MIN(place) FROM jobs WHERE queue = @queue AND state = 'waiting') AS waiting`,
      ),
      raise: db.prepare(
        `INSERT INTO queue_floors (queue, floor) VALUES (@queue, @floor)
         ON CONFLICT (queue) DO UPDATE SET floor = MAX(floor, excluded.floor)`,
      ),
      take: db.prepare(
        `INSERT INTO group_places (queue, grp, next) VALUES (@queue, COALESCE(@group, ''), @place + 1)
         ON CONFLICT (queue, grp) DO UPDATE SET next = MAX(next, excluded.next)`,
      ),
      list: db.prepare(`SELECT grp, next FROM group_places WHERE queue = ? ORDER BY grp`),
    };
  }

  /**
   * Runs `write` with the place a job of `group` takes now; once it wrote the job (true), the group's next job comes
   * after it. Called inside the transaction that writes the job.
   */
  assign(queue: string, group: string | null, write: (place: number) => boolean): boolean {
    const { stored, waiting } = this.stmt.floor.get({ queue }) as { stored: number; waiting: number | null };
    const floor = Math.max(stored, waiting ?? 0);
    if (floor > stored) this.stmt.raise.run({ queue, floor });
    const next = (this.stmt.next.get({ queue, group }) as { next: number } | undefined)?.next ?? 0;
    const place = Math.max(next, floor);
    if (!write(place)) return false;
    this.stmt.take.run({ queue, group, place });
    return true;
  }

  /** Each group's next place in `queue`. */
  of(queue: string): Record<string, number> {
    const rows = this.stmt.list.all(queue) as { grp: string; next: number }[];
    return Object.fromEntries(rows.map((row) => [row.grp, row.next]));
  }
}
