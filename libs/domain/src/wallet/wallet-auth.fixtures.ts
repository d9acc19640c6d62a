import { deciderSpec } from '../testing/decider-spec.js';
import type { SignedRetryProof } from './signed-retry.js';
import { walletAuthDecider, type WalletAuthCommand } from './wallet-auth.js';
import type { SignedRetryIntent, WalletAuthEvent, WalletAuthState } from './wallet-auth-state.js';

/** Fixtures and command builders for the wallet unit specs, with the one decider harness over wallet-auth. */
export const T0 = Date.UTC(2025, 9, 13, 12);
export const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
export const ACCOUNT = `InternalAccount:${uuid(1)}`;
export const PLATFORM = `Platform:${uuid(2)}`;
export const EMAIL_METHOD = `AuthMethod:${uuid(10)}`;
export const PASSKEY_METHOD = `AuthMethod:${uuid(11)}`;
export const OAUTH_METHOD = `AuthMethod:${uuid(12)}`;
export const sessionId = (n: number) => `Session:${uuid(100 + n)}`;
export const requestId = (n: number) => `Request:${uuid(200 + n)}`;
/** Distinct compressed-key-shaped hex strings; the decider compares keys, the crypto layer checks curves. */
export const sessionKey = (n: number) => `02${'ab'.repeat(28)}${n.toString(16).padStart(8, '0')}`;
export const CLIENT_KEY = `04${'ab'.repeat(64)}`;
export const scope = { accountId: ACCOUNT, platformId: PLATFORM };

/** The event of request `n` consumed by session `signer`. */
export const consumed = (n: number, signer: number, consumedAt: string): WalletAuthEvent => ({
  type: 'SignedRetryConsumed',
  data: { ...scope, requestId: requestId(n), sessionId: sessionId(signer), consumedAt },
});
export const GOOGLE = { iss: 'https://accounts.google.com', sub: 'g-123', aud: 'client-app' };

const spec = deciderSpec(walletAuthDecider);
export const fold: (events: WalletAuthEvent[]) => WalletAuthState = spec.fold;
export const history: (...commands: WalletAuthCommand[]) => WalletAuthEvent[] = spec.history;
export const given = spec.given;

// Command builders with sensible defaults.
export const provision = (now = at(0)): WalletAuthCommand => ({
  type: 'ProvisionWallet',
  ...scope,
  emailOtp: { authMethodId: EMAIL_METHOD, email: 'ann@example.com' },
  now,
});

export const issueSession = (
  n: number,
  authMethodId = EMAIL_METHOD,
  now = at(10),
  lifetimeSeconds = 900,
): WalletAuthCommand => ({
  type: 'IssueSession',
  sessionId: sessionId(n),
  authMethodId,
  publicKey: sessionKey(n),
  expiresAt: new Date(Date.parse(now) + lifetimeSeconds * 1000).toISOString(),
  proof: authMethodId === OAUTH_METHOD ? { type: 'OAUTH', oauth: GOOGLE } : { type: 'EMAIL_OTP' },
  now,
});

/** Where most tests start: a provisioned wallet with session 1 issued, then `commands`. */
export const withSession = (...commands: WalletAuthCommand[]): WalletAuthEvent[] =>
  history(provision(), issueSession(1), ...commands);

/** A passkey challenge and the session its assertion earns (counter n on credential `cred-1`). */
export const passkeySession = (n: number, now = at(36), authMethodId = PASSKEY_METHOD): WalletAuthCommand[] => [
  {
    type: 'IssuePasskeyChallenge',
    authMethodId,
    requestId: requestId(900 + n),
    challenge: `challenge-${n}`,
    clientPublicKey: CLIENT_KEY,
    expiresAt: new Date(Date.parse(now) + 300_000).toISOString(),
    now,
  },
  {
    type: 'IssueSession',
    sessionId: sessionId(n),
    authMethodId,
    publicKey: sessionKey(n),
    expiresAt: new Date(Date.parse(now) + 900_000).toISOString(),
    proof: { type: 'PASSKEY', requestId: requestId(900 + n), credentialId: 'cred-1', newCounter: n },
    now,
  },
];

export const addPasskey = (
  signedRetry?: SignedRetryProof,
  credentialId = 'cred-1',
  now = at(20),
  authMethodId = PASSKEY_METHOD,
): WalletAuthCommand => ({
  type: 'AddAuthMethod',
  ...scope,
  authMethodId,
  authMethod: {
    type: 'PASSKEY',
    nickname: 'Laptop',
    passkey: { credentialId, publicKey: 'pQECAyYgASFYIA', counter: 0 },
  },
  signedRetry,
  now,
});

export interface ChallengeSpec {
  n: number;
  intent: SignedRetryIntent;
  method: string;
  path: string;
  targetId: string;
  body?: Record<string, unknown>;
  now?: string;
  ttlSeconds?: number;
  authMethodType?: 'OAUTH' | 'EMAIL_OTP' | 'PASSKEY';
}

export const challenge = (c: ChallengeSpec): WalletAuthCommand => {
  const now = c.now ?? at(30);
  return {
    type: 'IssueSignedRetryChallenge',
    requestId: requestId(c.n),
    intent: c.intent,
    method: c.method,
    path: c.path,
    targetId: c.targetId,
    body: c.body ?? {},
    expiresAt: new Date(Date.parse(now) + (c.ttlSeconds ?? 300) * 1000).toISOString(),
    ...(c.authMethodType ? { authMethodType: c.authMethodType } : {}),
    now,
  };
};

/** The step-2 proof matching `challenge(c)`, stamped by session `signer`. */
export const proof = (
  c: ChallengeSpec,
  signer: number,
  overrides: Partial<SignedRetryProof> = {},
): SignedRetryProof => ({
  requestId: requestId(c.n),
  stampPublicKey: sessionKey(signer),
  method: c.method,
  path: c.path,
  body: c.body ?? {},
  ...overrides,
});

/** A card a signed retry freezes: the challenges of most signed-retry tests are for it. */
export const CARD = 'Card:00000000-0000-4000-8000-00000000c0de';
export const cardSpec = (n = 1, now = at(30)): ChallengeSpec => ({
  n,
  intent: 'EXTERNAL',
  method: 'PATCH',
  path: `/cards/${CARD}`,
  targetId: CARD,
  body: { state: 'FROZEN' },
  now,
});

/** Step 2 of `cardSpec`'s challenge, stamped by session `signer`. */
export const consumeCard = (
  spec = cardSpec(),
  signer = 1,
  now = at(40),
  overrides: Parameters<typeof proof>[2] = {},
): WalletAuthCommand => ({
  type: 'ConsumeSignedRetry',
  targetId: CARD,
  signedRetry: proof(spec, signer, overrides),
  now,
});
