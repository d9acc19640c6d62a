import { unreachable, type Decider } from '../decider.js';
import { conflict, invalid } from '../errors.js';
import { assertRequestUsable, consumeSignedRetry, decideSignedRetry, evolveSignedRetries } from './signed-retry.js';
import {
  RateLimitedError,
  addAuthMethodEvent,
  assertCanAdd,
  assertNotLast,
  decideAddAuthMethod,
  decideCredentials,
  evolveCredentialChallenges,
  evolveCredentials,
} from './wallet-credentials.js';
import { decideSessions, evolveSessions, requireSessionToRefresh, requireSessionToRevoke } from './wallet-sessions.js';
import {
  initialWalletAuthState,
  requireAuthMethod,
  requireProvisioned,
  scopeOf,
  type AuthMethodType,
  type Provisioned,
  type WalletAuthEvent,
  type WalletAuthState,
} from './wallet-auth-state.js';
import { walletAuthSnapshot } from './wallet-auth-snapshot.js';
import type { CommandOf, NewAuthMethod, SessionProof, WalletAuthCommand } from './wallet-auth-commands.js';

/**
 * The embedded wallet's decider (stream `wallet-<account uuid>`): provisioning and settings here; credentials in
 * `wallet-credentials.ts`, sessions in `wallet-sessions.ts`, signed retries in `signed-retry.ts`, each decided and
 * folded there; the state and its lookups in `wallet-auth-state.ts`.
 */

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
      return decideSignedRetry(cmd, requireProvisioned(state), challengePreconditions);
    case 'IssueSession':
    case 'RefreshSession':
    case 'RevokeSession':
      return decideSessions(cmd, requireProvisioned(state));
    default:
      return unreachable(cmd);
  }
}

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

/** Step-1 checks per intent, the same ones step 2 repeats; returns the `type` of the 202 body. */
function challengePreconditions(
  state: Provisioned,
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

/**
 * A wallet stream folded. Settings are new values after each event; the credentials, sessions and challenges (a day's
 * worth of them may be tens of thousands) are updated in place (see Decider), as copying them for every event would
 * make folding a busy wallet's stream quadratic.
 */
export function evolveWalletAuth(state: WalletAuthState, event: WalletAuthEvent): WalletAuthState {
  switch (event.type) {
    case 'WalletProvisioned': {
      const { accountId, platformId, customerId, encryptedSeed } = event.data;
      return {
        ...state,
        provisioned: true,
        accountId,
        platformId,
        customerId,
        ...(encryptedSeed ? { encryptedSeed } : {}),
      };
    }
    case 'WalletPrivacyChanged':
      return { ...state, privateEnabled: event.data.privateEnabled };
    case 'WalletExported':
      return state;
    case 'AuthMethodAdded':
    case 'AuthMethodUpdated':
    case 'AuthMethodRevoked':
      return evolveCredentials(state, event);
    case 'OtpChallengeIssued':
    case 'OtpVerificationFailed':
    case 'PasskeyChallengeIssued':
    case 'PasskeyChallengeConsumed':
      return evolveCredentialChallenges(state, event);
    case 'SignedRetryChallengeIssued':
    case 'SignedRetryConsumed':
      return evolveSignedRetries(state, event);
    case 'SessionIssued':
    case 'SessionRefreshed':
    case 'SessionRevoked':
      return evolveSessions(state, event);
    default:
      return unreachable(event);
  }
}

export const walletAuthDecider: Decider<WalletAuthState, WalletAuthCommand, WalletAuthEvent> = {
  initialState: initialWalletAuthState,
  evolve: evolveWalletAuth,
  decide: decideWalletAuth,
  snapshot: walletAuthSnapshot,
};
