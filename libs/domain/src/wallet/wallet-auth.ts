import type { Decider } from '../decider.js';
import { conflict, invalid } from '../errors.js';
import { buildPayloadToSign, operationOf } from './payload.js';
import { assertRequestUsable, authorizeSignedRetry, unauthorized } from './signed-retry.js';
import {
  activeAuthMethods,
  evolveWalletAuth,
  initialWalletAuthState,
  isSessionActive,
  type WalletAuthEvent,
  type WalletAuthState,
} from './wallet-auth-state.js';
import { walletAuthSnapshot } from './wallet-auth-snapshot.js';

import type { NewAuthMethod, SessionProof, WalletAuthCommand } from './wallet-auth-commands.js';
import {
  RateLimitedError,
  UNCOMPRESSED_KEY,
  requireProvisioned,
  requireAuthMethod,
  requireAuthMethodOfType,
  consumeSignedRetry,
  requireFuture,
  assertCanAdd,
  assertNotLast,
  requireSessionToRefresh,
  requireSessionToRevoke,
  normalizedSessionKey,
  challengePreconditions,
  rateLimitOtp,
  assertOtpNotLocked,
  sessionProofEvents,
  addAuthMethodEvent,
  consumed,
} from './wallet-auth-rules.js';

export type { NewAuthMethod, SessionProof, WalletAuthCommand };
export { RateLimitedError };

// eslint-disable-next-line max-lines-per-function -- 205 lines, to be split
export function decideWalletAuth(cmd: WalletAuthCommand, state: WalletAuthState): WalletAuthEvent[] {
  // ConsumeSignedRetry checks nothing else first, and may resume a consumed request (see authorizeSignedRetry).
  if ('signedRetry' in cmd && cmd.type !== 'ConsumeSignedRetry') assertRequestUsable(state, cmd.signedRetry);
  if (cmd.type === 'ProvisionWallet') {
    if (state.provisioned)
      throw conflict('WALLET_ALREADY_PROVISIONED', `the wallet of ${cmd.accountId} is already provisioned`);
    const scope = { accountId: cmd.accountId, platformId: cmd.platformId };
    const provisioned = {
      ...scope,
      ...(cmd.customerId ? { customerId: cmd.customerId } : {}),
      ...(cmd.encryptedSeed ? { encryptedSeed: cmd.encryptedSeed } : {}),
      provisionedAt: cmd.now,
    };
    const events: WalletAuthEvent[] = [{ type: 'WalletProvisioned', data: provisioned }];
    if (cmd.emailOtp)
      events.push(
        addAuthMethodEvent(scope, cmd.emailOtp.authMethodId, { type: 'EMAIL_OTP', email: cmd.emailOtp.email }, cmd.now),
      );
    return events;
  }
  if (cmd.type === 'AddAuthMethod') {
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

  requireProvisioned(state);
  const scope = { accountId: state.accountId, platformId: state.platformId };
  switch (cmd.type) {
    case 'UpdateEmailOtpAddress': {
      const m = activeAuthMethods(state).find((a) => a.type === 'EMAIL_OTP');
      if (!m || m.nickname === cmd.email) return [];
      return [
        { type: 'AuthMethodUpdated', data: { ...scope, authMethodId: m.id, nickname: cmd.email, updatedAt: cmd.now } },
      ];
    }
    case 'RevokeAuthMethod': {
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
    case 'IssueSignedRetryChallenge': {
      requireFuture(cmd.expiresAt, cmd.now);
      if (state.signedRetries.has(cmd.requestId)) throw conflict('CONFLICT', `request ${cmd.requestId} already exists`);
      const authMethodType = challengePreconditions(state, cmd);
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
    case 'ConsumeSignedRetry': {
      const expected = { intent: 'EXTERNAL' as const, targetId: cmd.targetId, authorizes: cmd.authorizes };
      const { challenge, session, resumed } = authorizeSignedRetry(state, cmd.signedRetry, expected, cmd.now);
      return resumed ? [] : [consumed(scope, challenge.requestId, session.id, cmd.now, cmd.authorizes)];
    }
    case 'IssueSession': {
      const method = requireAuthMethod(state, cmd.authMethodId);
      if (state.sessions.has(cmd.sessionId)) throw conflict('CONFLICT', `session ${cmd.sessionId} already exists`);
      const publicKey = normalizedSessionKey(cmd.publicKey);
      requireFuture(cmd.expiresAt, cmd.now);
      const proofEvents = sessionProofEvents(state, method, cmd.proof, cmd.now);
      return [
        ...proofEvents,
        {
          type: 'SessionIssued',
          data: {
            ...scope,
            sessionId: cmd.sessionId,
            authMethodId: method.id,
            publicKey,
            createdAt: cmd.now,
            expiresAt: cmd.expiresAt,
          },
        },
      ];
    }
    case 'RefreshSession': {
      const target = requireSessionToRefresh(state, cmd.sessionId, cmd.now);
      const publicKey = normalizedSessionKey(cmd.publicKey);
      requireFuture(cmd.expiresAt, cmd.now);
      const { consumption } = consumeSignedRetry(state, scope, cmd, { intent: 'REFRESH_SESSION', targetId: target.id });
      return [
        consumption,
        {
          type: 'SessionRefreshed',
          data: { ...scope, sessionId: target.id, publicKey, refreshedAt: cmd.now, expiresAt: cmd.expiresAt },
        },
      ];
    }
    case 'RevokeSession': {
      const target = requireSessionToRevoke(state, cmd.sessionId, cmd.now);
      const { consumption } = consumeSignedRetry(state, scope, cmd, { intent: 'REVOKE_SESSION', targetId: target.id });
      return [
        consumption,
        { type: 'SessionRevoked', data: { ...scope, sessionId: target.id, revokedAt: cmd.now, cause: 'REQUESTED' } },
      ];
    }
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
    case 'IssuePasskeyChallenge': {
      const method = requireAuthMethodOfType(state, cmd.authMethodId, 'PASSKEY');
      if (!UNCOMPRESSED_KEY.test(cmd.clientPublicKey))
        throw invalid('INVALID_INPUT', 'clientPublicKey must be 04 followed by 128 hex characters', 'clientPublicKey');
      if (state.passkeyChallenges.has(cmd.requestId))
        throw conflict('CONFLICT', `request ${cmd.requestId} already exists`);
      requireFuture(cmd.expiresAt, cmd.now);
      return [
        {
          type: 'PasskeyChallengeIssued',
          data: {
            ...scope,
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
    case 'SetPrivateEnabled': {
      const { consumption } = consumeSignedRetry(state, scope, cmd, { intent: 'EXTERNAL', targetId: state.accountId });
      const events: WalletAuthEvent[] = [consumption];
      if (cmd.privateEnabled !== state.privateEnabled)
        events.push({
          type: 'WalletPrivacyChanged',
          data: { ...scope, privateEnabled: cmd.privateEnabled, updatedAt: cmd.now },
        });
      return events;
    }
    case 'ExportWallet': {
      if (!state.encryptedSeed)
        throw conflict('WALLET_SEED_MISSING', `the wallet of ${state.accountId} has no seed to export`);
      const { session, consumption } = consumeSignedRetry(state, scope, cmd, {
        intent: 'EXTERNAL',
        targetId: state.accountId,
      });
      return [
        consumption,
        {
          type: 'WalletExported',
          data: { ...scope, exportId: cmd.exportId, sessionId: session.id, exportedAt: cmd.now },
        },
      ];
    }
  }
}

export const walletAuthDecider: Decider<WalletAuthState, WalletAuthCommand, WalletAuthEvent> = {
  initialState: initialWalletAuthState,
  evolve: evolveWalletAuth,
  decide: decideWalletAuth,
  snapshot: walletAuthSnapshot,
};
