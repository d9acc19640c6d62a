import { DomainError, conflict, invalid, notFound } from '../errors.js';
import { authorizeSignedRetry, challengeExpired, sessionExpired, unauthorized } from './signed-retry.js';
import {
  OTP_RATE_LIMIT,
  OTP_VERIFY_LIMIT,
  activeAuthMethods,
  isAuthMethodActive,
  isSessionActive,
  type AuthMethodRecord,
  type AuthMethodType,
  type ProvisionedWalletState,
  type SessionRecord,
  type SignedChange,
  type WalletAuthEvent,
  type WalletAuthState,
} from './wallet-auth-state.js';

import type { NewAuthMethod, SessionProof, WalletAuthCommand } from './wallet-auth-commands.js';

/** The wallet-auth decider's checks and the events they share, one function per rule. */

/** 429 with `Retry-After`: the edge maps this subclass before the kind-based mapping. */
export class RateLimitedError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super('rate_limited', 'RATE_LIMITED', message, { retryAfterSeconds });
  }
}

export const COMPRESSED_KEY = /^0[23][0-9a-fA-F]{64}$/;
export const UNCOMPRESSED_KEY = /^04[0-9a-fA-F]{128}$/;
export const ms = (iso: string) => Date.parse(iso);

export type Provisioned = ProvisionedWalletState;

/** The wallet, provisioned, or its account is not found. */
export function requireProvisioned(state: WalletAuthState): Provisioned {
  if (!state.provisioned) throw notFound('INTERNAL_ACCOUNT', state.accountId ?? 'unknown');
  return state;
}

export function requireAuthMethod(state: WalletAuthState, id: string): AuthMethodRecord {
  const m = state.authMethods.get(id);
  if (!isAuthMethodActive(m)) throw notFound('AUTH_METHOD', id);
  return m;
}

/** The active credential `id`, which must be of `type` (an OTP or passkey step names its own kind). */
export function requireAuthMethodOfType(
  state: WalletAuthState,
  id: string,
  type: 'EMAIL_OTP' | 'PASSKEY',
): AuthMethodRecord {
  const method = requireAuthMethod(state, id);
  const article = type === 'EMAIL_OTP' ? 'an' : 'a';
  if (method.type !== type)
    throw invalid('INVALID_INPUT', `credential ${method.id} is not ${article} ${type} credential`);
  return method;
}

export function requireSession(state: WalletAuthState, id: string): SessionRecord {
  const s = state.sessions.get(id);
  if (!s) throw notFound('SESSION', id);
  return s;
}

export function requireFuture(expiresAt: string, now: string, field = 'expiresAt'): void {
  if (!(ms(expiresAt) > ms(now))) throw invalid('INVALID_INPUT', `${field} must be later than now`, field);
}

export function assertCanAdd(state: WalletAuthState, m: NewAuthMethod): void {
  const active = activeAuthMethods(state);
  if (m.type === 'EMAIL_OTP' && active.some((a) => a.type === 'EMAIL_OTP')) {
    throw invalid(
      'EMAIL_OTP_CREDENTIAL_ALREADY_EXISTS',
      'the account already has an EMAIL_OTP credential; remove it first',
      'type',
    );
  }
  if (m.type === 'PASSKEY' && active.some((a) => a.passkey?.credentialId === m.passkey.credentialId)) {
    throw invalid(
      'PASSKEY_CREDENTIAL_ALREADY_EXISTS',
      'this passkey credentialId is already registered',
      'attestation.credentialId',
    );
  }
  if (m.type === 'OAUTH' && active.some((a) => a.oauth?.iss === m.oauth.iss && a.oauth.sub === m.oauth.sub)) {
    throw invalid(
      'OAUTH_CREDENTIAL_ALREADY_EXISTS',
      'this provider identity is already a credential of the account',
      'oidcToken',
    );
  }
}

/** An account keeps at least one credential (400, not 401: no signature can make it allowed). */
export function assertNotLast(state: WalletAuthState, target: AuthMethodRecord): void {
  if (activeAuthMethods(state).every((a) => a.id === target.id)) {
    throw invalid(
      'LAST_CREDENTIAL',
      'an account must keep at least one credential; add another before revoking this one',
    );
  }
}

export function requireSessionToRefresh(state: WalletAuthState, sessionId: string, now: string): SessionRecord {
  const s = requireSession(state, sessionId);
  if (s.revokedAt !== undefined) throw unauthorized('the session was revoked');
  if (!isSessionActive(s, now)) throw sessionExpired('the session has expired; verify the credential again');
  return s;
}

export function requireSessionToRevoke(state: WalletAuthState, sessionId: string, now: string): SessionRecord {
  const s = requireSession(state, sessionId);
  if (!isSessionActive(s, now)) throw conflict('INVALID_STATE_TRANSITION', `session ${sessionId} is no longer active`);
  return s;
}

export function normalizedSessionKey(publicKey: string): string {
  if (!COMPRESSED_KEY.test(publicKey))
    throw invalid('INVALID_INPUT', 'a session public key is a compressed P-256 key in hex', 'publicKey');
  return publicKey.toLowerCase();
}

/** Step-1 checks per intent, the same ones step 2 repeats; returns the `type` of the 202 body. */
export function challengePreconditions(
  state: WalletAuthState,
  cmd: Extract<WalletAuthCommand, { type: 'IssueSignedRetryChallenge' }>,
): AuthMethodType | undefined {
  switch (cmd.intent) {
    case 'ADD_AUTH_METHOD':
      if (cmd.targetId !== state.accountId)
        throw invalid('INVALID_INPUT', 'a credential is added to the account itself', 'accountId');
      if (!cmd.authMethodType) throw invalid('INVALID_INPUT', 'the credential type is required', 'type');
      if (cmd.authMethod) assertCanAdd(state, cmd.authMethod);
      return cmd.authMethodType;
    case 'REVOKE_AUTH_METHOD': {
      const target = requireAuthMethod(state, cmd.targetId);
      assertNotLast(state, target);
      return target.type;
    }
    case 'REVOKE_SESSION':
      return state.authMethods.get(requireSessionToRevoke(state, cmd.targetId, cmd.now).authMethodId)?.type;
    case 'REFRESH_SESSION':
      return state.authMethods.get(requireSessionToRefresh(state, cmd.targetId, cmd.now).authMethodId)?.type;
    case 'EXTERNAL':
      return cmd.authMethodType;
  }
}

export function rateLimitOtp(state: WalletAuthState, now: string): void {
  const at = ms(now);
  const recent = state.otpIssuedAt.map(ms).filter((t) => t > at - OTP_RATE_LIMIT.windowSeconds * 1000);
  const waits: number[] = [];
  const last = recent.at(-1);
  if (last !== undefined && at - last < OTP_RATE_LIMIT.minIntervalSeconds * 1000)
    waits.push(last + OTP_RATE_LIMIT.minIntervalSeconds * 1000 - at);
  if (recent.length >= OTP_RATE_LIMIT.maxPerWindow) {
    // The window frees a slot when the oldest counted issue leaves it.
    waits.push(recent[recent.length - OTP_RATE_LIMIT.maxPerWindow] + OTP_RATE_LIMIT.windowSeconds * 1000 - at);
  }
  if (waits.length > 0) {
    const retryAfterSeconds = Math.max(1, Math.ceil(Math.max(...waits) / 1000));
    throw new RateLimitedError(retryAfterSeconds, `too many OTP challenges; retry after ${retryAfterSeconds} seconds`);
  }
}

/** 429 once a credential took `maxFailures` wrong codes in the window, until the oldest of them leaves it. */
export function assertOtpNotLocked(state: WalletAuthState, authMethodId: string, now: string): void {
  const at = ms(now);
  const recent = (state.otpFailedAt.get(authMethodId) ?? [])
    .map(ms)
    .filter((t) => t > at - OTP_VERIFY_LIMIT.windowSeconds * 1000);
  if (recent.length < OTP_VERIFY_LIMIT.maxFailures) return;
  const freedAt = recent[recent.length - OTP_VERIFY_LIMIT.maxFailures] + OTP_VERIFY_LIMIT.windowSeconds * 1000;
  const retryAfterSeconds = Math.max(1, Math.ceil((freedAt - at) / 1000));
  throw new RateLimitedError(
    retryAfterSeconds,
    `too many wrong OTP codes; verification is locked, retry after ${retryAfterSeconds} seconds`,
  );
}

export function sessionProofEvents(
  state: Provisioned,
  method: AuthMethodRecord,
  proof: SessionProof,
  now: string,
): WalletAuthEvent[] {
  if (proof.type !== method.type)
    throw invalid('INVALID_INPUT', `credential ${method.id} is of type ${method.type}`, 'type');
  if (proof.type === 'EMAIL_OTP') assertOtpNotLocked(state, method.id, now);
  if (proof.type === 'OAUTH') {
    for (const claim of ['iss', 'aud', 'sub'] as const) {
      if (proof.oauth[claim] !== method.oauth?.[claim])
        throw unauthorized(`OIDC token ${claim} does not match the credential`);
    }
    return [];
  }
  if (proof.type === 'PASSKEY') {
    const challenge = state.passkeyChallenges.get(proof.requestId);
    if (!challenge || challenge.authMethodId !== method.id)
      throw unauthorized('requestId is not a passkey challenge of this credential');
    if (challenge.consumedAt !== undefined) throw unauthorized('the passkey challenge was already used');
    if (ms(challenge.expiresAt) <= ms(now)) throw challengeExpired('the passkey challenge has expired');
    if (proof.credentialId !== method.passkey?.credentialId) throw unauthorized('the assertion is for another passkey');
    const stored = method.passkey.counter;
    if ((proof.newCounter > 0 || stored > 0) && proof.newCounter <= stored)
      throw unauthorized('the authenticator counter did not increase');
    const scope = { accountId: state.accountId, platformId: state.platformId };
    return [
      {
        type: 'PasskeyChallengeConsumed',
        data: {
          ...scope,
          authMethodId: method.id,
          requestId: proof.requestId,
          counter: proof.newCounter,
          consumedAt: now,
        },
      },
    ];
  }
  return [];
}

export function addAuthMethodEvent(
  scope: { accountId: string; platformId: string },
  id: string,
  m: NewAuthMethod,
  now: string,
): WalletAuthEvent {
  const base = { ...scope, authMethodId: id, authMethodType: m.type, createdAt: now };
  if (m.type === 'EMAIL_OTP') return { type: 'AuthMethodAdded', data: { ...base, nickname: m.email } };
  if (m.type === 'PASSKEY')
    return { type: 'AuthMethodAdded', data: { ...base, nickname: m.nickname, passkey: { ...m.passkey } } };
  return { type: 'AuthMethodAdded', data: { ...base, nickname: m.nickname, oauth: { ...m.oauth } } };
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
