import { unreachable } from '../decider.js';
import {
  CHALLENGE_SWEEP_EVERY,
  OTP_RATE_LIMIT,
  OTP_VERIFY_LIMIT,
  type WalletAuthEvent,
  type WalletAuthState,
} from './wallet-auth-state.js';

const ms = (iso: string) => Date.parse(iso);

/** Ended sessions are dropped from the state this long after they ended. */
const ENDED_SESSION_RETENTION_MS = 24 * 3600 * 1000;
/** Expired challenges are kept this long, so a late retry hears CHALLENGE_EXPIRED rather than "unknown". */
const EXPIRED_CHALLENGE_RETENTION_MS = 24 * 3600 * 1000;

/** Changes the entry `id` of `entries` where the state still has it (pruning forgets old ones). */
function amend<T extends object>(entries: Map<string, T>, id: string, changes: Partial<T>): void {
  const entry = entries.get(id);
  if (entry) Object.assign(entry, changes);
}

const expiredFor = (c: { expiresAt: string }, now: number) => ms(c.expiresAt) + EXPIRED_CHALLENGE_RETENTION_MS <= now;

/**
 * Drops the challenges of `challenges` (a map in the order they were issued) that expired more than the retention ago.
 * Each kind of challenge has one lifetime and a platform's clock only moves forward, so they expire in the order they
 * were issued: a prune drops the oldest up to the first one that is kept, looking at the few it drops and one more
 * rather than at every challenge held (a wallet signing once a second holds about 86,000 within the retention); a
 * sweep looks at all of them.
 */
function pruneExpired(challenges: Map<string, { expiresAt: string }>, now: number, sweep: boolean): void {
  for (const [id, c] of challenges) {
    if (expiredFor(c, now)) challenges.delete(id);
    else if (!sweep) return;
  }
}

/** Old, ended entries no longer change any decision; pruning keeps the folded state small. */
function prune(state: WalletAuthState, at: string): void {
  const now = ms(at);
  const prunes = (state.prunesSinceSweep ?? 0) + 1;
  const sweep = prunes >= CHALLENGE_SWEEP_EVERY;
  state.prunesSinceSweep = sweep ? 0 : prunes;
  pruneExpired(state.signedRetries, now, sweep);
  pruneExpired(state.passkeyChallenges, now, sweep);
  for (const [id, s] of state.sessions) {
    const ended = Math.min(ms(s.expiresAt), s.revokedAt ? ms(s.revokedAt) : Infinity);
    if (ended + ENDED_SESSION_RETENTION_MS <= now) state.sessions.delete(id);
  }
}

type EventOf<T extends WalletAuthEvent['type']> = Extract<WalletAuthEvent, { type: T }>;

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

function evolveCredentials(
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
function evolveCredentialChallenges(
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

function evolveSignedRetries(
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

function evolveSessions(
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
