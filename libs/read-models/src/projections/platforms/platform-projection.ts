import type { PlatformEvent } from '#domain/platforms/platform.js';
import { amendDoc, defineProjection } from '../../projection.js';
import type { Doc } from '../../read-model-store.js';
import { Collections } from '../collections.js';

/** Platforms and their API tokens (hashes only), used by authentication and /tokens. */
export const platformProjection = defineProjection<PlatformEvent>({
  name: 'platforms',
  collections: [Collections.platforms, Collections.apiTokens],
  indexes: [
    { collection: Collections.platforms, fields: ['createdAt'] },
    { collection: Collections.apiTokens, fields: ['platformId', 'name', 'createdAt'] },
  ],
  on: {
    PlatformCreated: ({ data }, tx) =>
      tx.put(Collections.platforms, {
        id: data.platformId,
        platformId: data.platformId,
        name: data.name,
        sandbox: data.sandbox,
        umaDomain: data.umaDomain,
        createdAt: data.createdAt,
        updatedAt: data.createdAt,
      }),
    ApiTokenCreated: ({ data }, tx) =>
      tx.put(Collections.apiTokens, {
        id: data.tokenId,
        platformId: data.platformId,
        name: data.name,
        secretHash: data.secretHash,
        ...(data.permissions ? { permissions: data.permissions } : {}),
        status: 'ACTIVE',
        createdAt: data.createdAt,
        updatedAt: data.createdAt,
      }),
    // The rails, for the funding instructions production platforms' accounts show.
    PlatformConfigUpdated: async ({ data }, tx) => {
      if (!data.changes.rails) return;
      await amendDoc(tx, Collections.platforms, data.platformId, {
        rails: data.changes.rails,
        updatedAt: data.updatedAt,
      });
    },
    ApiTokenRevoked: async ({ data }, tx) => {
      const token = await tx.get<Doc>(Collections.apiTokens, data.tokenId);
      if (token)
        tx.put(Collections.apiTokens, {
          ...token,
          status: 'REVOKED',
          revokedAt: data.revokedAt,
          updatedAt: data.revokedAt,
        });
    },
  },
});
