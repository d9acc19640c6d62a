import { canonicalJson } from '../primitives.js';
import { DomainError, conflict } from '../errors.js';
import type { CommandOf, SignedRetryProof } from './wallet-auth-commands.js';
import {
  amend,
  isAuthMethodActive,
  isSessionActive,
  prune,
  requireFuture,
  scopeOf,
  sessionByPublicKey,
  type AuthMethodType,
  type Provisioned,
  type SessionRecord,
  type SignedChange,
  type SignedRetryChallengeRecord,
  type SignedRetryIntent,
  type EventOf,
  type WalletAuthEvent,
  type WalletAuthState,
} from './wallet-auth-state.js';

/**
 * The signed-retry `payloadToSign`: compact JSON with keys sorted at every level, generated and
 * stored by the server. It binds the operation, the target resource, the account, the requestId,
 * the expiry and every body field the retry must echo. Clients stamp it byte for byte; the server
 * never re-serializes it for verification, so canonical form only matters for the body echo check.
 */
export interface SignedPayloadFields {
  /** `METHOD /path`, e.g. `DELETE /auth/credentials/AuthMethod:<uuid>`. */
  operation: string;
  targetId: string;
  accountId: string;
  requestId: string;
  expiresAt: string;
  body: Record<string, unknown>;
}

export function operationOf(method: string, path: string): string {
  return `${method.toUpperCase()} ${path}`;
}

export function buildPayloadToSign(fields: SignedPayloadFields): string {
  return canonicalJson(fields);
}

export function parsePayloadToSign(payloadToSign: string): SignedPayloadFields {
  const parsed = JSON.parse(payloadToSign) as SignedPayloadFields;
  if (typeof parsed !== 'object' || parsed === null || typeof parsed.body !== 'object' || parsed.body === null) {
    throw new Error('stored payloadToSign has no body');
  }
  return parsed;
}

export type { SignedRetryProof };

const bodyMismatch = (reason: string) =>
  new DomainError(
    'unauthorized',
    'WALLET_SIGNATURE_BODY_MISMATCH',
    'the retried body does not repeat the fields of the signed payload',
    { reason },
  );

/**
 * The retry must carry exactly the body that was bound into payloadToSign: a changed, missing or
 * added field would be an unsigned change, so each is refused and named in `reason`.
 */
export function assertRetryBodyMatches(payloadToSign: string, retryBody: unknown): void {
  const signed = parsePayloadToSign(payloadToSign).body;
  const retry = retryBody === undefined || retryBody === null ? {} : retryBody;
  if (typeof retry !== 'object' || Array.isArray(retry)) throw bodyMismatch('the retried body is not a JSON object');
  const retried = retry as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(signed), ...Object.keys(retried)])].sort();
  for (const key of keys) {
    const inSigned = signed[key] !== undefined;
    const inRetry = retried[key] !== undefined;
    if (inSigned && !inRetry) throw bodyMismatch(`body field ${key} is missing from the retry`);
    if (!inSigned && inRetry) throw bodyMismatch(`body field ${key} is not part of the signed payload`);
    if (inSigned && canonicalJson(signed[key]) !== canonicalJson(retried[key]))
      throw bodyMismatch(`body field ${key} differs from the signed payload`);
  }
}

export const unauthorized = (reason: string, code = 'UNAUTHORIZED') =>
  new DomainError('unauthorized', code, 'wallet authentication failed', { reason });

/** A spent requestId: also what a target stream answers when the change it authorized is already there. */
export const requestAlreadyUsed = () => unauthorized('requestId was already used');
export const challengeExpired = (reason = 'the signed-retry challenge has expired') =>
  unauthorized(reason, 'CHALLENGE_EXPIRED');
export const sessionExpired = (reason = 'the signing session has expired') => unauthorized(reason, 'SESSION_EXPIRED');

/**
 * The requestId checks that come before anything the operation's target says: an unknown or spent
 * request is 401 whatever state the target is in, so a replay learns nothing (not even a 409).
 * authorizeSignedRetry repeats them among the other checks.
 */
export function assertRequestUsable(state: WalletAuthState, proof: SignedRetryProof | undefined): void {
  if (!proof) return;
  const challenge = state.signedRetries.get(proof.requestId);
  if (!challenge) throw unauthorized('requestId is unknown or has expired');
  if (challenge.consumedAt !== undefined) throw requestAlreadyUsed();
}

const sameChange = (a: SignedChange, b: SignedChange) =>
  a.stream === b.stream && canonicalJson(a.change) === canonicalJson(b.change);

const ms = (iso: string) => Date.parse(iso);

/**
 * Checks, in order: the requestId was issued here, is unused and unexpired, was issued for this
 * kind of command, operation and target, the body echoes the signed one, and the stamping key is
 * an active, unexpired session of this account. Returns the challenge and the signing session.
 *
 * A used requestId is refused first, before anything else is looked at, with one exception that
 * makes a two-stream change crash-safe: when it was consumed for a change in another stream
 * (`expected.authorizes`, recorded at consumption), an identical retry (same change, same signing
 * session, every other check passing again) is `resumed`. The caller then appends the change,
 * and the target stream, which records the requestIds it applied, refuses it if it is already
 * there; so a change is applied at most once, and a crash between the two appends is finished
 * by the client's retry (within the challenge's lifetime) instead of being lost.
 */
export function authorizeSignedRetry(
  state: WalletAuthState,
  proof: SignedRetryProof | undefined,
  expected: { intent: SignedRetryIntent; targetId: string; authorizes?: SignedChange },
  now: string,
): { challenge: SignedRetryChallengeRecord; session: SessionRecord; resumed: boolean } {
  if (!proof)
    throw unauthorized(
      'this operation needs a signed retry: send Service-Wallet-Signature and Request-Id',
      'WALLET_SIGNATURE_MISSING',
    );
  const challenge = state.signedRetries.get(proof.requestId);
  if (!challenge) throw unauthorized('requestId is unknown or has expired');
  const resumed = challenge.consumedAt !== undefined;
  const resumable =
    challenge.authorizes && expected.authorizes && sameChange(challenge.authorizes, expected.authorizes);
  if (resumed && !resumable) throw requestAlreadyUsed();
  if (ms(challenge.expiresAt) <= ms(now)) throw challengeExpired();
  if (challenge.intent !== expected.intent || challenge.operation !== operationOf(proof.method, proof.path)) {
    throw unauthorized('requestId was issued for another operation');
  }
  if (challenge.targetId !== expected.targetId) throw unauthorized('requestId was issued for another resource');
  assertRetryBodyMatches(challenge.payloadToSign, proof.body);

  const session = sessionByPublicKey(state, proof.stampPublicKey);
  if (!session) throw unauthorized('the signing key is not a session of this account', 'WALLET_SIGNATURE_INVALID');
  if (session.revokedAt !== undefined)
    throw unauthorized('the signing session was revoked', 'WALLET_SIGNATURE_INVALID');
  if (ms(session.expiresAt) <= ms(now)) throw sessionExpired();
  // Sessions of a revoked credential are revoked with it; this guards state written before that rule.
  if (!isAuthMethodActive(state.authMethods.get(session.authMethodId))) {
    throw unauthorized('the signing session belongs to a revoked credential', 'WALLET_SIGNATURE_INVALID');
  }
  if (resumed && session.id !== challenge.consumedBy) throw requestAlreadyUsed();
  return { challenge, session, resumed };
}

/**
 * The embedded wallet's rule for a payment it funds (a quote's execution): the key that made the stamp, verified over
 * the payment's payloadToSign, is the signing key of an active session, of an active credential, of the paying wallet.
 * 401 WALLET_SIGNATURE_INVALID otherwise.
 */
export function requireActiveSigningSession(state: WalletAuthState, stampPublicKey: string, now: string): void {
  const session = sessionByPublicKey(state, stampPublicKey);
  if (!session || !isSessionActive(session, now) || !isAuthMethodActive(state.authMethods.get(session.authMethodId)))
    throw new DomainError('unauthorized', 'WALLET_SIGNATURE_INVALID', 'wallet authentication failed', {
      reason: 'the signing key is not an active session of the source wallet',
    });
}

export function consumed(
  scope: { accountId: string; platformId: string },
  requestId: string,
  sessionId: string,
  now: string,
  authorizes?: SignedChange,
): WalletAuthEvent {
  const data = { ...scope, requestId, sessionId, consumedAt: now, ...(authorizes ? { authorizes } : {}) };
  return { type: 'SignedRetryConsumed', data };
}

/**
 * Authorizes a command's signed retry for `expected` (see authorizeSignedRetry): the session that signed it, and
 * the SignedRetryConsumed event that goes first among the command's events.
 */
export function consumeSignedRetry(
  state: WalletAuthState,
  scope: { accountId: string; platformId: string },
  cmd: { signedRetry?: Parameters<typeof authorizeSignedRetry>[1]; now: string },
  expected: Parameters<typeof authorizeSignedRetry>[2],
): { session: SessionRecord; consumption: WalletAuthEvent } {
  const { challenge, session } = authorizeSignedRetry(state, cmd.signedRetry, expected, cmd.now);
  return { session, consumption: consumed(scope, challenge.requestId, session.id, cmd.now) };
}

/**
 * Step 1 issues the challenge (its `payloadToSign` built here, after the checks `preconditions` makes for the intent);
 * step 2 consumes it for a change in another stream.
 */
export function decideSignedRetry(
  cmd: CommandOf<'IssueSignedRetryChallenge' | 'ConsumeSignedRetry'>,
  state: Provisioned,
  preconditions: (state: Provisioned, cmd: CommandOf<'IssueSignedRetryChallenge'>) => AuthMethodType | undefined,
): WalletAuthEvent[] {
  const scope = scopeOf(state);
  if (cmd.type === 'ConsumeSignedRetry') {
    const expected = { intent: 'EXTERNAL' as const, targetId: cmd.targetId, authorizes: cmd.authorizes };
    const { challenge, session, resumed } = authorizeSignedRetry(state, cmd.signedRetry, expected, cmd.now);
    return resumed ? [] : [consumed(scope, challenge.requestId, session.id, cmd.now, cmd.authorizes)];
  }
  requireFuture(cmd.expiresAt, cmd.now);
  if (state.signedRetries.has(cmd.requestId)) throw conflict('CONFLICT', `request ${cmd.requestId} already exists`);
  const authMethodType = preconditions(state, cmd);
  const operation = operationOf(cmd.method, cmd.path);
  const payloadToSign = buildPayloadToSign({
    operation,
    targetId: cmd.targetId,
    accountId: state.accountId,
    requestId: cmd.requestId,
    expiresAt: cmd.expiresAt,
    body: cmd.body,
  });
  return [
    {
      type: 'SignedRetryChallengeIssued',
      data: {
        ...scope,
        requestId: cmd.requestId,
        intent: cmd.intent,
        operation,
        targetId: cmd.targetId,
        payloadToSign,
        ...(authMethodType ? { authMethodType } : {}),
        issuedAt: cmd.now,
        expiresAt: cmd.expiresAt,
      },
    },
  ];
}

export function evolveSignedRetries(
  state: WalletAuthState,
  event: EventOf<'SignedRetryChallengeIssued' | 'SignedRetryConsumed'>,
): WalletAuthState {
  if (event.type === 'SignedRetryConsumed') {
    const { requestId, consumedAt, sessionId, authorizes } = event.data;
    amend(state.signedRetries, requestId, {
      consumedAt,
      consumedBy: sessionId,
      ...(authorizes ? { authorizes } : {}),
    });
    return state;
  }
  const d = event.data;
  prune(state, d.issuedAt);
  state.signedRetries.set(d.requestId, {
    requestId: d.requestId,
    intent: d.intent,
    operation: d.operation,
    targetId: d.targetId,
    payloadToSign: d.payloadToSign,
    issuedAt: d.issuedAt,
    expiresAt: d.expiresAt,
    ...(d.authMethodType ? { type: d.authMethodType } : {}),
  });
  return state;
}
