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
import { idempotencyKeyOf, UploadIdempotency } from '../http/idempotency.interceptor.js';
import { receiveMultipart } from '../http/multipart-form.js';
import type { HttpRequest, HttpResponse } from '../http/platform.js';

/** Largest CSV file an upload may carry. */
export const MAX_CSV_BYTES = 32 * 1024 * 1024;

const CSV_FORMAT =
  'One customer per row, columns named in the header, in any order. Required in the header: umaAddress, ' +
  'platformCustomerId, customerType (INDIVIDUAL or BUSINESS), addressLine1, city, state, postalCode, country ' +
  '(ISO 3166-1 alpha-2). Individuals also need fullName and birthDate (YYYY-MM-DD), businesses ' +
  'businessLegalName. Optional: addressLine2, email, businessRegistrationNumber, businessTaxId, and ' +
  'platformAccountId and description (accepted, not kept). A UMA address may be written without its `$`.';

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
    description:
      `${CSV_FORMAT} The file is checked whole before anything is stored: a header with a missing, ` +
      'unknown or repeated column, a file that is not CSV, without rows or with more than 100,000 is a ' +
      '400 INVALID_INPUT whose `details.errors` say why. Then a job creates the customers in the background, ' +
      'each row exactly as POST /customers would (same checks, uniqueness and sandbox KYC outcome); follow it ' +
      'with GET /customers/bulk/jobs/{jobId} or the BULK_UPLOAD webhook. Idempotency-Key identifies the ' +
      'file by its bytes. A process checks a bounded number of uploads at once (per platform and in all); ' +
      'an upload past the bound waits its turn before it is answered.',
    upload: { field: 'file', description: `The CSV file, at most ${MAX_CSV_BYTES} bytes.` },
    responses: { 202: { description: 'Accepted: the import job', schema: 'BulkCustomerImportJobAccepted' } },
    errors: [413, 415],
  })
  async uploadCsv(
    @Req() req: HttpRequest,
    @Res({ passthrough: true }) res: HttpResponse,
    @CurrentActor() actor: Actor,
  ) {
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
      return await this.idempotency.run(req, res, described, 202, () => this.imports.submit(() => blob.read(), actor));
    } finally {
      await blob.discard();
    }
  }

  @GetOne('jobs/:jobId', 'Get a bulk import job', ok('The job', 'BulkCustomerImportJob'), {
    description: 'Status, progress counts and every failed row with its line. Another platform’s job is 404.',
  })
  job(@IdParam('Job', 'jobId') jobId: string, @CurrentActor() actor: Actor) {
    return this.queries.job(actor.platformId, jobId);
  }
}
