import type { Unset } from '../decider.js';
import { invalid, notFound } from '../errors.js';

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

/** What a wallet stream holds from its provisioning on. */
interface WalletRecord {
  accountId: string;
  platformId: string;
}

/** What every wallet stream holds (a credential may be added before the wallet is provisioned). */
interface WalletHoldings {
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

export type ProvisionedWalletState = { provisioned: true } & WalletRecord & WalletHoldings;

export type WalletAuthState = ({ provisioned: false } & Unset<WalletRecord> & WalletHoldings) | ProvisionedWalletState;

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

/** The wallet event of type `T` (or of the types `T` unites). */
export type EventOf<T extends WalletAuthEvent['type']> = Extract<WalletAuthEvent, { type: T }>;

export const OTP_RATE_LIMIT = { minIntervalSeconds: 30, windowSeconds: 600, maxPerWindow: 5 } as const;
/** Wrong OTP codes a credential may take in the window before its verification is locked. */
export const OTP_VERIFY_LIMIT = { maxFailures: 5, windowSeconds: 900 } as const;
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

export const ms = (iso: string) => Date.parse(iso);

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

/**
 * A prune looks at every challenge held once in this many prunes: a history whose challenges do not expire in the order
 * they were issued (a host's clock set back, events written by hand) then keeps expired ones for at most this many
 * more prunes, and the look costs each prune a few µs on average however many challenges a busy wallet holds.
 */
export const CHALLENGE_SWEEP_EVERY = 1024;

/** The state's scope, as every event of the wallet carries it. */
export const scopeOf = (state: Provisioned) => ({ accountId: state.accountId, platformId: state.platformId });

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

/** Ended sessions are dropped from the state this long after they ended. */
const ENDED_SESSION_RETENTION_MS = 24 * 3600 * 1000;
/** Expired challenges are kept this long, so a late retry hears CHALLENGE_EXPIRED rather than "unknown". */
const EXPIRED_CHALLENGE_RETENTION_MS = 24 * 3600 * 1000;

/** Changes the entry `id` of `entries` where the state still has it (pruning forgets old ones). */
export function amend<T extends object>(entries: Map<string, T>, id: string, changes: Partial<T>): void {
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
export function prune(state: WalletAuthState, at: string): void {
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
