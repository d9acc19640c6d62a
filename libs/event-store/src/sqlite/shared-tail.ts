import { deepFreeze } from '../deep-freeze.js';
import type { RecordedEvent } from '../event-store.js';

interface Page {
  after: bigint;
  events: readonly RecordedEvent[];
  /** The read returned less than a page: it reached the end of the log as it was then. */
  complete: boolean;
  /** The file's commit version (`CommitWatch`) read just before the page was: what a waiter after it waits past. */
  version: number;
}

/**
 * The page of the log a subscription has just read, handed to the other subscriptions that ask for the same part
 * of it before anything changes. A commit wakes every subscription of the process at once (the projections, the
 * webhook dispatcher, the card worker), and each used to read and decode the same new events itself.
 *
 * A page is shared until this process commits again (`invalidate`), the turn of the event loop ends, or the file's
 * commit version moves (another connection committed and this process has seen it), whichever comes first: a
 * subscription that a later poll wakes reads the log again and sees what other processes committed meanwhile.
 * Shared events are deeply frozen, so no subscriber can change what another one sees.
 */
export class SharedTail {
  private page: Page | undefined;
  private clearing: NodeJS.Immediate | undefined;
  /**
   * The commit version read before the page `next` returned last was read from the log: what a waiter after it waits
   * past. A page is shared only while the version is still the one read before it.
   */
  lastVersion = 0;

  constructor(
    private readonly read: (after: bigint, limit: number) => RecordedEvent[],
    private readonly pageSize: number,
    private readonly version: () => number = () => 0,
  ) {}

  /** Up to a page of the events after `after`: what a read of the log now would return. */
  next(after: bigint): readonly RecordedEvent[] {
    const version = this.version();
    // A page read before another connection's commit that this process has since seen is not what a read would return
    // now; handed out again, its version would wake the reader's wait at once, for the same page, without end.
    const shared = this.page && this.page.version === version && this.slice(this.page, after);
    if (shared) {
      this.lastVersion = version;
      return shared;
    }
    const events = this.read(after, this.pageSize).map(deepFreeze);
    this.lastVersion = version;
    this.page = { after, events, complete: events.length < this.pageSize, version };
    this.clearing ??= setImmediate(() => this.invalidate());
    return events;
  }

  /** Forgets the page (this process has committed: the log's end has moved). */
  invalidate(): void {
    clearImmediate(this.clearing);
    this.clearing = undefined;
    this.page = undefined;
  }

  private slice(page: Page, after: bigint): readonly RecordedEvent[] | undefined {
    if (after < page.after) return undefined;
    let start = 0;
    let end = page.events.length;
    while (start < end) {
      const mid = (start + end) >>> 1;
      if (page.events[mid].position <= after) start = mid + 1;
      else end = mid;
    }
    const events = page.events.slice(start, start + this.pageSize);
    // A whole page, or the rest of a read that reached the end of the log, is what reading again would return.
    return events.length === this.pageSize || page.complete ? events : undefined;
  }
}
