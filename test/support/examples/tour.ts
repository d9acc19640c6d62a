import type { ManualClock } from '#domain/clock.js';
import type { ExampleRecorder } from '../example-recorder.js';
import type { Client, Reply, TestService } from '../service.js';

/** What each part of the recorded tour gets: the service, its clients (recorded) and the clock they share. */
export interface Tour {
  t: TestService;
  /** The sandbox platform's client, recorded. */
  api: Client;
  /** A client without credentials, recorded. */
  anonymous: Client;
  clock: ManualClock;
  recorder: ExampleRecorder;
}

/** The reply when its status is `status`; otherwise throws with what came back. */
export function ok<T extends Reply>(reply: T, status = 200, what = 'the call'): T {
  if (reply.status !== status)
    throw new Error(`${what}: expected ${status}, got ${reply.status} ${JSON.stringify(reply.body)?.slice(0, 500)}`);
  return reply;
}

export const enc = encodeURIComponent;
