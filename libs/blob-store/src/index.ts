import type { BlobStore } from './blob-store.js';
import { FsBlobStore } from './fs-blob-store.js';

export * from './blob-store.js';
export { FsBlobStore } from './fs-blob-store.js';

export type BlobStoreConfig = { kind: 'fs'; path: string };

/** Staged files this old are left over from a crash (uploads are cut off long before). */
const STALE_AFTER_MS = 3_600_000;

/** The blob store selected by configuration: the embedded file-system store under `DATA_DIR`. */
export async function createBlobStore(config: BlobStoreConfig): Promise<BlobStore> {
  switch (config.kind) {
    case 'fs': {
      const store = new FsBlobStore(config.path);
      await store.recover({ staleAfterMs: STALE_AFTER_MS });
      return store;
    }
  }
}
