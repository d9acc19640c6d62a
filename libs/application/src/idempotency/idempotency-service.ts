import type { SecretBox } from '#crypto/secret-box.js';
import { DomainError } from '#domain/errors.js';
import type { Clock } from '#domain/clock.js';
import type { IdGenerator } from '#domain/primitives.js';
import {
  claimOutcome,
  idempotencyDecider,
  idempotencyStream,
  requestHash,
  type StoredResponse,
} from '#domain/idempotency/idempotency.js';
import type { EventMetadata } from '#event-store/event-store.js';
import type { CommandRunner } from '../command-runner.js';
import type { Actor } from '../tokens.js';
import type { PlatformClocks } from '../command-context.js';
import { keyedActor } from './effect-ids.js';

export interface IdempotentRequest {
  method: string;
  /** Path including the base path and query, as received. */
  path: string;
  body: unknown;
}

/** A response as the HTTP layer sends it. */
export interface IdempotentResponse {
  status: number;
  body: unknown;
}

export type IdempotencyStart =
  | {
      kind: 'run';
      /** Whom the request runs as: the caller, with the ids of its effects derived from the claim (`keyedActor`). */
      actor: Actor;
      complete(response: IdempotentResponse): Promise<void>;
      release(): Promise<void>;
    }
  | { kind: 'replay'; response: IdempotentResponse };

/** How long a duplicate waits for the first request with its key to finish. */
const WAIT_ROUNDS = 600;
const WAIT_ROUND_MS = 50;

/**
 * Runs a request at most once per (platform, Idempotency-Key): the claim, the recorded response
 * and a release (for outcomes that must not be replayed) are events of the key's stream, so the
 * guarantee holds across processes. Duplicates in this process wait on the first one's promise;
 * duplicates elsewhere poll the stream.
 */
export class IdempotencyService {
  /**
   * Requests under way in each process (the process's one command runner), by key stream: from before a claim until
   * the key is completed or released. Shared by the services of one process (the interceptor's and the uploads').
   */
  private static readonly inFlightOf = new WeakMap<CommandRunner, Map<string, Promise<void>>>();
  private readonly inFlight: Map<string, Promise<void>>;

  constructor(
    private readonly runner: CommandRunner,
    private readonly clocks: PlatformClocks,
    private readonly ids: IdGenerator,
    private readonly box: SecretBox,
  ) {
    const shared = IdempotencyService.inFlightOf.get(runner) ?? new Map<string, Promise<void>>();
    IdempotencyService.inFlightOf.set(runner, shared);
    this.inFlight = shared;
  }

  async begin(actor: Actor, key: string, request: IdempotentRequest): Promise<IdempotencyStart> {
    const platformId = actor.platformId;
    const stream = idempotencyStream(platformId, key);
    const hash = requestHash({ platformId, ...request });
    const metadata = { ...actor };
    const clock = await this.clocks.forPlatform(platformId);
    for (let round = 0; round < WAIT_ROUNDS; round++) {
      // A request with this key claiming or running in this process is waited for, never taken over: its lease may
      // seem over to a clock read later (a sandbox clock moved forward meanwhile), but its effect may be applied still.
      const running = this.inFlight.get(stream);
      if (running) {
        await Promise.race([running, pause(WAIT_ROUND_MS * 20)]);
        continue;
      }
      const local = enter(this.inFlight, stream);
      const claimId = this.ids.uuid();
      let outcome: ReturnType<typeof claimOutcome>;
      try {
        const { state } = await this.runner.run(
          stream,
          idempotencyDecider,
          { type: 'ClaimKey', platformId, claimId, requestHash: hash, now: clock.now() },
          { metadata, answersAfter: 'append' },
        );
        outcome = claimOutcome(state, claimId, hash);
      } catch (error) {
        local.leave();
        throw error;
      }
      if (outcome.kind === 'owner')
        return this.ownerHandle(stream, keyedActor(actor, outcome.effectsId), claimId, { metadata, clock, local });
      local.leave();
      if (outcome.kind === 'mismatch')
        throw new DomainError(
          'unprocessable',
          'IDEMPOTENCY_KEY_REUSED',
          'this Idempotency-Key was used with a different request',
        );
      if (outcome.kind === 'replay') return { kind: 'replay', response: this.open(stream, outcome.response) };
      // In progress in another process: look again shortly.
      await pause(WAIT_ROUND_MS);
    }
    throw new DomainError(
      'conflict',
      'IDEMPOTENCY_KEY_IN_PROGRESS',
      'a request with this Idempotency-Key is still running; retry later',
    );
  }

  private ownerHandle(
    stream: string,
    actor: Actor,
    claimId: string,
    { metadata, clock, local }: { metadata: EventMetadata; clock: Clock; local: LocalRequest },
  ): IdempotencyStart {
    const { platformId } = actor;
    const settle = async (work: () => Promise<unknown>) => {
      try {
        await work();
      } finally {
        local.leave();
      }
    };
    return {
      kind: 'run',
      actor,
      complete: (response) =>
        settle(() =>
          this.runner.run(
            stream,
            idempotencyDecider,
            {
              type: 'RecordResponse',
              platformId,
              claimId,
              response: this.seal(stream, response),
              now: clock.now(),
            },
            { metadata, answersAfter: 'append' },
          ),
        ),
      release: () =>
        settle(() =>
          this.runner.run(
            stream,
            idempotencyDecider,
            { type: 'ReleaseKey', platformId, claimId, now: clock.now() },
            { metadata, answersAfter: 'append' },
          ),
        ),
    };
  }

  /**
   * Bodies are sealed whatever the route: a response may carry a secret shown once (POST /tokens
   * returns the client secret) and the event log keeps nothing secret in clear. The context binds
   * the sealed body to its platform and key, so it opens for no other.
   */
  private seal(stream: string, response: IdempotentResponse): StoredResponse {
    const plain = JSON.stringify(response.body ?? null);
    return { status: response.status, sealedBody: this.box.seal(plain, responseContext(stream)) };
  }

  private open(stream: string, stored: StoredResponse): IdempotentResponse {
    if (stored.sealedBody === undefined) return { status: stored.status, body: stored.body ?? null };
    const plain = this.box.open(stored.sealedBody, responseContext(stream)).toString('utf8');
    return { status: stored.status, body: JSON.parse(plain) as unknown };
  }
}

const responseContext = (stream: string) => `idempotent-response:${stream}`;

/** A request of this process with a key, from before its claim until it completes or releases the key. */
interface LocalRequest {
  leave(): void;
}

/** Marks a request with the key's stream as under way in this process (see `IdempotencyService.inFlightOf`). */
function enter(inFlight: Map<string, Promise<void>>, stream: string): LocalRequest {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  inFlight.set(stream, done);
  return {
    leave() {
      if (inFlight.get(stream) === done) inFlight.delete(stream);
      finish();
    },
  };
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
