import { Inject, Injectable } from '@nestjs/common';
import type { Readable } from 'node:stream';
import type { BlobStore } from '#blob-store/blob-store.js';
import { notFound } from '#domain/errors.js';
import { Collections } from '#read-models/projections/collections.js';
import { toDocument, type DocumentDoc } from '#read-models/projections/document-projection.js';
import type { Filter, ReadModelStore } from '#read-models/read-model-store.js';
import { listForPlatform } from '../queries/list-query.js';
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
    const doc = await this.store.get<DocumentDoc>(Collections.documents, id);
    if (!doc || doc.platformId !== platformId) throw notFound('DOCUMENT', id);
    return doc;
  }

  async get(platformId: string, id: string) {
    return toDocument(await this.own(platformId, id));
  }

  list(platformId: string, q: DocumentListFilter) {
    const filters: Filter[] = [];
    if (q.documentHolder) filters.push({ field: 'documentHolder', op: 'eq', value: q.documentHolder });
    if (q.documentType) filters.push({ field: 'documentType', op: 'eq', value: q.documentType });
    return listForPlatform<DocumentDoc>(
      this.store,
      Collections.documents,
      platformId,
      { filters, limit: q.limit, cursor: q.cursor, sortOrder: 'desc' },
      toDocument,
    );
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
