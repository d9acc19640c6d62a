/**
 * Auth state of one EMBEDDED_WALLET internal account (stream `wallet-<account uuid>`): its credentials, sessions,
 * signed-retry challenges, passkey challenges and OTP issue times. Only public material is ever stored: public keys,
 * credential ids, provider identities. OTP codes and private keys never reach an event.
 */
export type AuthMethodType = 'OAUTH' | 'EMAIL_OTP' | 'PASSKEY';

export interface OAuthIdentity {
  iss: string;
  sub: string;
  aud: string;
}

export interface PasskeyPublicKey {
  /** Base64url WebAuthn credential id (the authenticator rawId). */
  credentialId: string;
  /** COSE-encoded credential public key, base64url. */
  publicKey: string;
  counter: number;
  transports?: string[];
}

export interface AuthMethodRecord {
  id: string;
  type: AuthMethodType;
  nickname: string;
  createdAt: string;
  updatedAt: string;
  passkey?: PasskeyPublicKey;
  oauth?: OAuthIdentity;
  revokedAt?: string;
}

export interface SessionRecord {
  id: string;
  authMethodId: string;
  /** Lowercase compressed P-256 hex of the session signing key. */
  publicKey: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  revokedAt?: string;
}

/** What a signed retry is for: step 2 must be the same kind of command on the same target. */
export type SignedRetryIntent =
  'ADD_AUTH_METHOD' | 'REVOKE_AUTH_METHOD' | 'REVOKE_SESSION' | 'REFRESH_SESSION' | 'EXTERNAL';

/**
 * What a consumed requestId authorized in another stream (a card or customer PATCH): the target
 * stream and the change decided from the signed body. The change is appended after the
 * consumption; recording it here lets an identical retry finish a change a crash cut off.
 */
export interface SignedChange {
  stream: string;
  change: Record<string, unknown>;
}

export interface SignedRetryChallengeRecord {
  requestId: string;
  intent: SignedRetryIntent;
  operation: string;
  targetId: string;
  payloadToSign: string;
  type?: AuthMethodType;
  issuedAt: string;
  expiresAt: string;
  consumedAt?: string;
  /** The session that consumed it. */
  consumedBy?: string;
  authorizes?: SignedChange;
}

export interface PasskeyChallengeRecord {
  requestId: string;
  authMethodId: string;
  /** The WebAuthn challenge (base64url) the assertion must sign. */
  challenge: string;
  /** Uncompressed P-256 hex the session key will be sealed to (the passkey verify body has none). */
  clientPublicKey: string;
  issuedAt: string;
  expiresAt: string;
  consumedAt?: string;
}

export interface WalletAuthState {
  provisioned: boolean;
  accountId?: string;
  platformId?: string;
  customerId?: string;
  authMethods: Map<string, AuthMethodRecord>;
  sessions: Map<string, SessionRecord>;
  signedRetries: Map<string, SignedRetryChallengeRecord>;
  passkeyChallenges: Map<string, PasskeyChallengeRecord>;
  /** Issue times of OTP emails, newest last, kept only as long as the rate-limit window. */
  otpIssuedAt: string[];
  /** Wrong OTP codes per EMAIL_OTP credential, newest last, kept only as long as the lockout window. */
  otpFailedAt: Map<string, string[]>;
  /** The account's `privateEnabled` setting (EMBEDDED_WALLET only). */
  privateEnabled: boolean;
  /** The wallet seed, encrypted at rest with the service's key-encryption key; never in clear. */
  encryptedSeed?: string;
  /** Prunes since the challenges were last swept whole (see `prune`); absent is none. */
  prunesSinceSweep?: number;
}

interface Scope {
  accountId: string;
  platformId: string;
}

export type WalletAuthEvent =
  | { type: 'WalletProvisioned'; data: Scope & { customerId?: string; encryptedSeed?: string; provisionedAt: string } }
  | { type: 'WalletPrivacyChanged'; data: Scope & { privateEnabled: boolean; updatedAt: string } }
  | { type: 'WalletExported'; data: Scope & { exportId: string; sessionId: string; exportedAt: string } }
  | {
      type: 'AuthMethodAdded';
      data: Scope & {
        authMethodId: string;
        authMethodType: AuthMethodType;
        nickname: string;
        createdAt: string;
        passkey?: PasskeyPublicKey;
        oauth?: OAuthIdentity;
      };
    }
  | { type: 'AuthMethodUpdated'; data: Scope & { authMethodId: string; nickname: string; updatedAt: string } }
  | { type: 'AuthMethodRevoked'; data: Scope & { authMethodId: string; revokedAt: string } }
  | {
      type: 'SignedRetryChallengeIssued';
      data: Scope & {
        requestId: string;
        intent: SignedRetryIntent;
        operation: string;
        targetId: string;
        payloadToSign: string;
        authMethodType?: AuthMethodType;
        issuedAt: string;
        expiresAt: string;
      };
    }
  | {
      type: 'SignedRetryConsumed';
      data: Scope & { requestId: string; sessionId: string; consumedAt: string; authorizes?: SignedChange };
    }
  | {
      type: 'SessionIssued';
      data: Scope & {
        sessionId: string;
        authMethodId: string;
        publicKey: string;
        createdAt: string;
        expiresAt: string;
      };
    }
  | {
      type: 'SessionRefreshed';
      data: Scope & { sessionId: string; publicKey: string; refreshedAt: string; expiresAt: string };
    }
  | {
      type: 'SessionRevoked';
      data: Scope & { sessionId: string; revokedAt: string; cause: 'REQUESTED' | 'CREDENTIAL_REVOKED' };
    }
  | { type: 'OtpChallengeIssued'; data: Scope & { authMethodId: string; issuedAt: string } }
  | { type: 'OtpVerificationFailed'; data: Scope & { authMethodId: string; failedAt: string } }
  | {
      type: 'PasskeyChallengeIssued';
      data: Scope & {
        authMethodId: string;
        requestId: string;
        challenge: string;
        clientPublicKey: string;
        issuedAt: string;
        expiresAt: string;
      };
    }
  | {
      type: 'PasskeyChallengeConsumed';
      data: Scope & { authMethodId: string; requestId: string; counter: number; consumedAt: string };
    };

export const OTP_RATE_LIMIT = { minIntervalSeconds: 30, windowSeconds: 600, maxPerWindow: 5 } as const;
/** Wrong OTP codes a credential may take in the window before its verification is locked. */
export const OTP_VERIFY_LIMIT = { maxFailures: 5, windowSeconds: 900 } as const;
/** Ended sessions are dropped from the state this long after they ended. */
const ENDED_SESSION_RETENTION_MS = 24 * 3600 * 1000;
/** Expired challenges are kept this long, so a late retry hears CHALLENGE_EXPIRED rather than "unknown". */
const EXPIRED_CHALLENGE_RETENTION_MS = 24 * 3600 * 1000;

export const initialWalletAuthState = (): WalletAuthState => ({
  provisioned: false,
  authMethods: new Map(),
  sessions: new Map(),
  signedRetries: new Map(),
  passkeyChallenges: new Map(),
  otpIssuedAt: [],
  otpFailedAt: new Map(),
  privateEnabled: false,
});

const ms = (iso: string) => Date.parse(iso);

export function isAuthMethodActive(m: AuthMethodRecord | undefined): m is AuthMethodRecord {
  return m !== undefined && m.revokedAt === undefined;
}

export function isSessionActive(s: SessionRecord | undefined, now: string): boolean {
  return s !== undefined && s.revokedAt === undefined && ms(s.expiresAt) > ms(now);
}

export function activeAuthMethods(state: WalletAuthState): AuthMethodRecord[] {
  return [...state.authMethods.values()].filter(isAuthMethodActive);
}

export function activeSessions(state: WalletAuthState, now: string): SessionRecord[] {
  return [...state.sessions.values()].filter((s) => isSessionActive(s, now));
}

/** A signed retry is needed to add a credential once the account has one. */
export function requiresSignedRetryToAddAuthMethod(state: WalletAuthState): boolean {
  return activeAuthMethods(state).length > 0;
}

export function sessionByPublicKey(state: WalletAuthState, publicKey: string): SessionRecord | undefined {
  const key = publicKey.toLowerCase();
  return [...state.sessions.values()].find((s) => s.publicKey === key);
}

/** Changes the entry `id` of `entries` where the state still has it (pruning forgets old ones). */
function amend<T extends object>(entries: Map<string, T>, id: string, changes: Partial<T>): void {
  const entry = entries.get(id);
  if (entry) Object.assign(entry, changes);
}

/**
 * A prune looks at every challenge held once in this many prunes: a history whose challenges do not expire in the order
 * they were issued (a host's clock set back, events written by hand) then keeps expired ones for at most this many
 * more prunes, and the look costs each prune a few µs on average however many challenges a busy wallet holds.
 */
export const CHALLENGE_SWEEP_EVERY = 1024;

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

// eslint-disable-next-line max-lines-per-function -- 128 lines, to be split
export function evolveWalletAuth(state: WalletAuthState, event: WalletAuthEvent): WalletAuthState {
  switch (event.type) {
    case 'WalletProvisioned': {
      const d = event.data;
      return {
        ...state,
        provisioned: true,
        accountId: d.accountId,
        platformId: d.platformId,
        customerId: d.customerId,
        ...(d.encryptedSeed ? { encryptedSeed: d.encryptedSeed } : {}),
      };
    }
    case 'WalletPrivacyChanged':
      state.privateEnabled = event.data.privateEnabled;
      return state;
    case 'WalletExported':
      return state;
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
    case 'AuthMethodUpdated': {
      amend(state.authMethods, event.data.authMethodId, {
        nickname: event.data.nickname,
        updatedAt: event.data.updatedAt,
      });
      return state;
    }
    case 'AuthMethodRevoked': {
      amend(state.authMethods, event.data.authMethodId, {
        revokedAt: event.data.revokedAt,
        updatedAt: event.data.revokedAt,
      });
      return state;
    }
    case 'SignedRetryChallengeIssued': {
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
    case 'SignedRetryConsumed': {
      const { requestId, consumedAt, sessionId, authorizes } = event.data;
      amend(state.signedRetries, requestId, {
        consumedAt,
        consumedBy: sessionId,
        ...(authorizes ? { authorizes } : {}),
      });
      return state;
    }
    case 'SessionIssued': {
      const d = event.data;
      prune(state, d.createdAt);
      state.sessions.set(d.sessionId, {
        id: d.sessionId,
        authMethodId: d.authMethodId,
        publicKey: d.publicKey,
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
        expiresAt: d.expiresAt,
      });
      // A successful verification starts the credential's wrong-code count afresh.
      state.otpFailedAt.delete(d.authMethodId);
      return state;
    }
    case 'SessionRefreshed': {
      const { sessionId, publicKey, expiresAt, refreshedAt } = event.data;
      amend(state.sessions, sessionId, { publicKey, expiresAt, updatedAt: refreshedAt });
      return state;
    }
    case 'SessionRevoked': {
      amend(state.sessions, event.data.sessionId, { revokedAt: event.data.revokedAt, updatedAt: event.data.revokedAt });
      return state;
    }
    case 'OtpChallengeIssued': {
      const since = ms(event.data.issuedAt) - OTP_RATE_LIMIT.windowSeconds * 1000;
      state.otpIssuedAt = [...state.otpIssuedAt.filter((t) => ms(t) > since), event.data.issuedAt];
      return state;
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
      const d = event.data;
      prune(state, d.issuedAt);
      state.passkeyChallenges.set(d.requestId, {
        requestId: d.requestId,
        authMethodId: d.authMethodId,
        challenge: d.challenge,
        clientPublicKey: d.clientPublicKey,
        issuedAt: d.issuedAt,
        expiresAt: d.expiresAt,
      });
      return state;
    }
    case 'PasskeyChallengeConsumed': {
      amend(state.passkeyChallenges, event.data.requestId, { consumedAt: event.data.consumedAt });
      const m = state.authMethods.get(event.data.authMethodId);
      if (m?.passkey) m.passkey = { ...m.passkey, counter: event.data.counter };
      return state;
    }
  }
}
