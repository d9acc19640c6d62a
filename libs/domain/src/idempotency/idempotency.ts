import { createHash } from 'node:crypto';
import type { Decider } from '../decider.js';
import { conflict } from '../errors.js';
import { derivedUuid } from '../payments/transactions/payment-plan.js';
import { canonicalJson } from '../primitives.js';
import { plantedFaults } from '../planted-faults.js';

/**
 * Idempotency keys live in the write path: one stream per platform and key. The first request
 * claims the stream (appended with expected revision `no_stream`, so of concurrent duplicates
 * exactly one wins), runs, and records its response; later requests with the same key and the
 * same request get that response, a different request gets 422. A claim whose request never
 * finished (its process died) can be taken over once its lease ends; a recorded response is kept
 * for the retention period (24 hours) and then the key may be used afresh.
 */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60_000;
export const IDEMPOTENCY_LEASE_MS = 5 * 60_000;

export const idempotencyStream = (platformId: string, key: string) =>
  `idempotency-${derivedUuid(`${platformId}\n${key}`)}`;

/** Key-order independent JSON, so equal bodies hash equally whatever their field order. */
export const stableJson = canonicalJson;

export function requestHash(request: { platformId: string; method: string; path: string; body: unknown }): string {
  return createHash('sha256')
    .update(stableJson({ ...request, method: request.method.toUpperCase() }))
    .digest('hex');
}

/**
 * The first response as kept in the key's stream. The application seals the body (it may hold a
 * secret shown once, such as a new API token's client secret, and the event log must not);
 * `body` in clear is only read back from responses recorded before bodies were sealed.
 */
export interface StoredResponse {
  status: number;
  sealedBody?: string;
  body?: unknown;
}

export interface IdempotencyState {
  claim?: {
    claimId: string;
    /** What the request's effects are named from (see `IdempotencyKeyClaimed`). */
    effectsId: string;
    requestHash: string;
    claimedAt: string;
    leaseUntil: string;
    expiresAt: string;
    released?: boolean;
  };
  response?: StoredResponse;
}

export type IdempotencyEvent =
  | {
      type: 'IdempotencyKeyClaimed';
      data: {
        platformId: string;
        claimId: string;
        /**
         * What the ids of the request's effects are derived from: the claim's own id, or, when it takes over a claim
         * whose request never answered (cut off by a crash, or still running elsewhere when its lease ended), the
         * taken-over claim's, so that the request run again names its effects as the first run did and an effect
         * already applied is found instead of applied twice. Absent from claims recorded before it: their claimId.
         */
        effectsId?: string;
        requestHash: string;
        claimedAt: string;
        leaseUntil: string;
        expiresAt: string;
      };
    }
  | {
      type: 'IdempotentResponseRecorded';
      data: { platformId: string; claimId: string; response: StoredResponse; recordedAt: string };
    }
  | { type: 'IdempotencyKeyReleased'; data: { platformId: string; claimId: string; releasedAt: string } };

export type IdempotencyCommand =
  | { type: 'ClaimKey'; platformId: string; claimId: string; requestHash: string; now: Date }
  | { type: 'RecordResponse'; platformId: string; claimId: string; response: StoredResponse; now: Date }
  | { type: 'ReleaseKey'; platformId: string; claimId: string; now: Date };

/** Whether a claim may be (re)taken: never claimed, released, expired, or abandoned mid-request. */
function claimable(state: IdempotencyState, now: Date): boolean {
  const c = state.claim;
  if (!c || c.released || plantedFaults.dropIdempotencyRecord) return true;
  if (state.response) return now.getTime() >= Date.parse(c.expiresAt);
  return now.getTime() >= Date.parse(c.leaseUntil);
}

export type ClaimOutcome =
  | { kind: 'owner'; effectsId: string }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'mismatch' }
  | { kind: 'in_progress' };

/** What a request with `claimId` and `hash` should do, given the state after its claim attempt. */
export function claimOutcome(state: IdempotencyState, claimId: string, hash: string): ClaimOutcome {
  const c = state.claim!;
  if (c.requestHash !== hash) return { kind: 'mismatch' };
  if (c.claimId === claimId && !state.response) return { kind: 'owner', effectsId: c.effectsId };
  if (state.response) return { kind: 'replay', response: state.response };
  return { kind: 'in_progress' };
}

export const idempotencyDecider: Decider<IdempotencyState, IdempotencyCommand, IdempotencyEvent> = {
  initialState: () => ({}),
  decide(cmd, state) {
    const at = cmd.now.toISOString();
    switch (cmd.type) {
      case 'ClaimKey': {
        if (!claimable(state, cmd.now)) return [];
        const now = cmd.now.getTime();
        const abandoned = state.claim && !state.claim.released && !state.response ? state.claim : undefined;
        return [
          {
            type: 'IdempotencyKeyClaimed',
            data: {
              platformId: cmd.platformId,
              claimId: cmd.claimId,
              effectsId: abandoned?.effectsId ?? cmd.claimId,
              requestHash: cmd.requestHash,
              claimedAt: at,
              leaseUntil: new Date(now + IDEMPOTENCY_LEASE_MS).toISOString(),
              expiresAt: new Date(now + IDEMPOTENCY_RETENTION_MS).toISOString(),
            },
          },
        ];
      }
      case 'RecordResponse':
        if (state.claim?.claimId !== cmd.claimId || state.claim.released)
          throw conflict('IDEMPOTENCY_CLAIM_LOST', 'the idempotency key was claimed by another request');
        if (state.response) return [];
        return [
          {
            type: 'IdempotentResponseRecorded',
            data: { platformId: cmd.platformId, claimId: cmd.claimId, response: cmd.response, recordedAt: at },
          },
        ];
      case 'ReleaseKey':
        if (state.claim?.claimId !== cmd.claimId || state.response || state.claim.released) return [];
        return [
          {
            type: 'IdempotencyKeyReleased',
            data: { platformId: cmd.platformId, claimId: cmd.claimId, releasedAt: at },
          },
        ];
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'IdempotencyKeyClaimed': {
        const { platformId: _p, effectsId, ...claim } = event.data;
        return { claim: { ...claim, effectsId: effectsId ?? claim.claimId } };
      }
      case 'IdempotentResponseRecorded':
        return { ...state, response: event.data.response };
      case 'IdempotencyKeyReleased':
        return state.claim ? { ...state, claim: { ...state.claim, released: true } } : state;
    }
  },
};
