import fc from 'fast-check';
import { CUSTOMER_CSV_COLUMNS } from './customer-csv.js';

/**
 * Mutated CSV files for the bulk customer import (`POST /customers/bulk/csv`), as bytes: a valid header and rows with
 * one or more mutations a hand-written or broken exporter produces. Some mutated files are still importable, so the
 * only rule for all of them is: a 4xx in the error shape or 202 with a job, never a 5xx.
 */

/** The header's columns but the optional business name and second address line. */
const COLUMNS = CUSTOMER_CSV_COLUMNS.filter((c) => c !== 'businessLegalName' && c !== 'addressLine2');

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
/** A lone high surrogate (U+D800) in WTF-8, and a pair written as two 3-byte halves (CESU-8): neither is UTF-8. */
const WTF8_LONE = Buffer.from([0xed, 0xa0, 0x80]);
const CESU_PAIR = Buffer.from([0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]);
/** Most a field grows to: large, well within the upload's limit. */
const HUGE = 256 * 1024;

type Csv = Buffer[][];

const row = (n: number, id: string): string[] => [
  `fz${id}${n}@fuzz.example.com`,
  `fz-${id}-${n}`,
  n % 2 === 0 ? 'INDIVIDUAL' : 'BUSINESS',
  `Ada ${n}`,
  '1990-01-15',
  `ada${n}@example.com`,
  '1 Main St',
  'Austin',
  'TX',
  '78701',
  'US',
];

type Mutation = [string, (csv: Csv, at: { line: number; cell: number }) => void];

const text = (value: string) => Buffer.from(value, 'utf8');
const edit = (csv: Csv, line: number, cell: number, fn: (b: Buffer) => Buffer) => {
  const l = csv[Math.min(line, csv.length - 1)];
  const c = Math.min(cell, l.length - 1);
  l[c] = fn(l[c]);
};

const mutations: fc.Arbitrary<Mutation>[] = [
  fc
    .constantFrom('"', 'a"b', '""', 'x""y')
    .map((q): Mutation => [
      `quote in unquoted field ${q}`,
      (csv, at) => edit(csv, at.line, at.cell, (b) => Buffer.concat([b, text(q)])),
    ]),
  fc
    .constantFrom('"open', 'open"', '"a""', '"a"b"')
    .map((q): Mutation => [`unbalanced quotes ${q}`, (csv, at) => edit(csv, at.line, at.cell, () => text(q))]),
  fc
    .constantFrom(';', '\t', '|', '\r', '\n', '\r\n', ',,')
    .map((d): Mutation => [
      `delimiter ${JSON.stringify(d)} in a field`,
      (csv, at) => edit(csv, at.line, at.cell, (b) => Buffer.concat([b, text(d), b])),
    ]),
  fc.constant<Mutation>(['BOM in a field', (csv, at) => edit(csv, at.line, at.cell, (b) => Buffer.concat([BOM, b]))]),
  fc
    .constantFrom(['WTF-8 lone surrogate', WTF8_LONE] as const, ['CESU-8 pair', CESU_PAIR] as const)
    .map(([name, bytes]): Mutation => [
      name,
      (csv, at) => edit(csv, at.line, at.cell, (b) => Buffer.concat([b, bytes])),
    ]),
  fc
    .constantFrom([0xff], [0xfe, 0xff], [0xc3], [0x00], [0xe2, 0x82])
    .map((bytes): Mutation => [
      `bytes ${bytes.join(' ')}`,
      (csv, at) => edit(csv, at.line, at.cell, (b) => Buffer.concat([b, Buffer.from(bytes)])),
    ]),
  fc
    .integer({ min: 1, max: HUGE })
    .map((n): Mutation => [`field of ${n} bytes`, (csv, at) => edit(csv, at.line, at.cell, () => text('x'.repeat(n)))]),
  fc.constantFrom('nickname', '', 'umaAddress', ' city', 'CITY').map((name): Mutation => [
    `header column ${JSON.stringify(name)}`,
    (csv, at) => {
      csv[0][Math.min(at.cell, csv[0].length - 1)] = text(name);
    },
  ]),
  fc.constant<Mutation>([
    'header column missing',
    (csv, at) => {
      csv[0].splice(Math.min(at.cell, csv[0].length - 1), 1);
    },
  ]),
  fc.constantFrom(-2, -1, 1, 3).map((d): Mutation => [
    `row with ${d > 0 ? d : -d} cells ${d > 0 ? 'more' : 'fewer'}`,
    (csv, at) => {
      const l = csv[Math.min(Math.max(1, at.line), csv.length - 1)];
      if (d > 0) l.push(...Array.from({ length: d }, () => text('extra')));
      else l.splice(l.length + d, -d);
    },
  ]),
  fc
    .constantFrom('', ' ', '1990-02-30', 'ALIEN', 'xx', '$')
    .map((v): Mutation => [`value ${JSON.stringify(v)}`, (csv, at) => edit(csv, at.line, at.cell, () => text(v))]),
];

const join = (csv: Csv, delimiter: Buffer, newline: Buffer, bom: boolean) =>
  Buffer.concat([
    ...(bom ? [BOM] : []),
    ...csv.flatMap((line, i) => [
      ...line.flatMap((cell, j) => (j === 0 ? [cell] : [delimiter, cell])),
      ...(i < csv.length - 1 ? [newline] : []),
    ]),
  ]);

/** A mutated CSV file and what was done to it. */
export function mutatedCsv(id: string): fc.Arbitrary<{ fault: string; bytes: Buffer }> {
  const at = fc.record({ line: fc.nat({ max: 4 }), cell: fc.nat({ max: COLUMNS.length - 1 }) });
  return fc
    .tuple(
      fc.integer({ min: 0, max: 4 }),
      fc.array(fc.tuple(fc.oneof(...mutations), at), { minLength: 1, maxLength: 3 }),
      fc.constantFrom(',', ',', ',', ';', '\t'),
      fc.constantFrom('\n', '\r\n', '\r'),
      fc.boolean(),
      fc.boolean(),
      fc.nat(),
    )
    .map(([rows, applied, delimiter, newline, bom, trailingNewline, n]) => {
      const csv: Csv = [COLUMNS.map(text), ...Array.from({ length: rows }, (_, i) => row(n + i, id).map(text))];
      for (const [[, apply], where] of applied) apply(csv, where);
      const bytes = join(csv, text(delimiter), text(newline), bom);
      const names = applied.map(([[name]]) => name);
      if (delimiter !== ',') names.push(`delimiter ${JSON.stringify(delimiter)}`);
      if (bom) names.push('BOM');
      return {
        fault: `csv (${rows} rows): ${names.join('; ')}`,
        bytes: trailingNewline ? Buffer.concat([bytes, text(newline)]) : bytes,
      };
    });
}

const BOUNDARY = 'fuzzCsvBoundary4TbQ2k';

/** The multipart body of an upload of `bytes` as the file field, and its content type. */
export function csvUpload(bytes: Buffer): { body: Uint8Array; contentType: string } {
  const head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="customers.csv"\r\n`;
  return {
    body: Buffer.concat([text(`${head}Content-Type: text/csv\r\n\r\n`), bytes, text(`\r\n--${BOUNDARY}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  };
}
