import { unreachable, type Decider } from '../decider.js';
import { conflict, invalid } from '../errors.js';
import {
  assertRequestUsable,
  authorizeSignedRetry,
  buildPayloadToSign,
  operationOf,
  unauthorized,
} from './signed-retry.js';
import {
  activeAuthMethods,
  initialWalletAuthState,
  isSessionActive,
  type WalletAuthEvent,
  type WalletAuthState,
} from './wallet-auth-state.js';
import { walletAuthSnapshot } from './wallet-auth-snapshot.js';
import { evolveWalletAuth } from './wallet-auth-evolve.js';

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
  type Provisioned,
} from './wallet-auth-rules.js';

export type { NewAuthMethod, SessionProof, WalletAuthCommand };
export { RateLimitedError };

export function decideWalletAuth(cmd: WalletAuthCommand, state: WalletAuthState): WalletAuthEvent[] {
  // ConsumeSignedRetry checks nothing else first, and may resume a consumed request (see authorizeSignedRetry).
  if ('signedRetry' in cmd && cmd.type !== 'ConsumeSignedRetry') assertRequestUsable(state, cmd.signedRetry);
  switch (cmd.type) {
    case 'ProvisionWallet':
      return decideProvision(cmd, state);
    case 'AddAuthMethod':
      return decideAddAuthMethod(cmd, state);
    case 'SetPrivateEnabled':
    case 'ExportWallet':
      return decideWalletSettings(cmd, requireProvisioned(state));
    case 'UpdateEmailOtpAddress':
    case 'RevokeAuthMethod':
    case 'RecordOtpChallenge':
    case 'RecordOtpFailure':
    case 'IssuePasskeyChallenge':
      return decideCredentials(cmd, requireProvisioned(state));
    case 'IssueSignedRetryChallenge':
    case 'ConsumeSignedRetry':
      return decideSignedRetry(cmd, requireProvisioned(state));
    case 'IssueSession':
    case 'RefreshSession':
    case 'RevokeSession':
      return decideSessions(cmd, requireProvisioned(state));
    default:
      return unreachable(cmd);
  }
}

type CommandOf<T extends WalletAuthCommand['type']> = Extract<WalletAuthCommand, { type: T }>;

const scopeOf = (state: Provisioned) => ({ accountId: state.accountId, platformId: state.platformId });

function decideProvision(cmd: CommandOf<'ProvisionWallet'>, state: WalletAuthState): WalletAuthEvent[] {
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

/** A credential may be added before the wallet is provisioned (it is then, with it); once it has one, signed. */
function decideAddAuthMethod(cmd: CommandOf<'AddAuthMethod'>, state: WalletAuthState): WalletAuthEvent[] {
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

function decideWalletSettings(
  cmd: CommandOf<'SetPrivateEnabled' | 'ExportWallet'>,
  state: Provisioned,
): WalletAuthEvent[] {
  const scope = scopeOf(state);
  if (cmd.type === 'SetPrivateEnabled') {
    const { consumption } = consumeSignedRetry(state, scope, cmd, { intent: 'EXTERNAL', targetId: state.accountId });
    const events: WalletAuthEvent[] = [consumption];
    if (cmd.privateEnabled !== state.privateEnabled)
      events.push({
        type: 'WalletPrivacyChanged',
        data: { ...scope, privateEnabled: cmd.privateEnabled, updatedAt: cmd.now },
      });
    return events;
  }
  if (!state.encryptedSeed)
    throw conflict('WALLET_SEED_MISSING', `the wallet of ${state.accountId} has no seed to export`);
  const { session, consumption } = consumeSignedRetry(state, scope, cmd, {
    intent: 'EXTERNAL',
    targetId: state.accountId,
  });
  return [
    consumption,
    { type: 'WalletExported', data: { ...scope, exportId: cmd.exportId, sessionId: session.id, exportedAt: cmd.now } },
  ];
}

function decideCredentials(
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

function decideSignedRetry(
  cmd: CommandOf<'IssueSignedRetryChallenge' | 'ConsumeSignedRetry'>,
  state: Provisioned,
): WalletAuthEvent[] {
  const scope = scopeOf(state);
  if (cmd.type === 'ConsumeSignedRetry') {
    const expected = { intent: 'EXTERNAL' as const, targetId: cmd.targetId, authorizes: cmd.authorizes };
    const { challenge, session, resumed } = authorizeSignedRetry(state, cmd.signedRetry, expected, cmd.now);
    return resumed ? [] : [consumed(scope, challenge.requestId, session.id, cmd.now, cmd.authorizes)];
  }
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

function decideSessions(
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

export const walletAuthDecider: Decider<WalletAuthState, WalletAuthCommand, WalletAuthEvent> = {
  initialState: initialWalletAuthState,
  evolve: evolveWalletAuth,
  decide: decideWalletAuth,
  snapshot: walletAuthSnapshot,
};
