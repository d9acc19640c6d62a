import { Inject, Injectable } from '@nestjs/common';
import { verifyStamp } from '#crypto/stamp.js';
import { publicId, type IdGenerator } from '#domain/primitives.js';
import { unauthorized, type SignedRetryProof } from '#domain/wallet/signed-retry.js';
import type { NewAuthMethod } from '#domain/wallet/wallet-auth.js';
import {
  sessionByPublicKey,
  type AuthMethodType,
  type SignedChange,
  type SignedRetryIntent,
  type WalletAuthEvent,
} from '#domain/wallet/wallet-auth-state.js';
import { faultPoint, PlatformClocks } from '../command-context.js';
import { IDS, type Actor } from '../tokens.js';
import { WalletAccounts } from './wallet-accounts.js';

/** Step 1's answer: the payload the client must stamp, and the requestId to retry with. */
export interface SignedRetryChallenge {
  kind: 'challenge';
  challenge: {
    payloadToSign: string;
    requestId: string;
    expiresAt: string;
    type?: 'OAUTH' | 'EMAIL_OTP' | 'PASSKEY';
  };
}

/** What a signed operation answers: its step-1 challenge, or its result once authorized. */
export type SignedResult<T> = SignedRetryChallenge | { kind: 'done'; result: T };

export interface SignedRetryHeaders {
  signature?: string;
  requestId?: string;
}

/**
 * A signed operation as the edge received it. Step 1 binds the operation (`method` and `path`, e.g.
 * `PATCH /cards/Card:...`) and every field of `body` (the parsed JSON body exactly as sent); step 2
 * repeats them with the two headers.
 */
export interface SignedRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
  headers: SignedRetryHeaders;
}

/** What step 1 binds besides the request: the kind of command and the resource it acts on. */
export interface ChallengeSpec {
  intent: SignedRetryIntent;
  targetId: string;
  authMethodType?: AuthMethodType;
  /** For credential adds: lets uniqueness rules refuse before anything is signed. */
  authMethod?: NewAuthMethod;
}

/** The session that signed a consumed request, and the requestId the target stream records. */
export interface ConsumedSignedRetry {
  sessionId: string;
  authMethodId: string;
  requestId: string;
}

/** How long a challenge can be retried. */
export const SIGNED_RETRY_TTL_SECONDS = 300;

/**
 * Which step a request is: undefined for step 1 (neither header), the pair for step 2. One
 * header without the other is a broken retry, refused without touching anything.
 */
export function signedRetryStep(headers: SignedRetryHeaders): { signature: string; requestId: string } | undefined {
  const { signature, requestId } = headers;
  if (!signature && !requestId) return undefined;
  if (!signature)
    throw unauthorized('Request-Id was sent without Service-Wallet-Signature', 'WALLET_SIGNATURE_MISSING');
  if (!requestId) throw unauthorized('Service-Wallet-Signature was sent without Request-Id', 'REQUEST_ID_MISSING');
  return { signature, requestId };
}

/** Whether a request is step 2 (it carries the signature headers; a broken pair is refused). */
/** Which step of a signed operation a request is: the first (answered with a challenge) or the signed retry. */
export type SignedStep = 'challenge' | 'signed-retry';

export const signedStepOf = (request: SignedRequest): SignedStep =>
  signedRetryStep(request.headers) !== undefined ? 'signed-retry' : 'challenge';

/**
 * The signed-retry engine: issues challenges into the wallet's stream and turns a retried
 * request into a proof whose stamp has been verified over the stored payloadToSign. The wallet
 * decider then consumes the requestId in the same append as the operation it authorizes, so a
 * requestId can never authorize two changes, also across processes (expected revision).
 */
@Injectable()
export class SignedRetryService {
  constructor(
    private readonly wallets: WalletAccounts,
    private readonly clocks: PlatformClocks,
    @Inject(IDS) private readonly ids: IdGenerator,
  ) {}

  /**
   * Either step of a signed operation on the wallet of `accountId` (already checked to be the
   * caller's). Step 1 (no `Service-Wallet-Signature`/`Request-Id` headers) issues a challenge bound to
   * the operation, the target resource, the account whose sessions may sign and every field of the
   * body, and returns it. Step 2 (both headers) verifies the stamp over the stored payloadToSign and
   * returns the proof; the wallet decider checks everything else (single use, expiry, operation,
   * target, body echo, signing session) in the append that consumes it. Any failure throws a 401
   * DomainError with a `reason` (codes WALLET_SIGNATURE_MISSING/MALFORMED/INVALID/BODY_MISMATCH,
   * REQUEST_ID_MISSING, UNAUTHORIZED, CHALLENGE_EXPIRED, SESSION_EXPIRED), and changes nothing.
   */
  async step(
    accountId: string,
    spec: ChallengeSpec,
    request: SignedRequest,
    actor: Actor,
  ): Promise<SignedRetryChallenge | { kind: 'proof'; proof: SignedRetryProof }> {
    const step = signedRetryStep(request.headers);
    if (!step) return this.challenge(accountId, spec, request, actor);
    return { kind: 'proof', proof: await this.prove(accountId, step, request) };
  }

  /**
   * Consumes a step-2 proof for a change in another stream (a card or a customer): two appends,
   * not one. To make the pair crash-safe without a second mechanism, the consumption records what
   * it authorizes (target stream and change) and the target's decider records the requestId it
   * applied (event SignedRequestApplied, in the change's own append). If the process dies between
   * the appends, the client's identical retry (its stamp over the same payloadToSign, so still
   * only within the challenge lifetime) passes the wallet checks again instead of 401 and appends
   * the change; the target refuses a requestId it already holds with 401, so a retry after the
   * change was applied, or the loser of two concurrent retries, changes nothing (expected revision).
   */
  async consume(
    accountId: string,
    targetId: string,
    proof: SignedRetryProof,
    authorizes: SignedChange,
    actor: Actor,
  ): Promise<ConsumedSignedRetry> {
    // Consuming changes no read model; the caller's own write waits for them.
    const consume = { type: 'ConsumeSignedRetry' as const, targetId, signedRetry: proof, authorizes };
    const { state } = await this.wallets.decide(accountId, consume, actor, 'append');
    // The decider accepted this very key as an active session of the account (a new consumption or a resumed one).
    const session = sessionByPublicKey(state, proof.stampPublicKey)!;
    faultPoint('after-consume');
    return { sessionId: session.id, authMethodId: session.authMethodId, requestId: proof.requestId };
  }

  /** Step 1 of any signed operation on the wallet of `accountId` (already checked to be the caller's). */
  async challenge(
    accountId: string,
    spec: ChallengeSpec,
    request: SignedRequest,
    actor: Actor,
  ): Promise<SignedRetryChallenge> {
    const now = await this.clocks.now(actor.platformId);
    const requestId = publicId('Request', this.ids.uuid());
    // A challenge is not a state the read models show: no need to wait for them.
    const { events } = await this.wallets.decide(
      accountId,
      {
        type: 'IssueSignedRetryChallenge',
        requestId,
        intent: spec.intent,
        method: request.method,
        path: request.path,
        targetId: spec.targetId,
        body: request.body,
        expiresAt: new Date(now.getTime() + SIGNED_RETRY_TTL_SECONDS * 1000).toISOString(),
        ...(spec.authMethodType ? { authMethodType: spec.authMethodType } : {}),
        ...(spec.authMethod ? { authMethod: spec.authMethod } : {}),
        now: now.toISOString(),
      },
      actor,
      'append',
    );
    const issued = events[0] as Extract<WalletAuthEvent, { type: 'SignedRetryChallengeIssued' }>;
    const { payloadToSign, expiresAt, authMethodType } = issued.data;
    return {
      kind: 'challenge',
      challenge: { payloadToSign, requestId, expiresAt, ...(authMethodType ? { type: authMethodType } : {}) },
    };
  }

  /**
   * Step 2: verifies the stamp over the payloadToSign stored for `requestId` and returns the proof
   * for the wallet decider, which checks everything else (single use, expiry, operation, target,
   * body echo, signing session) inside the append that performs the operation.
   */
  async prove(
    accountId: string,
    step: { signature: string; requestId: string },
    request: SignedRequest,
  ): Promise<SignedRetryProof> {
    // A challenge's payload never changes once issued: one this process has seen is not read again (whether it is
    // still unused is decided in the append that consumes it, against the stream as it is).
    const state = await this.wallets.state(accountId, {
      reads: 'fixed-facts',
      known: (seen) => seen.signedRetries.has(step.requestId),
    });
    const challenge = state.signedRetries.get(step.requestId);
    if (!challenge) throw unauthorized('requestId is unknown or has expired');
    const verified = verifyStamp(step.signature, challenge.payloadToSign);
    if (!verified.ok) throw unauthorized(verified.reason, verified.code);
    return {
      requestId: step.requestId,
      stampPublicKey: verified.publicKey,
      method: request.method,
      path: request.path,
      body: request.body,
    };
  }
}
