import type { Subscription } from './event-store.js';

/** Whether a subscription was stopped (by its subscriber or the store), and whether the store ended it. */
export interface SubscriptionFlags {
  stopped: boolean;
  endedByStore: boolean;
}

/** A subscription as a store keeps it: `end` is the store's stop, after which `done` rejects. */
export type StoreSubscription = Subscription & { end(): Promise<void> };

/**
 * The handle of a subscription whose delivery loop is `done`: `stop` marks it stopped, halts the source once
 * (`halt`) and waits for the loop; `end` (the store closing under it) does the same, marked as ended by the store.
 */
export function subscriptionHandle(
  flags: SubscriptionFlags,
  done: Promise<void>,
  halt: () => Promise<void> | void,
): StoreSubscription {
  // Failures are reported through `done`; this keeps an unobserved one from crashing the process.
  done.catch(() => undefined);
  const subscription: StoreSubscription = {
    done,
    stop: async () => {
      if (!flags.stopped) {
        flags.stopped = true;
        await halt();
      }
      await done.catch(() => undefined);
    },
    end: async () => {
      if (!flags.stopped) flags.endedByStore = true;
      await subscription.stop();
    },
  };
  return subscription;
}
