import { Inject, Injectable, Logger } from '@nestjs/common';
import type { BlobStore, StagedBlob } from '#blob-store/blob-store.js';
import { documentContentDecider, documentContentStream } from '#domain/documents/document-content.js';
import type { ReleasedFile } from '#domain/documents/document.js';
import type { IdGenerator } from '#domain/primitives.js';
import { CommandRunner } from '../command-runner.js';
import { BLOB_STORE, IDS, type Actor } from '../tokens.js';

/**
 * The files of documents in the blob store, and the references documents hold on them
 * (document-content.ts). A reference is recorded before its content is published, and content is
 * erased only when its last reference goes, through the store's erase that asks the content's
 * stream again once the file is out of reach: an upload of the same bytes at the same moment keeps
 * them. A crash between two steps leaves a reference nobody releases: the file is kept, never
 * lost.
 */
@Injectable()
export class DocumentFiles {
  private readonly logger = new Logger('DocumentFiles');

  constructor(
    private readonly runner: CommandRunner,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(IDS) private readonly ids: IdGenerator,
  ) {}

  /** Takes a new reference on the staged content for `documentId`, then publishes it; returns the reference. */
  async adopt(staged: StagedBlob, documentId: string, actor: Actor, now: string): Promise<string> {
    const referenceId = this.ids.uuid();
    await this.runner.run(
      documentContentStream(staged.sha256),
      documentContentDecider,
      { type: 'ReferenceContent', sha256: staged.sha256, referenceId, documentId, platformId: actor.platformId, now },
      { metadata: { ...actor }, answersAfter: 'append' },
    );
    await staged.publish();
    return referenceId;
  }

  /**
   * Releases a reference and erases the content when it was the last. Never fails the request that
   * already changed the document: a failure is logged and leaves the file in place.
   */
  async release(file: ReleasedFile, documentId: string, actor: Actor, now: string): Promise<void> {
    const stream = documentContentStream(file.sha256);
    try {
      const { events } = await this.runner.run(
        stream,
        documentContentDecider,
        {
          type: 'ReleaseContent',
          sha256: file.sha256,
          referenceId: file.contentReference,
          documentId,
          platformId: actor.platformId,
          now,
        },
        { metadata: { ...actor }, answersAfter: 'append' },
      );
      const released = events.find((e) => e.type === 'DocumentContentReleased');
      if (!released || released.data.remaining > 0) return;
      await this.blobs.erase(file.sha256, async () => {
        const { state } = await this.runner.load(stream, documentContentDecider);
        return state.references.length === 0;
      });
    } catch (error) {
      this.logger.warn(`content ${file.sha256} of ${documentId} kept: ${(error as Error)?.message ?? error}`);
    }
  }
}
