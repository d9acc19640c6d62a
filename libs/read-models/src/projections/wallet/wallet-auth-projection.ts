import type { AuthMethodType, WalletAuthEvent } from '#domain/wallet/wallet-auth-state.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import type { Projection } from '../../projection.js';
import type { Doc } from '../../read-model-store.js';
import { Collections } from '../collections.js';
import { amendDoc } from '../amend-doc.js';

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
export const walletAuthProjection: Projection = {
  name: 'wallet-auth',
  collections: [Collections.authMethods, Collections.authSessions],
  replayWeight: 3,
  indexes: [
    { collection: Collections.authMethods, fields: ['credentialId', 'createdAt'] },
    { collection: Collections.authMethods, fields: ['platformId', 'accountId', 'createdAt'] },
    { collection: Collections.authSessions, fields: ['platformId', 'accountId', 'createdAt'] },
  ],
  handles: [
    'AuthMethodAdded',
    'AuthMethodUpdated',
    'AuthMethodRevoked',
    'SessionIssued',
    'SessionRefreshed',
    'SessionRevoked',
  ],
  async apply(recorded: RecordedEvent, tx) {
    const event = { type: recorded.type, data: recorded.data } as unknown as WalletAuthEvent;
    switch (event.type) {
      case 'AuthMethodAdded': {
        const d = event.data;
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
        break;
      }
      case 'AuthMethodUpdated': {
        const { authMethodId, nickname, updatedAt } = event.data;
        await amendDoc<AuthMethodDoc>(tx, Collections.authMethods, authMethodId, { nickname, updatedAt });
        break;
      }
      case 'AuthMethodRevoked': {
        const changes = { status: 'REVOKED', updatedAt: event.data.revokedAt } as const;
        await amendDoc<AuthMethodDoc>(tx, Collections.authMethods, event.data.authMethodId, changes);
        break;
      }
      case 'SessionIssued': {
        const d = event.data;
        const doc: AuthSessionDoc = {
          id: d.sessionId,
          platformId: d.platformId,
          accountId: d.accountId,
          authMethodId: d.authMethodId,
          status: 'ACTIVE',
          createdAt: d.createdAt,
          updatedAt: d.createdAt,
          expiresAt: d.expiresAt,
        };
        tx.put(Collections.authSessions, doc);
        break;
      }
      case 'SessionRefreshed': {
        const { sessionId, expiresAt, refreshedAt } = event.data;
        await amendDoc<AuthSessionDoc>(tx, Collections.authSessions, sessionId, { expiresAt, updatedAt: refreshedAt });
        break;
      }
      case 'SessionRevoked': {
        const changes = { status: 'REVOKED', updatedAt: event.data.revokedAt } as const;
        await amendDoc<AuthSessionDoc>(tx, Collections.authSessions, event.data.sessionId, changes);
        break;
      }
    }
  },
};
