import { createHash } from 'node:crypto';
import type { FieldError } from '../errors.js';

/**
 * The CSV format of bulk customer imports (`POST /customers/bulk/csv`), as the public API documents
 * it: one customer per row, named columns in any order. Columns every row needs are required in the
 * header; the ones only one customer type needs (fullName, birthDate for individuals,
 * businessLegalName for businesses) are checked per row. Each row then becomes the body of an
 * ordinary `POST /customers`.
 */
export const REQUIRED_COLUMNS = [
  'umaAddress',
  'platformCustomerId',
  'customerType',
  'addressLine1',
  'city',
  'state',
  'postalCode',
  'country',
] as const;

export const OPTIONAL_COLUMNS = [
  'fullName',
  'birthDate',
  'email',
  'addressLine2',
  'businessLegalName',
  'businessRegistrationNumber',
  'businessTaxId',
  // Accepted as the public API accepts them; a customer has no field to keep them in.
  'platformAccountId',
  'description',
] as const;

export const KNOWN_COLUMNS: readonly string[] = [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS];

/** Columns a row of this customer type must fill, beyond those every row fills. */
const REQUIRED_BY_TYPE: Record<string, readonly string[]> = {
  INDIVIDUAL: ['fullName', 'birthDate'],
  BUSINESS: ['businessLegalName'],
};

/** Where each column goes in the POST /customers body. */
const BODY_PATHS: Record<string, string> = {
  umaAddress: 'umaAddress',
  platformCustomerId: 'platformCustomerId',
  customerType: 'customerType',
  fullName: 'fullName',
  birthDate: 'birthDate',
  email: 'email',
  addressLine1: 'address.line1',
  addressLine2: 'address.line2',
  city: 'address.city',
  state: 'address.state',
  postalCode: 'address.postalCode',
  country: 'address.country',
  businessLegalName: 'businessInfo.legalName',
  businessRegistrationNumber: 'businessInfo.registrationNumber',
  businessTaxId: 'businessInfo.taxId',
};

const COLUMN_OF_PATH = new Map(Object.entries(BODY_PATHS).map(([column, path]) => [path, column]));

/** The CSV column a POST /customers field error is about (`address.line1` is `addressLine1`). */
export const columnOf = (field: string): string => COLUMN_OF_PATH.get(field) ?? field;

/** Why a header cannot be imported, as field errors on `file` (empty when it can). */
export function headerProblems(columns: string[]): FieldError[] {
  const problems: FieldError[] = [];
  const problem = (constraint: string, message: string) => problems.push({ field: 'file', constraint, message });
  const seen = new Set<string>();
  for (const [index, column] of columns.entries()) {
    if (column === '') problem('empty_column', `header column ${index + 1} has no name`);
    else if (seen.has(column)) problem('duplicate_column', `the header names the column ${column} twice`);
    else if (!KNOWN_COLUMNS.includes(column)) problem('unknown_column', `the header names an unknown column ${column}`);
    seen.add(column);
  }
  for (const column of REQUIRED_COLUMNS)
    if (!seen.has(column)) problem('missing_required_column', `the header lacks the required column ${column}`);
  return problems;
}

/** What one row becomes: the POST /customers body, and the CSV rules it breaks (checked before the body's own). */
export interface CustomerRow {
  body: Record<string, unknown>;
  errors: FieldError[];
  /** The public API's correlation id of the row: its platformCustomerId, else `row_<line>`. */
  correlationId: string;
}

function setPath(target: Record<string, unknown>, path: string, value: string): void {
  const [head, leaf] = path.split('.');
  if (leaf === undefined) {
    target[head] = value;
    return;
  }
  const nested = (target[head] ??= {}) as Record<string, string>;
  nested[leaf] = value;
}

/**
 * Maps a row to a POST /customers body: cells are trimmed, empty cells are absent, an UMA address
 * written without its `$` gets one (the public API's own example omits it).
 */
export function customerRow(columns: string[], values: string[], line: number): CustomerRow {
  const errors: FieldError[] = [];
  const cells = new Map<string, string>();
  columns.forEach((column, i) => {
    const value = values[i]?.trim();
    if (value) cells.set(column, value);
  });
  const platformCustomerId = cells.get('platformCustomerId');
  const correlationId = platformCustomerId ?? `row_${line}`;
  if (values.length > columns.length) {
    const message = `the row has ${values.length} fields where the header has ${columns.length}`;
    errors.push({ field: 'row', constraint: 'invalid_csv_format', message });
  }
  const type = cells.get('customerType');
  for (const column of [...REQUIRED_COLUMNS, ...(REQUIRED_BY_TYPE[type ?? ''] ?? [])]) {
    if (!cells.has(column)) {
      const needs = (REQUIRED_COLUMNS as readonly string[]).includes(column) ? 'every customer' : `a ${type} customer`;
      errors.push({ field: column, constraint: 'required', message: `${column} is required for ${needs}` });
    }
  }
  const body: Record<string, unknown> = {};
  for (const [column, value] of cells) {
    const path = BODY_PATHS[column];
    if (!path) continue;
    setPath(body, path, column === 'umaAddress' && !value.startsWith('$') ? `$${value}` : value);
  }
  return { body, errors, correlationId };
}

/**
 * The id of the customer a row creates: derived from the job and the row's line, so a job run
 * again after a crash finds the customer (and the claims) its first run made instead of making
 * another.
 */
export function bulkImportCustomerId(jobId: string, line: number): string {
  const h = createHash('sha256').update(`bulk-import\n${jobId}\n${line}`).digest('hex');
  return `Customer:${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
