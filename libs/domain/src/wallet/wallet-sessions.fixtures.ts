import type { WalletAuthCommand } from './wallet-auth.js';
import { CLIENT_KEY, at, issueSession, sessionId, type ChallengeSpec } from './wallet-auth.fixtures.js';

export type IssueSession = Extract<WalletAuthCommand, { type: 'IssueSession' }>;
export const session = (overrides: Partial<IssueSession> = {}): IssueSession => ({
  ...(issueSession(1) as IssueSession),
  ...overrides,
});

export const refreshSpec = (n: number, target = sessionId(1), now = at(30)): ChallengeSpec => ({
  n,
  intent: 'REFRESH_SESSION',
  method: 'POST',
  path: `/auth/sessions/${target}/refresh`,
  targetId: target,
  body: { clientPublicKey: CLIENT_KEY },
  now,
});
export const revokeSpec = (n: number, target = sessionId(1), now = at(30)): ChallengeSpec => ({
  n,
  intent: 'REVOKE_SESSION',
  method: 'DELETE',
  path: `/auth/sessions/${target}`,
  targetId: target,
  now,
});
