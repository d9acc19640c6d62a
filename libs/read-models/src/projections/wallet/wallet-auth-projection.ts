import type { AuthMethodType, WalletAuthEvent } from '#domain/wallet/wallet-auth-state.js';
import { amendDoc, defineProjection } from '../../projection.js';
import type { Doc } from '../../read-model-store.js';
import { Collections } from '../collections.js';

/** An embedded wallet's credential as the API lists it, plus its scope and status. Public material only. */
export interface AuthMethodDoc extends Doc {
  platformId: string;
  accountId: string;
  type: AuthMethodType;
  nickname: string;
  credentialId?: string;
  status: 'ACTIVE' | 'REVOKED';
  createdAt: string;
  updatedAt: string;
}

/** A session: its credential, times and status. The signing key is not here (the API never lists it). */
export interface AuthSessionDoc extends Doc {
  platformId: string;
  accountId: string;
  authMethodId: string;
  status: 'ACTIVE' | 'REVOKED';
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
}

/** Credentials and sessions of embedded wallets, for the credential and session lists. */
export const walletAuthProjection = defineProjection<WalletAuthEvent>({
  name: 'wallet-auth',
  collections: [Collections.authMethods, Collections.authSessions],
  replayWeight: 3,
  indexes: [
    { collection: Collections.authMethods, fields: ['credentialId', 'createdAt'] },
    { collection: Collections.authMethods, fields: ['platformId', 'accountId', 'createdAt'] },
    { collection: Collections.authSessions, fields: ['platformId', 'accountId', 'createdAt'] },
  ],
  on: {
    AuthMethodAdded: ({ data: d }, tx) => {
      const doc: AuthMethodDoc = {
        id: d.authMethodId,
        platformId: d.platformId,
        accountId: d.accountId,
        type: d.authMethodType,
        nickname: d.nickname,
        ...(d.passkey ? { credentialId: d.passkey.credentialId } : {}),
        status: 'ACTIVE',
        createdAt: d.createdAt,
        updatedAt: d.createdAt,
      };
      tx.put(Collections.authMethods, doc);
    },
    AuthMethodUpdated: async ({ data: { authMethodId, nickname, updatedAt } }, tx) => {
      await amendDoc<AuthMethodDoc>(tx, Collections.authMethods, authMethodId, { nickname, updatedAt });
    },
    AuthMethodRevoked: async ({ data }, tx) => {
      const changes = { status: 'REVOKED', updatedAt: data.revokedAt } as const;
      await amendDoc<AuthMethodDoc>(tx, Collections.authMethods, data.authMethodId, changes);
    },
    SessionIssued: ({ data: { sessionId, platformId, accountId, authMethodId, createdAt, expiresAt } }, tx) => {
      const doc: AuthSessionDoc = {
        id: sessionId,
        platformId,
        accountId,
        authMethodId,
        status: 'ACTIVE',
        createdAt,
        updatedAt: createdAt,
        expiresAt,
      };
      tx.put(Collections.authSessions, doc);
    },
    SessionRefreshed: async ({ data: { sessionId, expiresAt, refreshedAt } }, tx) => {
      await amendDoc<AuthSessionDoc>(tx, Collections.authSessions, sessionId, { expiresAt, updatedAt: refreshedAt });
    },
    SessionRevoked: async ({ data }, tx) => {
      const changes = { status: 'REVOKED', updatedAt: data.revokedAt } as const;
      await amendDoc<AuthSessionDoc>(tx, Collections.authSessions, data.sessionId, changes);
    },
  },
});
