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
import { Idempotent } from '../http/idempotency.interceptor.js';
import { ListDocumentsQuery, ReplaceDocumentDto, UploadDocumentDto } from './document.dto.js';
import { DocumentUploadInterceptor, UploadedDocumentFile } from './document-upload.interceptor.js';

const FILE_RULES =
  'The file is PDF, JPEG or PNG, recognised by its first bytes (a declared part type other than the ' +
  'content’s, or other content, is 415); larger than the limit (`DOCUMENT_MAX_BYTES`, 25 MiB by default) ' +
  'is 413. It is stored by its SHA-256, which the document shows with its size and media type.';
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
    description:
      'multipart/form-data: the file in the `file` part, the other fields as text parts. The ' +
      `documentHolder is a customer (not deleted) or a beneficial owner of the platform (404 otherwise). ${FILE_RULES}`,
    responses: created('The document', 'Document'),
    errors: [404, 413, 415],
    multipart: { fileField: 'file', description: 'The document file: PDF, JPEG or PNG.' },
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

  @GetPage('', 'List documents', 'documents', 'Document', {
    description: 'Newest first; deleted documents are not listed.',
  })
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
    description:
      'An addition to the public API, which has no way to read a file back. The bytes as uploaded, ' +
      'with `Content-Type` the document’s mediaType, `Content-Disposition: attachment` and its fileName, ' +
      '`ETag` the SHA-256 in hex and `Repr-Digest` (RFC 9530) the SHA-256 in base64. The file is checked ' +
      'against its hash while it is sent: stored bytes that no longer match end the connection before ' +
      'the last byte, so a client never completes a damaged download.',
    responses: { 200: { description: 'The file', binary: DOCUMENT_MEDIA_TYPES } },
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
    description:
      'multipart/form-data with a new file and the details again (those left out are removed); the ' +
      `holder and createdAt stay. The file it had is erased unless another document has the same bytes. ${FILE_RULES}`,
    errors: [413, 415],
    multipart: { fileField: 'file', description: 'The new document file: PDF, JPEG or PNG.' },
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
  @ApiResource('Delete a document', noContent('Deleted'), {
    description: 'Its file is erased unless another document has the same bytes. This cannot be undone.',
  })
  async delete(@DocumentId() id: string, @CurrentActor() actor: Actor) {
    await this.commands.execute(new DeleteDocumentCommand(id, actor));
  }
}
