import {
  createParamDecorator,
  Inject,
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { catchError, concatMap, finalize, from, mergeMap, throwError, type Observable } from 'rxjs';
import type { BlobStore } from '#blob-store/blob-store.js';
import type { ReceivedFile } from '#application/documents/document-commands.js';
import { APP_CONFIG, BLOB_STORE } from '#application/tokens.js';
import type { AppConfig } from '#config/config.js';
import { documentMediaType, SIGNATURE_BYTES } from '#domain/documents/document-types.js';
import { receiveMultipart, type RequestWithUpload } from '../http/multipart-form.js';

/**
 * Reads a document upload before anything else looks at the body: the text fields become the
 * request body (validated by the route's DTO), the file is staged in the blob store. An
 * Idempotency-Key then compares fields and file hash. Whatever the route does not publish is
 * discarded before the answer is sent.
 */
@Injectable()
export class DocumentUploadInterceptor implements NestInterceptor {
  constructor(
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context.switchToHttp().getRequest<RequestWithUpload>();
    const form = await receiveMultipart(req, {
      blobs: this.blobs,
      maxFileBytes: this.config.documents.maxFileBytes,
      fileField: 'file',
      fileDescription: 'the document',
      headBytes: SIGNATURE_BYTES,
      check: documentMediaType,
    });
    req.body = form.fields;
    req.uploadedFile = form.file;
    // Dropped before the answer goes out (a no-op once published); on any other ending as well.
    const drop = () => form.file.blob.discard().catch(() => undefined);
    return next.handle().pipe(
      concatMap(async (body) => {
        await drop();
        return body;
      }),
      catchError((error: unknown) => from(drop()).pipe(mergeMap(() => throwError(() => error)))),
      finalize(() => void drop()),
    );
  }
}

/** The file of a document upload, staged by DocumentUploadInterceptor. */
export const UploadedDocumentFile = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ReceivedFile =>
    ctx.switchToHttp().getRequest<RequestWithUpload>().uploadedFile as ReceivedFile,
);
