import { unreachable } from '../decider.js';
import { conflict, invalid } from '../errors.js';
import { challengeExpired, consumeSignedRetry, sessionExpired, unauthorized } from './signed-retry.js';
import { assertOtpNotLocked } from './wallet-credentials.js';
import {
  amend,
  isSessionActive,
  ms,
  prune,
  requireAuthMethod,
  requireFuture,
  requireSession,
  scopeOf,
  type AuthMethodRecord,
  type Provisioned,
  type SessionRecord,
  type EventOf,
  type WalletAuthEvent,
  type WalletAuthState,
} from './wallet-auth-state.js';
import type { CommandOf, SessionProof } from './wallet-auth-commands.js';

/** The wallet's sessions: opened by a credential's proof (OTP, OIDC token, passkey assertion), refreshed, revoked. */

export const COMPRESSED_KEY = /^0[23][0-9a-fA-F]{64}$/;

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

export function decideSessions(
  cmd: CommandOf<'IssueSession' | 'RefreshSession' | 'RevokeSession'>,
  state: Provisioned,
): WalletAuthEvent[] {
  const scope = scopeOf(state);
  switch (cmd.type) {
    case 'IssueSession': {
      const method = requireAuthMethod(state, cmd.authMethodId);
      if (state.sessions.has(cmd.sessionId)) throw conflict('CONFLICT', `session ${cmd.sessionId} already exists`);
      const publicKey = normalizedSessionKey(cmd.publicKey);
      requireFuture(cmd.expiresAt, cmd.now);
      const proofEvents = sessionProofEvents(state, method, cmd.proof, cmd.now);
      const { sessionId, expiresAt } = cmd;
      const issued = { ...scope, sessionId, authMethodId: method.id, publicKey, createdAt: cmd.now, expiresAt };
      return [...proofEvents, { type: 'SessionIssued', data: issued }];
    }
    case 'RefreshSession': {
      const target = requireSessionToRefresh(state, cmd.sessionId, cmd.now);
      const publicKey = normalizedSessionKey(cmd.publicKey);
      requireFuture(cmd.expiresAt, cmd.now);
      const { consumption } = consumeSignedRetry(state, scope, cmd, { intent: 'REFRESH_SESSION', targetId: target.id });
      const refreshed = { ...scope, sessionId: target.id, publicKey, refreshedAt: cmd.now, expiresAt: cmd.expiresAt };
      return [consumption, { type: 'SessionRefreshed', data: refreshed }];
    }
    case 'RevokeSession': {
      const target = requireSessionToRevoke(state, cmd.sessionId, cmd.now);
      const { consumption } = consumeSignedRetry(state, scope, cmd, { intent: 'REVOKE_SESSION', targetId: target.id });
      const revoked = { ...scope, sessionId: target.id, revokedAt: cmd.now, cause: 'REQUESTED' as const };
      return [consumption, { type: 'SessionRevoked', data: revoked }];
    }
    default:
      return unreachable(cmd);
  }
}

export function evolveSessions(
  state: WalletAuthState,
  event: EventOf<'SessionIssued' | 'SessionRefreshed' | 'SessionRevoked'>,
): WalletAuthState {
  switch (event.type) {
    case 'SessionIssued': {
      const { sessionId, authMethodId, publicKey, createdAt, expiresAt } = event.data;
      prune(state, createdAt);
      state.sessions.set(sessionId, {
        id: sessionId,
        authMethodId,
        publicKey,
        createdAt,
        updatedAt: createdAt,
        expiresAt,
      });
      // A successful verification starts the credential's wrong-code count afresh.
      state.otpFailedAt.delete(authMethodId);
      return state;
    }
    case 'SessionRefreshed': {
      const { sessionId, publicKey, expiresAt, refreshedAt } = event.data;
      amend(state.sessions, sessionId, { publicKey, expiresAt, updatedAt: refreshedAt });
      return state;
    }
    case 'SessionRevoked':
      amend(state.sessions, event.data.sessionId, { revokedAt: event.data.revokedAt, updatedAt: event.data.revokedAt });
      return state;
    default:
      return unreachable(event);
  }
}
