import { dateTime, obj, type Schema, str, idOf } from './kit.js';
const JOB_ID = idOf('Job');
const count = (description: string): Schema => ({ type: 'integer', minimum: 0, description });

/** Bulk customer imports (`/customers/bulk/csv`, `/customers/bulk/jobs/{jobId}`), named as the public API does. */
export const customersBulkSchemas: Record<string, Schema> = {
  BulkCustomerImportJobAccepted: obj(['jobId', 'status'], {
    jobId: JOB_ID,
    status: str({ enum: ['PENDING', 'PROCESSING'] }),
  }),
  BulkCustomerImportErrorEntry: {
    type: 'object',
    required: ['correlationId', 'line', 'code', 'message'],
    description:
      'A row that created no customer: the error POST /customers would have answered for it (field errors ' +
      'in `details.errors` name CSV columns).',
    properties: {
      correlationId: str({ description: 'The row’s platformCustomerId, or `row_<line>` when it has none.' }),
      line: { type: 'integer', minimum: 2, description: 'The line of the file the row starts on (the header is 1).' },
      code: str({ description: 'e.g. INVALID_INPUT, CONFLICT, UMA_ADDRESS_EXISTS.' }),
      message: str(),
      details: { type: 'object', additionalProperties: true },
    },
  },
  BulkCustomerImportJob: obj(['id', 'status', 'progress', 'errors', 'createdAt', 'updatedAt'], {
    id: JOB_ID,
    status: str({
      enum: ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED'],
      description: 'COMPLETED once every row was tried and some created a customer; FAILED when none did.',
    }),
    progress: {
      type: 'object',
      required: ['total', 'processed', 'successful', 'failed'],
      properties: {
        total: count('Customer rows in the file.'),
        processed: count('Rows tried so far.'),
        successful: count('Customers created.'),
        failed: count('Rows that created no customer.'),
      },
    },
    errors: {
      type: 'array',
      description: 'Every failed row, in line order.',
      items: { $ref: '#/components/schemas/BulkCustomerImportErrorEntry' },
    },
    completedAt: { ...dateTime, description: 'Present once COMPLETED or FAILED.' },
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
};
