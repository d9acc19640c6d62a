import { Module } from '@nestjs/common';
import { DeleteDocumentHandler, ReplaceDocumentHandler, UploadDocumentHandler } from './document-commands.js';
import { DocumentFiles } from './document-files.js';
import { DocumentQueries } from './document-queries.js';

/**
 * Verification documents of customers: metadata in the event log and read models, files in the
 * blob store.
 */
@Module({
  providers: [DocumentFiles, UploadDocumentHandler, ReplaceDocumentHandler, DeleteDocumentHandler, DocumentQueries],
  exports: [DocumentQueries],
})
export class DocumentsModule {}
