import { describe, expect, it, jest } from '@jest/globals';
import { CommitWatch } from './commit-watch.js';
import { useFakeTimers } from '../../../../test/support/fake-timers.js';

/** A file's `data_version` as a test moves it, and how often the watch read it. */
function file() {
  const state = { version: 1, reads: 0 };
  const version = () => (state.reads++, state.version);
  return { state, version };
}

describe('CommitWatch', () => {
  useFakeTimers();

  it('wakes a waiter at the first tick after another connection committed, and not before', async () => {
    const f = file();
    const watch = new CommitWatch(f.version, 5);
    const woken: string[] = [];
    watch.next(1, () => woken.push('a'));
    await jest.advanceTimersByTimeAsync(50);
    expect(woken).toEqual([]);
    f.state.version = 2;
    await jest.advanceTimersByTimeAsync(4);
    expect(woken).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(woken).toEqual(['a']);
    // Woken once: nothing more however the file moves.
    f.state.version = 3;
    await jest.advanceTimersByTimeAsync(50);
    expect(woken).toEqual(['a']);
  });

  it('never sleeps through a commit after the read: woken at the next tick, or at once in a later turn', async () => {
    const f = file();
    const watch = new CommitWatch(f.version, 5);
    const since = watch.current();
    f.state.version = 2; // another process commits after the read
    const woken: string[] = [];
    // Same turn: the turn's one look is shared, so the next tick finds the commit.
    watch.next(since, () => woken.push('same turn'));
    expect(woken).toEqual([]);
    await jest.advanceTimersByTimeAsync(5);
    expect(woken).toEqual(['same turn']);
    // A later turn looks again: a waiter that read before the commit is woken at once (in a microtask).
    watch.next(since, () => woken.push('later turn'));
    await Promise.resolve();
    expect(woken).toEqual(['same turn', 'later turn']);
  });

  it('looks once per turn however many wait', async () => {
    const f = file();
    const watch = new CommitWatch(f.version, 5);
    for (let i = 0; i < 20; i++) watch.next(watch.current(), () => undefined);
    expect(f.state.reads).toBe(1);
  });

  it('wakes every waiter of a tick together, and a waiter that joins later from the next change on', async () => {
    const f = file();
    const watch = new CommitWatch(f.version, 5);
    const woken: string[] = [];
    watch.next(1, () => woken.push('a'));
    watch.next(1, () => woken.push('b'));
    await jest.advanceTimersByTimeAsync(10);
    watch.next(1, () => woken.push('c'));
    f.state.version = 2;
    await jest.advanceTimersByTimeAsync(5);
    expect(woken).toEqual(['a', 'b', 'c']);
    watch.next(2, () => woken.push('d'));
    await jest.advanceTimersByTimeAsync(20);
    expect(woken).toEqual(['a', 'b', 'c']);
    f.state.version = 3;
    await jest.advanceTimersByTimeAsync(5);
    expect(woken).toEqual(['a', 'b', 'c', 'd']);
  });

  it('looks only while someone waits: a cancelled last waiter stops the ticks', async () => {
    const f = file();
    const watch = new CommitWatch(f.version, 5);
    const cancel = watch.next(1, () => {
      throw new Error('cancelled waiters are not woken');
    });
    await jest.advanceTimersByTimeAsync(20);
    const readsWhileWaiting = f.state.reads;
    expect(readsWhileWaiting).toBe(5); // the turn's look at the wait, then one per tick
    cancel();
    expect(jest.getTimerCount()).toBe(0);
    f.state.version = 2;
    await jest.advanceTimersByTimeAsync(100);
    expect(f.state.reads).toBe(readsWhileWaiting);
  });

  it('leaves its waiters to their owners when the connection is gone (a read that throws ends the ticks)', async () => {
    let closed = false;
    const watch = new CommitWatch(() => {
      if (closed) throw new TypeError('The database connection is not open');
      return 1;
    }, 5);
    const woken: string[] = [];
    watch.next(1, () => woken.push('a'));
    closed = true;
    await jest.advanceTimersByTimeAsync(20);
    expect(woken).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);
  });

  describe('quiet', () => {
    /** A file whose notifications the test sends: `listening` while the watch listens. */
    function notifier(options: { fails?: boolean } = {}) {
      const state = { listening: 0, listens: 0, changed: undefined as (() => void) | undefined };
      const quieting = {
        afterMs: 100,
        intervalMs: 1_000,
        listen(changed: () => void) {
          state.listens++;
          if (options.fails) throw new Error('ENOENT');
          state.listening++;
          state.changed = changed;
          return () => {
            state.listening--;
            state.changed = undefined;
          };
        },
      };
      return { state, quieting };
    }

    /** A watch of a test file that can go quiet, with waiters named `names` waiting past version 1. */
    function watched(names = ['a'], n = notifier()) {
      const f = file();
      const watch = new CommitWatch(f.version, 5, n.quieting);
      const woken: string[] = [];
      for (const name of names) watch.next(1, () => woken.push(name));
      return { f, n, watch, woken };
    }

    it('ticks only as a safety net after a quiet spell, and a notification brings the ticks back at once', async () => {
      const { f, n, watch, woken } = watched(['a', 'b']);
      await jest.advanceTimersByTimeAsync(105); // the first tick reads, 20 more find nothing new
      expect(n.state.listening).toBe(1);
      const reads = f.state.reads;
      await jest.advanceTimersByTimeAsync(995);
      expect(f.state.reads).toBe(reads); // nothing read between the safety net's ticks
      f.state.version = 2;
      n.state.changed!();
      expect(woken).toEqual(['a', 'b']); // at once, in the notification's turn
      expect(n.state.listening).toBe(0);
      // Ticking every 5 ms again for the next waiter.
      watch.next(2, () => woken.push('c'));
      f.state.version = 3;
      await jest.advanceTimersByTimeAsync(5);
      expect(woken).toEqual(['a', 'b', 'c']);
    });

    it('still finds a commit nobody notified, at the next safety-net tick', async () => {
      const { f, n, woken } = watched();
      await jest.advanceTimersByTimeAsync(105); // the first tick reads, 20 more find nothing new
      expect(n.state.listening).toBe(1);
      f.state.version = 2;
      await jest.advanceTimersByTimeAsync(999);
      expect(woken).toEqual([]);
      await jest.advanceTimersByTimeAsync(1);
      expect(woken).toEqual(['a']);
    });

    it('looks again once it listens, so a commit just before is not left to the safety net', async () => {
      const { f, n, woken } = watched();
      const listen = n.quieting.listen;
      n.quieting.listen = (changed) => {
        f.state.version = 2; // another process commits between the tick's read and the listening
        return listen(changed);
      };
      await jest.advanceTimersByTimeAsync(105); // the first tick reads, 20 more find nothing new
      expect(n.state.listening).toBe(0);
      await jest.advanceTimersByTimeAsync(5);
      expect(woken).toEqual(['a']);
    });

    it('stops listening when the last waiter goes, and keeps ticking where it cannot listen', async () => {
      const f = file();
      const n = notifier();
      const cancel = new CommitWatch(f.version, 5, n.quieting).next(1, () => undefined);
      await jest.advanceTimersByTimeAsync(105); // the first tick reads, 20 more find nothing new
      expect(n.state.listening).toBe(1);
      cancel();
      expect(n.state.listening).toBe(0);
      expect(jest.getTimerCount()).toBe(0);

      const g = file();
      const failing = notifier({ fails: true });
      new CommitWatch(g.version, 5, failing.quieting).next(1, () => undefined);
      await jest.advanceTimersByTimeAsync(205);
      expect(failing.state.listens).toBe(1); // not tried at every tick
      const reads = g.state.reads;
      await jest.advanceTimersByTimeAsync(50);
      expect(g.state.reads - reads).toBe(10);
    });
  });
});
