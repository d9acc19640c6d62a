import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Logger,
  Post,
  Put,
  Query,
  Res,
  UseInterceptors,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { pipeline } from 'node:stream';
import {
  DeleteDocumentCommand,
  ReplaceDocumentCommand,
  UploadDocumentCommand,
  type ReceivedFile,
} from '#application/documents/document-commands.js';
import { DocumentQueries } from '#application/documents/document-queries.js';
import type { Actor } from '#application/tokens.js';
import { DOCUMENT_MEDIA_TYPES } from '#domain/documents/document-types.js';
import { ApiDoc, ApiResource, created, noContent, ok } from '../docs/api-doc.js';
import { GetOne, GetPage } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import { nodeResponse, type HttpResponse } from '../http/platform.js';
import { Idempotent } from '../http/retries.js';
import { ListDocumentsQuery, ReplaceDocumentDto, UploadDocumentDto } from './document.dto.js';
import { DocumentUploadInterceptor, UploadedDocumentFile } from './document-upload.interceptor.js';
import { DOCUMENTS_TEXT } from '../docs/descriptions/documents.js';

const DocumentId = () => IdParam('Document', 'documentId');

/** `attachment` with the file name, ASCII for old clients and UTF-8 (RFC 5987) for the rest. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_') || 'document';
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName || 'document')}`;
}

/** Verification documents of customers: a file and what it is, uploaded as multipart/form-data. */
@Controller('documents')
export class DocumentsController {
  private readonly logger = new Logger('Documents');

  constructor(
    private readonly commands: CommandBus,
    private readonly queries: DocumentQueries,
  ) {}

  @Post()
  @Idempotent(DocumentUploadInterceptor)
  @ApiDoc({
    summary: 'Upload a document',
    description: DOCUMENTS_TEXT.upload,
    responses: created('The document', 'Document'),
    errors: [404, 413, 415],
    multipart: { fileField: 'file', description: DOCUMENTS_TEXT.uploadFile },
  })
  async upload(
    @Body() body: UploadDocumentDto,
    @UploadedDocumentFile() file: ReceivedFile,
    @CurrentActor() actor: Actor,
  ) {
    const { documentHolder, ...details } = body;
    const id: string = await this.commands.execute(new UploadDocumentCommand(documentHolder, details, file, actor));
    return this.queries.get(actor.platformId, id);
  }

  @GetPage('', 'List documents', 'documents', 'Document', { description: DOCUMENTS_TEXT.list })
  list(@Query() query: ListDocumentsQuery, @CurrentActor() actor: Actor) {
    return this.queries.list(actor.platformId, query);
  }

  @GetOne(':documentId', 'Get a document', ok('The document', 'Document'))
  get(@DocumentId() id: string, @CurrentActor() actor: Actor) {
    return this.queries.get(actor.platformId, id);
  }

  @Get(':documentId/content')
  @ApiDoc({
    summary: 'Download a document’s file',
    description: DOCUMENTS_TEXT.content,
    responses: { 200: { description: DOCUMENTS_TEXT.contentResponse200, binary: DOCUMENT_MEDIA_TYPES } },
    errors: [404],
  })
  async content(@DocumentId() id: string, @CurrentActor() actor: Actor, @Res() reply: HttpResponse) {
    const { document, stream } = await this.queries.content(actor.platformId, id);
    const res = nodeResponse(reply);
    res.statusCode = 200;
    res.setHeader('Content-Type', document.mediaType);
    res.setHeader('Content-Length', String(document.fileSize));
    res.setHeader('Content-Disposition', contentDisposition(document.fileName));
    res.setHeader('ETag', `"${document.sha256}"`);
    res.setHeader('Repr-Digest', `sha-256=:${Buffer.from(document.sha256, 'hex').toString('base64')}:`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    pipeline(stream, res, (error) => {
      if (error && !res.writableFinished && (error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') {
        this.logger.error(`GET /documents/${id}/content: ${error.message}`);
      }
    });
  }

  @Put(':documentId')
  @UseInterceptors(DocumentUploadInterceptor)
  @ApiResource('Replace a document', ok('The document', 'Document'), {
    description: DOCUMENTS_TEXT.replace,
    errors: [413, 415],
    multipart: { fileField: 'file', description: DOCUMENTS_TEXT.replaceFile },
  })
  async replace(
    @DocumentId() id: string,
    @Body() body: ReplaceDocumentDto,
    @UploadedDocumentFile() file: ReceivedFile,
    @CurrentActor() actor: Actor,
  ) {
    await this.commands.execute(new ReplaceDocumentCommand(id, body, file, actor));
    return this.queries.get(actor.platformId, id);
  }

  @Delete(':documentId')
  @HttpCode(204)
  @ApiResource('Delete a document', noContent('Deleted'), { description: DOCUMENTS_TEXT.delete })
  async delete(@DocumentId() id: string, @CurrentActor() actor: Actor) {
    await this.commands.execute(new DeleteDocumentCommand(id, actor));
  }
}
