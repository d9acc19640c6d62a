import { Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { BlobStore } from '#blob-store/blob-store.js';
import { BulkImportQueries } from '#application/customers/bulk-import-queries.js';
import { BulkImports } from '#application/customers/bulk-imports.js';
import { BLOB_STORE, type Actor } from '#application/tokens.js';
import { ApiDoc, IdempotencyKeyHeader, ok } from '../docs/api-doc.js';
import { GetOne } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import { invalidInput } from '../http/errors.js';
import { idempotencyKeyOf, UploadIdempotency } from '../http/retries.js';
import { receiveMultipart } from '../http/multipart-form.js';
import type { HttpRequest, HttpResponse } from '../http/platform.js';
import { CUSTOMERS_BULK_TEXT } from '../docs/descriptions/customers.js';

/** Largest CSV file an upload may carry. */
export const MAX_CSV_BYTES = 32 * 1024 * 1024;

/** Bulk customer imports from CSV files, as the public API shapes them. */
@ApiTags('Customers')
@Controller('customers/bulk')
export class CustomersBulkController {
  constructor(
    private readonly imports: BulkImports,
    private readonly queries: BulkImportQueries,
    private readonly idempotency: UploadIdempotency,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
  ) {}

  @Post('csv')
  @HttpCode(202)
  @IdempotencyKeyHeader()
  @ApiDoc({
    summary: 'Upload customers in a CSV file',
    description: CUSTOMERS_BULK_TEXT.uploadCsv,
    upload: { field: 'file', description: `The CSV file, at most ${MAX_CSV_BYTES} bytes.` },
    responses: {
      202: { description: CUSTOMERS_BULK_TEXT.uploadCsvResponse202, schema: 'BulkCustomerImportJobAccepted' },
    },
    errors: [413, 415],
  })
  async uploadCsv(@Req() req: HttpRequest, @Res({ passthrough: true }) res: HttpResponse) {
    // A malformed key is refused before the file is read.
    idempotencyKeyOf(req);
    // The file is staged in the blob store (streamed, hashed) and read back from there; it is never published.
    const form = await receiveMultipart(req, {
      blobs: this.blobs,
      maxFileBytes: MAX_CSV_BYTES,
      fileField: 'file',
      fileDescription: 'the CSV file',
      headBytes: 0,
      // Any declared type: whether the bytes are CSV is for the import's own check to say, row by row.
      check: () => ({ mediaType: 'text/csv' }),
    });
    const { blob } = form.file;
    try {
      const extra = Object.keys(form.fields);
      if (extra.length > 0) {
        const message = 'send only the file, as file';
        throw invalidInput(
          extra.map((field) => ({ field, constraint: 'unknownField', message })),
          message,
        );
      }
      const described = { file: { sha256: blob.sha256, bytes: blob.size } };
      return await this.idempotency.run(req, res, described, 202, (as) => this.imports.submit(() => blob.read(), as));
    } finally {
      await blob.discard();
    }
  }

  @GetOne('jobs/:jobId', 'Get a bulk import job', ok('The job', 'BulkCustomerImportJob'), {
    description: CUSTOMERS_BULK_TEXT.job,
  })
  job(@IdParam('Job', 'jobId') jobId: string, @CurrentActor() actor: Actor) {
    return this.queries.job(actor.platformId, jobId);
  }
}
