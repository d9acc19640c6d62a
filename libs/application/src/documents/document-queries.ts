import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { BlobStore } from '#blob-store/blob-store.js';
import { Collections } from '#read-models/projections/collections.js';
import { toDocument, type DocumentDoc } from '#read-models/projections/documents/document-projection.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { Filters } from '../queries/list-criteria.js';
import { getForPlatform, listForPlatform } from '../queries/list-query.js';
import { BLOB_STORE, READ_MODELS } from '../tokens.js';

export interface DocumentListFilter {
  documentHolder?: string;
  documentType?: string;
  limit?: number;
  cursor?: string;
}

/** Reads of documents and their files, scoped to the platform. */
@Injectable()
export class DocumentQueries {
  constructor(
    @Inject(READ_MODELS) private readonly store: ReadModelStore,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
  ) {}

  private async own(platformId: string, id: string): Promise<DocumentDoc> {
    return getForPlatform<DocumentDoc>(this.store, Collections.documents, 'DOCUMENT', platformId, id);
  }

  async get(platformId: string, id: string) {
    return toDocument(await this.own(platformId, id));
  }

  list(platformId: string, q: DocumentListFilter) {
    const request = new Filters()
      .eq('documentHolder', q.documentHolder)
      .eq('documentType', q.documentType)
      .request({ limit: q.limit, cursor: q.cursor });
    return listForPlatform<DocumentDoc>(this.store, Collections.documents, platformId, request, toDocument);
  }

  /**
   * The document's file, checked against its hash as it is read. Content missing for a live
   * document is a damaged store, not a client error.
   */
  async content(platformId: string, id: string): Promise<{ document: DocumentDoc; stream: Readable }> {
    const document = await this.own(platformId, id);
    const stream = await this.blobs.open({ sha256: document.sha256, size: document.fileSize });
    if (!stream) throw new Error(`the file ${document.sha256} of ${id} is missing from the blob store`);
    return { document, stream };
  }
}
