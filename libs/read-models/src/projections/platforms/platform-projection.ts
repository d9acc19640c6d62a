import type { PlatformEvent } from '#domain/platform/platform.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import type { Projection } from '../../projection.js';
import type { Doc, ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';

/** Platforms and their API tokens (hashes only), used by authentication and /tokens. */
export const platformProjection: Projection = {
  name: 'platforms',
  collections: [Collections.platforms, Collections.apiTokens],
  indexes: [
    { collection: Collections.platforms, fields: ['createdAt'] },
    { collection: Collections.apiTokens, fields: ['platformId', 'name', 'createdAt'] },
  ],
  handles: ['PlatformCreated', 'ApiTokenCreated', 'ApiTokenRevoked'],
  async apply(recorded: RecordedEvent, tx: ProjectionTransaction) {
    const event = { type: recorded.type, data: recorded.data } as PlatformEvent;
    switch (event.type) {
      case 'PlatformCreated':
        tx.put(Collections.platforms, {
          id: event.data.platformId,
          platformId: event.data.platformId,
          name: event.data.name,
          sandbox: event.data.sandbox,
          umaDomain: event.data.umaDomain,
          createdAt: event.data.createdAt,
          updatedAt: event.data.createdAt,
        });
        break;
      case 'ApiTokenCreated':
        tx.put(Collections.apiTokens, {
          id: event.data.tokenId,
          platformId: event.data.platformId,
          name: event.data.name,
          secretHash: event.data.secretHash,
          ...(event.data.permissions ? { permissions: event.data.permissions } : {}),
          status: 'ACTIVE',
          createdAt: event.data.createdAt,
          updatedAt: event.data.createdAt,
        });
        break;
      case 'ApiTokenRevoked': {
        const token = await tx.get<Doc>(Collections.apiTokens, event.data.tokenId);
        if (token)
          tx.put(Collections.apiTokens, {
            ...token,
            status: 'REVOKED',
            revokedAt: event.data.revokedAt,
            updatedAt: event.data.revokedAt,
          });
        break;
      }
    }
  },
};
