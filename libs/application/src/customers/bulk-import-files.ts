import type { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { KNOWN_COLUMNS, headerProblems } from '#domain/customers/bulk-import-csv.js';
import type { BulkImportRow } from '#domain/customers/bulk-import.js';
import { DomainError } from '#domain/errors.js';

/** Most customer rows one file may hold. */
export const MAX_IMPORT_ROWS = 100_000;
/** Longest record (bytes) the parser accepts: far beyond any customer row. */
const MAX_RECORD_BYTES = 64 * 1024;
/**
 * A chunk of rows appended to the import's stream stays under both: small, so that an upload being stored holds
 * little at a time (the event store would take 1 MiB per append).
 */
const CHUNK_ROWS = 250;
const CHUNK_BYTES = 64 * 1024;

/** Opens the file anew: it is read twice, once to check it and once to store its rows. */
export type OpenFile = () => Readable;

const fileError = (constraint: string, message: string, extra: Record<string, unknown> = {}) =>
  new DomainError('invalid', 'INVALID_INPUT', message, { errors: [{ field: 'file', constraint, message }], ...extra });

/**
 * Why the parser stopped, in words of our own: the parser's messages quote the cell it stopped in, and a cell is
 * personal data that neither an answer's message nor a log line should repeat.
 */
const CSV_PROBLEMS: Partial<Record<CsvError['code'], string>> = {
  INVALID_OPENING_QUOTE:
    'a quote inside a field that does not start with one (quote the whole field and double the quote)',
  CSV_INVALID_CLOSING_QUOTE: 'a quoted field is followed by something other than a comma or the end of the line',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE:
    'a quoted field is followed by something other than a comma or the end of the line',
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is not closed before the end of the file',
  CSV_MAX_RECORD_SIZE: `a row is longer than ${MAX_RECORD_BYTES} bytes`,
};

/**
 * The records of a CSV file in order, the header first, each with the line it starts on (quoted
 * cells may span lines). Cells are trimmed; blank lines and rows of empty cells are skipped. A file
 * that is not CSV (an unclosed quote, a record too long) is a 400 naming the line.
 */
export async function* csvRecords(input: Readable): AsyncGenerator<BulkImportRow> {
  const parser = parse({
    bom: true,
    trim: true,
    relax_column_count: true,
    skip_empty_lines: true,
    record_delimiter: ['\r\n', '\n', '\r'],
    max_record_size: MAX_RECORD_BYTES,
    info: true,
  });
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (record.every((cell) => cell === '')) continue;
      const breaks = record.reduce((n, cell) => n + (cell.match(/\r\n|\r|\n/g)?.length ?? 0), 0);
      yield { line: info.lines - breaks, values: record };
    }
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    const line = (error as CsvError & { lines?: number }).lines;
    const problem = CSV_PROBLEMS[error.code] ?? 'a row the CSV format does not allow';
    throw fileError('invalid_csv_format', `the file is not valid CSV${line ? ` at line ${line}` : ''}: ${problem}`);
  } finally {
    input.unpipe(parser);
    input.destroy();
  }
}

/** The header of a file, checked: every required column once, no unknown one (400 INVALID_INPUT otherwise). */
export function checkHeader(header: BulkImportRow | undefined): string[] {
  if (!header) throw fileError('empty_file', 'the file is empty: it needs a header line and customer rows');
  const problems = headerProblems(header.values);
  if (problems.length > 0) {
    const message = `the CSV header is not valid: ${problems[0].message}`;
    const unknown = problems.some((p) => p.constraint === 'unknown_column');
    throw new DomainError('invalid', 'INVALID_INPUT', message, {
      errors: problems,
      ...(unknown ? { knownColumns: [...KNOWN_COLUMNS] } : {}),
    });
  }
  return header.values;
}

/** Reads the whole file once: its columns and how many customer rows it has, or why it cannot be imported. */
export async function inspectCsv(open: OpenFile): Promise<{ columns: string[]; rows: number }> {
  const records = csvRecords(open());
  const first = await records.next();
  const columns = checkHeader(first.done ? undefined : first.value);
  let rows = 0;
  for await (const _ of records) {
    rows += 1;
    if (rows > MAX_IMPORT_ROWS) {
      await records.return(undefined);
      throw fileError('too_many_rows', `the file has more than ${MAX_IMPORT_ROWS} customer rows; split it`);
    }
  }
  if (rows === 0) throw fileError('no_rows', 'the file has a header but no customer rows');
  return { columns, rows };
}

/** The data rows of a file (after its header) in chunks small enough to append. */
export async function* rowChunks(open: OpenFile): AsyncGenerator<BulkImportRow[]> {
  let chunk: BulkImportRow[] = [];
  let bytes = 0;
  let header = true;
  for await (const row of csvRecords(open())) {
    if (header) {
      header = false;
      continue;
    }
    const size = JSON.stringify(row).length;
    if (chunk.length >= CHUNK_ROWS || (chunk.length > 0 && bytes + size > CHUNK_BYTES)) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(row);
    bytes += size;
  }
  if (chunk.length > 0) yield chunk;
}
