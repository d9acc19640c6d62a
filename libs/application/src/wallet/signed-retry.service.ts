import { Inject, Injectable } from '@nestjs/common';
import { verifyStamp } from '#crypto/stamp.js';
import { publicId, streams, type IdGenerator } from '#domain/ids.js';
import { unauthorized, type SignedRetryProof } from '#domain/wallet/signed-retry.js';
import { walletAuthDecider, type NewAuthMethod } from '#domain/wallet/wallet-auth.js';
import {
  sessionByPublicKey,
  type AuthMethodType,
  type SignedChange,
  type SignedRetryIntent,
  type WalletAuthEvent,
} from '#domain/wallet/wallet-auth-state.js';
import { CommandRunner } from '../command-runner.js';
import { faultPoint } from '../fault-injection.js';
import { IDS, type Actor } from '../tokens.js';
import { WalletAccounts } from './wallet-accounts.js';
import { PlatformClocks } from '../platforms/platform-clocks.js';

export type SignedRetryOutcome =
  | {
      kind: 'challenge';
      challenge: {
        payloadToSign: string;
        requestId: string;
        expiresAt: string;
        type?: 'OAUTH' | 'EMAIL_OTP' | 'PASSKEY';
      };
    }
  | { kind: 'authorized'; sessionId: string; authMethodId: string; requestId: string };

export type SignedRetryChallenge = Extract<SignedRetryOutcome, { kind: 'challenge' }>;

/** What a signed operation answers: its step-1 challenge, or its result once authorized. */
export type SignedResult<T> = SignedRetryChallenge | { kind: 'done'; result: T };

export interface SignedRetryInput {
  /** The EMBEDDED_WALLET internal account whose session must sign. */
  accountId: string;
  /** e.g. 'PATCH', '/cards/Card:...' */
  method: string;
  path: string;
  /** The resource acted on. */
  targetId: string;
  /** Raw request body (both steps must carry the same). */
  body: Record<string, unknown>;
  /** The two headers, as received. */
  signature?: string;
  requestId?: string;
  actor: Actor;
  /**
   * The change this authorizes in another stream (card or customer), recorded in the consumption.
   * The caller must append it with the returned requestId (see `authorize`).
   */
  authorizes?: SignedChange;
}

/** What step 1 binds: the kind of command, the operation, its target and the body to echo. */
export interface ChallengeSpec {
  intent: SignedRetryIntent;
  method: string;
  path: string;
  targetId: string;
  body: Record<string, unknown>;
  authMethodType?: AuthMethodType;
  /** For credential adds: lets uniqueness rules refuse before anything is signed. */
  authMethod?: NewAuthMethod;
}

export interface SignedRetryHeaders {
  signature?: string;
  requestId?: string;
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

/**
 * The signed-retry engine: issues challenges into the wallet's stream and turns a retried
 * request into a proof whose stamp has been verified over the stored payloadToSign. The wallet
 * decider then consumes the requestId in the same append as the operation it authorizes, so a
 * requestId can never authorize two changes, also across processes (expected revision).
 */
@Injectable()
export class SignedRetryService {
  constructor(
    private readonly runner: CommandRunner,
    private readonly wallets: WalletAccounts,
    private readonly clocks: PlatformClocks,
    @Inject(IDS) private readonly ids: IdGenerator,
  ) {}

  /**
   * Step 1 (no `Service-Wallet-Signature`/`Request-Id` headers): issues a challenge bound to the operation
   * (method + path), the target resource id, the EMBEDDED_WALLET account whose sessions may sign, and the
   * echoed body fields (`body` = the raw parsed JSON body; every field in it is bound); returns `challenge`.
   * Step 2 (both headers): consumes the requestId atomically (single use, also under concurrency), checks expiry,
   * operation/target/account match and body echo, verifies the stamp over the stored payloadToSign, and that the
   * stamping key is an active unexpired session of that account; returns `authorized`. Any failure throws a 401
   * DomainError with a `reason` (codes WALLET_SIGNATURE_MISSING/MALFORMED/INVALID/BODY_MISMATCH, REQUEST_ID_MISSING,
   * UNAUTHORIZED, CHALLENGE_EXPIRED, SESSION_EXPIRED), and changes nothing.
   *
   * The change itself goes to another stream, after the consumption: two appends, not one. To make
   * the pair crash-safe without a second mechanism, the consumption records what it authorized
   * (`authorizes`: target stream and change) and the target's decider records the requestId it
   * applied (event SignedRequestApplied, in the change's own append). If the process dies between
   * the appends, the client's identical retry (its stamp over the same payloadToSign, so still
   * only within the challenge lifetime) passes the wallet checks again instead of 401 and appends
   * the change; the target refuses a requestId it already holds with 401, so a retry after the
   * change was applied, or the loser of two concurrent retries, changes nothing (expected revision).
   */
  async authorize(input: SignedRetryInput): Promise<SignedRetryOutcome> {
    await this.wallets.own(input.accountId, input.actor);
    const spec: ChallengeSpec = {
      intent: 'EXTERNAL',
      method: input.method,
      path: input.path,
      targetId: input.targetId,
      body: input.body,
    };
    const step = await this.step(input.accountId, spec, input, input.actor);
    if (step.kind === 'challenge') return step;
    const signedRetry = step.proof;
    const { state } = await this.runner.run(
      streams.wallet(input.accountId),
      walletAuthDecider,
      {
        type: 'ConsumeSignedRetry',
        targetId: input.targetId,
        signedRetry,
        ...(input.authorizes ? { authorizes: input.authorizes } : {}),
        now: (await this.clocks.now(input.actor.platformId)).toISOString(),
      },
      // Consuming changes no read model; the caller's own write waits for them.
      { metadata: { ...input.actor }, waitForReadModels: false },
    );
    // The decider accepted this very key as an active session of the account (a new consumption or a resumed one).
    const session = sessionByPublicKey(state, signedRetry.stampPublicKey)!;
    if (input.authorizes) faultPoint('after-consume');
    const { requestId } = signedRetry;
    return { kind: 'authorized', sessionId: session.id, authMethodId: session.authMethodId, requestId };
  }

  /**
   * Either step of a signed operation on the wallet of `accountId` (already checked to be the
   * caller's): without the signature headers, the challenge to answer with; with them, the
   * verified proof for the wallet decider, which consumes it in the operation's own append.
   */
  async step(
    accountId: string,
    spec: ChallengeSpec,
    headers: SignedRetryHeaders,
    actor: Actor,
  ): Promise<SignedRetryChallenge | { kind: 'proof'; proof: SignedRetryProof }> {
    const step = signedRetryStep(headers);
    if (!step) return this.challenge(accountId, spec, actor);
    return { kind: 'proof', proof: await this.prove(accountId, step, spec) };
  }

  /** Step 1 of any signed operation on the wallet of `accountId` (already checked to be the caller's). */
  async challenge(accountId: string, spec: ChallengeSpec, actor: Actor): Promise<SignedRetryChallenge> {
    const now = await this.clocks.now(actor.platformId);
    const requestId = publicId('Request', this.ids.uuid());
    const { events } = await this.runner.run(
      streams.wallet(accountId),
      walletAuthDecider,
      {
        type: 'IssueSignedRetryChallenge',
        requestId,
        intent: spec.intent,
        method: spec.method,
        path: spec.path,
        targetId: spec.targetId,
        body: spec.body,
        expiresAt: new Date(now.getTime() + SIGNED_RETRY_TTL_SECONDS * 1000).toISOString(),
        ...(spec.authMethodType ? { authMethodType: spec.authMethodType } : {}),
        ...(spec.authMethod ? { authMethod: spec.authMethod } : {}),
        now: now.toISOString(),
      },
      // A challenge is not a state the read models show: no need to wait for them.
      { metadata: { ...actor }, waitForReadModels: false },
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
    request: { method: string; path: string; body: unknown },
  ): Promise<SignedRetryProof> {
    const { state } = await this.runner.load(streams.wallet(accountId), walletAuthDecider);
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
