import { unreachable } from '../decider.js';
import { DomainError, conflict, invalid } from '../errors.js';
import { consumeSignedRetry, unauthorized } from './signed-retry.js';
import {
  OTP_RATE_LIMIT,
  OTP_VERIFY_LIMIT,
  activeAuthMethods,
  amend,
  isSessionActive,
  ms,
  prune,
  requireAuthMethod,
  requireAuthMethodOfType,
  requireFuture,
  scopeOf,
  type AuthMethodRecord,
  type Provisioned,
  type EventOf,
  type WalletAuthEvent,
  type WalletAuthState,
} from './wallet-auth-state.js';
import type { CommandOf, NewAuthMethod } from './wallet-auth-commands.js';

/**
 * The wallet's credentials (email OTP, passkeys, OIDC identities): adding and revoking them, the OTP's limits, the
 * passkey challenges a session answers; decided and folded.
 */

/** 429 with `Retry-After`: the edge maps this subclass before the kind-based mapping. */
export class RateLimitedError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super('rate_limited', 'RATE_LIMITED', message, { retryAfterSeconds });
  }
}

export const UNCOMPRESSED_KEY = /^04[0-9a-fA-F]{128}$/;

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

/** A credential may be added before the wallet is provisioned (it is then, with it); once it has one, signed. */
export function decideAddAuthMethod(cmd: CommandOf<'AddAuthMethod'>, state: WalletAuthState): WalletAuthEvent[] {
  const scope = { accountId: state.accountId ?? cmd.accountId, platformId: state.platformId ?? cmd.platformId };
  if (state.authMethods.has(cmd.authMethodId))
    throw conflict('CONFLICT', `auth method ${cmd.authMethodId} already exists`);
  const events: WalletAuthEvent[] = state.provisioned
    ? []
    : [{ type: 'WalletProvisioned', data: { ...scope, provisionedAt: cmd.now } }];
  if (activeAuthMethods(state).length > 0) {
    const { consumption } = consumeSignedRetry(state, scope, cmd, {
      intent: 'ADD_AUTH_METHOD',
      targetId: scope.accountId,
    });
    events.push(consumption);
  }
  assertCanAdd(state, cmd.authMethod);
  return [...events, addAuthMethodEvent(scope, cmd.authMethodId, cmd.authMethod, cmd.now)];
}

export function decideCredentials(
  cmd: CommandOf<
    'UpdateEmailOtpAddress' | 'RevokeAuthMethod' | 'RecordOtpChallenge' | 'RecordOtpFailure' | 'IssuePasskeyChallenge'
  >,
  state: Provisioned,
): WalletAuthEvent[] {
  const scope = scopeOf(state);
  switch (cmd.type) {
    case 'UpdateEmailOtpAddress': {
      const m = activeAuthMethods(state).find((a) => a.type === 'EMAIL_OTP');
      if (!m || m.nickname === cmd.email) return [];
      const data = { ...scope, authMethodId: m.id, nickname: cmd.email, updatedAt: cmd.now };
      return [{ type: 'AuthMethodUpdated', data }];
    }
    case 'RevokeAuthMethod':
      return decideRevokeAuthMethod(cmd, state);
    case 'RecordOtpChallenge': {
      const method = requireAuthMethodOfType(state, cmd.authMethodId, 'EMAIL_OTP');
      rateLimitOtp(state, cmd.now);
      return [{ type: 'OtpChallengeIssued', data: { ...scope, authMethodId: method.id, issuedAt: cmd.now } }];
    }
    case 'RecordOtpFailure': {
      const method = requireAuthMethodOfType(state, cmd.authMethodId, 'EMAIL_OTP');
      assertOtpNotLocked(state, method.id, cmd.now);
      return [{ type: 'OtpVerificationFailed', data: { ...scope, authMethodId: method.id, failedAt: cmd.now } }];
    }
    case 'IssuePasskeyChallenge':
      return decidePasskeyChallenge(cmd, state);
    default:
      return unreachable(cmd);
  }
}

function decideRevokeAuthMethod(cmd: CommandOf<'RevokeAuthMethod'>, state: Provisioned): WalletAuthEvent[] {
  const scope = scopeOf(state);
  const target = requireAuthMethod(state, cmd.authMethodId);
  assertNotLast(state, target);
  const { session, consumption } = consumeSignedRetry(state, scope, cmd, {
    intent: 'REVOKE_AUTH_METHOD',
    targetId: target.id,
  });
  if (session.authMethodId === target.id)
    throw unauthorized('the stamp must come from a session of a different credential');
  const endedSessions: WalletAuthEvent[] = [...state.sessions.values()]
    .filter((s) => s.authMethodId === target.id && isSessionActive(s, cmd.now))
    .map((s) => ({
      type: 'SessionRevoked',
      data: { ...scope, sessionId: s.id, revokedAt: cmd.now, cause: 'CREDENTIAL_REVOKED' },
    }));
  return [
    consumption,
    { type: 'AuthMethodRevoked', data: { ...scope, authMethodId: target.id, revokedAt: cmd.now } },
    ...endedSessions,
  ];
}

function decidePasskeyChallenge(cmd: CommandOf<'IssuePasskeyChallenge'>, state: Provisioned): WalletAuthEvent[] {
  const method = requireAuthMethodOfType(state, cmd.authMethodId, 'PASSKEY');
  if (!UNCOMPRESSED_KEY.test(cmd.clientPublicKey))
    throw invalid('INVALID_INPUT', 'clientPublicKey must be 04 followed by 128 hex characters', 'clientPublicKey');
  if (state.passkeyChallenges.has(cmd.requestId)) throw conflict('CONFLICT', `request ${cmd.requestId} already exists`);
  requireFuture(cmd.expiresAt, cmd.now);
  return [
    {
      type: 'PasskeyChallengeIssued',
      data: {
        ...scopeOf(state),
        authMethodId: method.id,
        requestId: cmd.requestId,
        challenge: cmd.challenge,
        clientPublicKey: cmd.clientPublicKey,
        issuedAt: cmd.now,
        expiresAt: cmd.expiresAt,
      },
    },
  ];
}

export function evolveCredentials(
  state: WalletAuthState,
  event: EventOf<'AuthMethodAdded' | 'AuthMethodUpdated' | 'AuthMethodRevoked'>,
): WalletAuthState {
  switch (event.type) {
    case 'AuthMethodAdded': {
      const d = event.data;
      state.authMethods.set(d.authMethodId, {
        id: d.authMethodId,
        type: d.authMethodType,
        nickname: d.nickname,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
        ...(d.passkey ? { passkey: { ...d.passkey } } : {}),
        ...(d.oauth ? { oauth: { ...d.oauth } } : {}),
      });
      return state;
    }
    case 'AuthMethodUpdated':
      amend(state.authMethods, event.data.authMethodId, {
        nickname: event.data.nickname,
        updatedAt: event.data.updatedAt,
      });
      return state;
    case 'AuthMethodRevoked':
      amend(state.authMethods, event.data.authMethodId, {
        revokedAt: event.data.revokedAt,
        updatedAt: event.data.revokedAt,
      });
      return state;
    default:
      return unreachable(event);
  }
}

/** The OTP emails and wrong codes counted against their limits, and the passkey challenges a session answers. */
export function evolveCredentialChallenges(
  state: WalletAuthState,
  event: EventOf<
    'OtpChallengeIssued' | 'OtpVerificationFailed' | 'PasskeyChallengeIssued' | 'PasskeyChallengeConsumed'
  >,
): WalletAuthState {
  switch (event.type) {
    case 'OtpChallengeIssued': {
      const since = ms(event.data.issuedAt) - OTP_RATE_LIMIT.windowSeconds * 1000;
      return { ...state, otpIssuedAt: [...state.otpIssuedAt.filter((t) => ms(t) > since), event.data.issuedAt] };
    }
    case 'OtpVerificationFailed': {
      const d = event.data;
      const since = ms(d.failedAt) - OTP_VERIFY_LIMIT.windowSeconds * 1000;
      state.otpFailedAt.set(d.authMethodId, [
        ...(state.otpFailedAt.get(d.authMethodId) ?? []).filter((t) => ms(t) > since),
        d.failedAt,
      ]);
      return state;
    }
    case 'PasskeyChallengeIssued': {
      const { requestId, authMethodId, challenge, clientPublicKey, issuedAt, expiresAt } = event.data;
      prune(state, issuedAt);
      state.passkeyChallenges.set(requestId, {
        requestId,
        authMethodId,
        challenge,
        clientPublicKey,
        issuedAt,
        expiresAt,
      });
      return state;
    }
    case 'PasskeyChallengeConsumed': {
      amend(state.passkeyChallenges, event.data.requestId, { consumedAt: event.data.consumedAt });
      const m = state.authMethods.get(event.data.authMethodId);
      if (m?.passkey) m.passkey = { ...m.passkey, counter: event.data.counter };
      return state;
    }
    default:
      return unreachable(event);
  }
}
