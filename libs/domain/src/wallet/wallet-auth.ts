import type { Decider } from '../decider.js';
import { DomainError, conflict, invalid, notFound } from '../errors.js';
import { buildPayloadToSign, operationOf } from './payload.js';
import {
  assertRequestUsable,
  authorizeSignedRetry,
  challengeExpired,
  sessionExpired,
  unauthorized,
  type SignedRetryProof,
} from './signed-retry.js';
import {
  OTP_RATE_LIMIT,
  OTP_VERIFY_LIMIT,
  activeAuthMethods,
  evolveWalletAuth,
  initialWalletAuthState,
  isAuthMethodActive,
  isSessionActive,
  type AuthMethodRecord,
  type AuthMethodType,
  type OAuthIdentity,
  type PasskeyPublicKey,
  type SessionRecord,
  type SignedChange,
  type SignedRetryIntent,
  type WalletAuthEvent,
  type WalletAuthState,
} from './wallet-auth-state.js';

export type NewAuthMethod =
  | { type: 'EMAIL_OTP'; email: string }
  | { type: 'PASSKEY'; nickname: string; passkey: PasskeyPublicKey }
  | { type: 'OAUTH'; nickname: string; oauth: OAuthIdentity };

/** What the edge established before asking for a session; the OTP code itself never gets here. */
export type SessionProof =
  | { type: 'EMAIL_OTP' }
  | { type: 'OAUTH'; oauth: OAuthIdentity }
  | { type: 'PASSKEY'; requestId: string; credentialId: string; newCounter: number };

export type WalletAuthCommand =
  | {
      type: 'ProvisionWallet';
      accountId: string;
      platformId: string;
      customerId?: string;
      emailOtp?: { authMethodId: string; email: string };
      /** The wallet seed sealed at rest by the application (opaque here). */
      encryptedSeed?: string;
      now: string;
    }
  | {
      type: 'AddAuthMethod';
      accountId: string;
      platformId: string;
      authMethodId: string;
      authMethod: NewAuthMethod;
      signedRetry?: SignedRetryProof;
      now: string;
    }
  | { type: 'UpdateEmailOtpAddress'; email: string; now: string }
  | { type: 'RevokeAuthMethod'; authMethodId: string; signedRetry?: SignedRetryProof; now: string }
  | {
      type: 'IssueSignedRetryChallenge';
      requestId: string;
      intent: SignedRetryIntent;
      method: string;
      path: string;
      targetId: string;
      body: Record<string, unknown>;
      expiresAt: string;
      /** Required for ADD_AUTH_METHOD (the type being added); optional for EXTERNAL. */
      authMethodType?: AuthMethodType;
      /** For ADD_AUTH_METHOD, lets uniqueness rules refuse before anything is signed. */
      authMethod?: NewAuthMethod;
      now: string;
    }
  /**
   * A signed operation whose change is appended elsewhere. With `authorizes` (the target stream and
   * change), an identical retry of a consumed requestId is allowed again and emits nothing: the
   * target stream decides whether the change is still missing (see authorizeSignedRetry).
   */
  | {
      type: 'ConsumeSignedRetry';
      targetId: string;
      authorizes?: SignedChange;
      signedRetry?: SignedRetryProof;
      now: string;
    }
  | {
      type: 'IssueSession';
      sessionId: string;
      authMethodId: string;
      publicKey: string;
      expiresAt: string;
      proof: SessionProof;
      now: string;
    }
  | {
      type: 'RefreshSession';
      sessionId: string;
      publicKey: string;
      expiresAt: string;
      signedRetry?: SignedRetryProof;
      now: string;
    }
  | { type: 'RevokeSession'; sessionId: string; signedRetry?: SignedRetryProof; now: string }
  | { type: 'RecordOtpChallenge'; authMethodId: string; now: string }
  /** A wrong EMAIL_OTP code: counted durably so the lockout holds across restarts and instances. */
  | { type: 'RecordOtpFailure'; authMethodId: string; now: string }
  | {
      type: 'IssuePasskeyChallenge';
      authMethodId: string;
      requestId: string;
      challenge: string;
      clientPublicKey: string;
      expiresAt: string;
      now: string;
    }
  /** PATCH /internal-accounts/{id}: a signed retry on the account itself (intent EXTERNAL, target the account). */
  | { type: 'SetPrivateEnabled'; privateEnabled: boolean; signedRetry?: SignedRetryProof; now: string }
  /** POST /internal-accounts/{id}/export: records who exported the seed; the sealing happens in the application. */
  | { type: 'ExportWallet'; exportId: string; signedRetry?: SignedRetryProof; now: string };

/** 429 with `Retry-After`: the edge maps this subclass before the kind-based mapping. */
export class RateLimitedError extends DomainError {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super('rate_limited', 'RATE_LIMITED', message, { retryAfterSeconds });
  }
}

const COMPRESSED_KEY = /^0[23][0-9a-fA-F]{64}$/;
const UNCOMPRESSED_KEY = /^04[0-9a-fA-F]{128}$/;
const ms = (iso: string) => Date.parse(iso);

type Provisioned = WalletAuthState & { accountId: string; platformId: string };

function requireProvisioned(state: WalletAuthState): asserts state is Provisioned {
  if (!state.provisioned) throw notFound('INTERNAL_ACCOUNT', state.accountId ?? 'unknown');
}

function requireAuthMethod(state: WalletAuthState, id: string): AuthMethodRecord {
  const m = state.authMethods.get(id);
  if (!isAuthMethodActive(m)) throw notFound('AUTH_METHOD', id);
  return m;
}

function requireSession(state: WalletAuthState, id: string): SessionRecord {
  const s = state.sessions.get(id);
  if (!s) throw notFound('SESSION', id);
  return s;
}

function requireFuture(expiresAt: string, now: string, field = 'expiresAt'): void {
  if (!(ms(expiresAt) > ms(now))) throw invalid('INVALID_INPUT', `${field} must be later than now`, field);
}

function assertCanAdd(state: WalletAuthState, m: NewAuthMethod): void {
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
function assertNotLast(state: WalletAuthState, target: AuthMethodRecord): void {
  if (activeAuthMethods(state).every((a) => a.id === target.id)) {
    throw invalid(
      'LAST_CREDENTIAL',
      'an account must keep at least one credential; add another before revoking this one',
    );
  }
}

function requireSessionToRefresh(state: WalletAuthState, sessionId: string, now: string): SessionRecord {
  const s = requireSession(state, sessionId);
  if (s.revokedAt !== undefined) throw unauthorized('the session was revoked');
  if (!isSessionActive(s, now)) throw sessionExpired('the session has expired; verify the credential again');
  return s;
}

function requireSessionToRevoke(state: WalletAuthState, sessionId: string, now: string): SessionRecord {
  const s = requireSession(state, sessionId);
  if (!isSessionActive(s, now)) throw conflict('INVALID_STATE_TRANSITION', `session ${sessionId} is no longer active`);
  return s;
}

function normalizedSessionKey(publicKey: string): string {
  if (!COMPRESSED_KEY.test(publicKey))
    throw invalid('INVALID_INPUT', 'a session public key is a compressed P-256 key in hex', 'publicKey');
  return publicKey.toLowerCase();
}

/** Step-1 checks per intent, the same ones step 2 repeats; returns the `type` of the 202 body. */
function challengePreconditions(
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

function rateLimitOtp(state: WalletAuthState, now: string): void {
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
function assertOtpNotLocked(state: WalletAuthState, authMethodId: string, now: string): void {
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

function sessionProofEvents(
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

function addAuthMethodEvent(
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

function consumed(
  scope: { accountId: string; platformId: string },
  requestId: string,
  sessionId: string,
  now: string,
  authorizes?: SignedChange,
): WalletAuthEvent {
  const data = { ...scope, requestId, sessionId, consumedAt: now, ...(authorizes ? { authorizes } : {}) };
  return { type: 'SignedRetryConsumed', data };
}

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
      const { challenge, session } = authorizeSignedRetry(
        state,
        cmd.signedRetry,
        { intent: 'ADD_AUTH_METHOD', targetId: scope.accountId },
        cmd.now,
      );
      events.push(consumed(scope, challenge.requestId, session.id, cmd.now));
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
      const { challenge, session } = authorizeSignedRetry(
        state,
        cmd.signedRetry,
        { intent: 'REVOKE_AUTH_METHOD', targetId: target.id },
        cmd.now,
      );
      if (session.authMethodId === target.id)
        throw unauthorized('the stamp must come from a session of a different credential');
      const endedSessions: WalletAuthEvent[] = [...state.sessions.values()]
        .filter((s) => s.authMethodId === target.id && isSessionActive(s, cmd.now))
        .map((s) => ({
          type: 'SessionRevoked',
          data: { ...scope, sessionId: s.id, revokedAt: cmd.now, cause: 'CREDENTIAL_REVOKED' },
        }));
      return [
        consumed(scope, challenge.requestId, session.id, cmd.now),
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
      const { challenge, session } = authorizeSignedRetry(
        state,
        cmd.signedRetry,
        { intent: 'REFRESH_SESSION', targetId: target.id },
        cmd.now,
      );
      return [
        consumed(scope, challenge.requestId, session.id, cmd.now),
        {
          type: 'SessionRefreshed',
          data: { ...scope, sessionId: target.id, publicKey, refreshedAt: cmd.now, expiresAt: cmd.expiresAt },
        },
      ];
    }
    case 'RevokeSession': {
      const target = requireSessionToRevoke(state, cmd.sessionId, cmd.now);
      const { challenge, session } = authorizeSignedRetry(
        state,
        cmd.signedRetry,
        { intent: 'REVOKE_SESSION', targetId: target.id },
        cmd.now,
      );
      return [
        consumed(scope, challenge.requestId, session.id, cmd.now),
        { type: 'SessionRevoked', data: { ...scope, sessionId: target.id, revokedAt: cmd.now, cause: 'REQUESTED' } },
      ];
    }
    case 'RecordOtpChallenge': {
      const method = requireAuthMethod(state, cmd.authMethodId);
      if (method.type !== 'EMAIL_OTP')
        throw invalid('INVALID_INPUT', `credential ${method.id} is not an EMAIL_OTP credential`);
      rateLimitOtp(state, cmd.now);
      return [{ type: 'OtpChallengeIssued', data: { ...scope, authMethodId: method.id, issuedAt: cmd.now } }];
    }
    case 'RecordOtpFailure': {
      const method = requireAuthMethod(state, cmd.authMethodId);
      if (method.type !== 'EMAIL_OTP')
        throw invalid('INVALID_INPUT', `credential ${method.id} is not an EMAIL_OTP credential`);
      assertOtpNotLocked(state, method.id, cmd.now);
      return [{ type: 'OtpVerificationFailed', data: { ...scope, authMethodId: method.id, failedAt: cmd.now } }];
    }
    case 'IssuePasskeyChallenge': {
      const method = requireAuthMethod(state, cmd.authMethodId);
      if (method.type !== 'PASSKEY')
        throw invalid('INVALID_INPUT', `credential ${method.id} is not a PASSKEY credential`);
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
      const { challenge, session } = authorizeSignedRetry(
        state,
        cmd.signedRetry,
        { intent: 'EXTERNAL', targetId: state.accountId },
        cmd.now,
      );
      const events: WalletAuthEvent[] = [consumed(scope, challenge.requestId, session.id, cmd.now)];
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
      const { challenge, session } = authorizeSignedRetry(
        state,
        cmd.signedRetry,
        { intent: 'EXTERNAL', targetId: state.accountId },
        cmd.now,
      );
      return [
        consumed(scope, challenge.requestId, session.id, cmd.now),
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
};
