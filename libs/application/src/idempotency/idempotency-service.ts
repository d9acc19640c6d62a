import type { SecretBox } from '#crypto/secret-box.js';
import { DomainError } from '#domain/errors.js';
import type { Clock } from '#domain/clock.js';
import type { IdGenerator } from '#domain/ids.js';
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
import type { PlatformClocks } from '../platforms/platform-clocks.js';

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
  | { kind: 'run'; complete(response: IdempotentResponse): Promise<void>; release(): Promise<void> }
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
  private static readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly runner: CommandRunner,
    private readonly clocks: PlatformClocks,
    private readonly ids: IdGenerator,
    private readonly box: SecretBox,
  ) {}

  async begin(actor: Actor, key: string, request: IdempotentRequest): Promise<IdempotencyStart> {
    const platformId = actor.platformId;
    const stream = idempotencyStream(platformId, key);
    const hash = requestHash({ platformId, ...request });
    const metadata = { ...actor };
    const clock = await this.clocks.forPlatform(platformId);
    for (let round = 0; round < WAIT_ROUNDS; round++) {
      const claimId = this.ids.uuid();
      const { state } = await this.runner.run(
        stream,
        idempotencyDecider,
        { type: 'ClaimKey', platformId, claimId, requestHash: hash, now: clock.now() },
        { metadata, answersAfter: 'append' },
      );
      const outcome = claimOutcome(state, claimId, hash);
      switch (outcome.kind) {
        case 'mismatch':
          throw new DomainError(
            'unprocessable',
            'IDEMPOTENCY_KEY_REUSED',
            'this Idempotency-Key was used with a different request',
          );
        case 'replay':
          return { kind: 'replay', response: this.open(stream, outcome.response) };
        case 'owner':
          return this.ownerHandle(stream, platformId, claimId, metadata, clock);
        case 'in_progress': {
          const first = IdempotencyService.inFlight.get(stream);
          await (first ? Promise.race([first, pause(WAIT_ROUND_MS * 20)]) : pause(WAIT_ROUND_MS));
        }
      }
    }
    throw new DomainError(
      'conflict',
      'IDEMPOTENCY_KEY_IN_PROGRESS',
      'a request with this Idempotency-Key is still running; retry later',
    );
  }

  private ownerHandle(
    stream: string,
    platformId: string,
    claimId: string,
    metadata: EventMetadata,
    clock: Clock,
  ): IdempotencyStart {
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    IdempotencyService.inFlight.set(stream, done);
    const settle = async (work: () => Promise<unknown>) => {
      try {
        await work();
      } finally {
        if (IdempotencyService.inFlight.get(stream) === done) IdempotencyService.inFlight.delete(stream);
        finish();
      }
    };
    return {
      kind: 'run',
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

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
