import fc from 'fast-check';
import { UNKNOWN_FIELD, type Schema, type SchemaFuzzer } from './openapi-fuzz.js';

/**
 * Bad multipart/form-data bodies for operations that take a form (document uploads): valid text fields and a
 * valid file around exactly one fault the contract refuses, so the only right answer is a 4xx.
 */

const BOUNDARY = 'fuzzFormBoundary7MA4YWxk';
const FILE = '%PDF-1.7 fuzzed document';

type Part = { name: string; value: string; file?: { filename: string; type: string } };

function encode(parts: Part[], closed = true): string {
  const body = parts
    .map((p) => {
      const disposition = p.file
        ? `form-data; name="${p.name}"; filename="${p.file.filename}"\r\nContent-Type: ${p.file.type}`
        : `form-data; name="${p.name}"`;
      return `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n\r\n${p.value}\r\n`;
    })
    .join('');
  return closed ? `${body}--${BOUNDARY}--\r\n` : body;
}

/** A text value the field refuses; every one is a string, as a form sends it. */
function badText(s: Schema): fc.Arbitrary<string> {
  const choices: fc.Arbitrary<string>[] = [fc.constantFrom('\u0000', 'a\u0000b')];
  if (s.enum) choices.push(fc.constantFrom('UNKNOWN_VALUE', 'lowercase', ''));
  if (s.pattern) choices.push(fc.constantFrom('!not-a-match', 'Customer:xyz', ''));
  if (s.maxLength !== undefined)
    choices.push(fc.integer({ min: 1, max: 2000 }).map((n) => 'a'.repeat(s.maxLength! + n)));
  if (s.minLength) choices.push(fc.constant(''));
  return fc.oneof(...choices);
}

export function badForm(
  fuzzer: SchemaFuzzer,
  schema: Schema,
): fc.Arbitrary<{ fault: string; body: string; contentType: string }> {
  const s = fuzzer.resolve(schema);
  const fileField = Object.entries(s.properties ?? {}).find(([, p]) => p.format === 'binary')?.[0] ?? 'file';
  const textFields = Object.keys(s.properties ?? {}).filter((name) => name !== fileField);
  const required = new Set(s.required ?? []);
  const valid = fc.record(
    Object.fromEntries(textFields.map((name) => [name, fuzzer.valid(s.properties![name]).map(String)])),
    { requiredKeys: textFields.filter((name) => required.has(name)) },
  );
  const file: Part = { name: fileField, value: FILE, file: { filename: 'scan.pdf', type: 'application/pdf' } };
  const textParts = (fields: Record<string, string>): Part[] =>
    Object.entries(fields).map(([name, value]) => ({ name, value }));
  type Fault = [string, (fields: Record<string, string>) => string];
  const faults: fc.Arbitrary<Fault>[] = [
    fc.constant<Fault>(['unknown field', (f) => encode([...textParts({ ...f, [UNKNOWN_FIELD]: 'x' }), file])]),
    fc
      .constantFrom('__proto__', 'constructor', 'prototype')
      .map((k): Fault => [`field ${k}`, (f) => encode([{ name: k, value: 'x' }, ...textParts(f), file])]),
    fc.constant<Fault>(['no file', (f) => encode(textParts(f))]),
    fc.constant<Fault>(['file as text', (f) => encode([...textParts(f), { name: fileField, value: FILE }])]),
    fc.constant<Fault>(['two files', (f) => encode([...textParts(f), file, file])]),
    fc.constant<Fault>(['file in another part', (f) => encode([...textParts(f), { ...file, name: 'scan' }])]),
    fc
      .constantFrom(
        ['text/plain', 'hello'],
        ['image/png', FILE],
        ['application/pdf', 'GIF89a'],
        ['application/pdf', ''],
      )
      .map(([type, value]): Fault => [
        `file ${type}`,
        (f) => encode([...textParts(f), { ...file, value, file: { filename: 'x', type } }]),
      ]),
    fc.constant<Fault>(['unfinished form', (f) => encode([...textParts(f), file], false)]),
  ];
  for (const name of textFields) {
    faults.push(
      badText(fuzzer.resolve(s.properties![name])).map((v): Fault => [
        `${name}=${JSON.stringify(v).slice(0, 40)}`,
        (f) => encode([...textParts({ ...f, [name]: v }), file]),
      ]),
    );
    if (required.has(name)) {
      faults.push(
        fc.constant<Fault>([
          `missing ${name}`,
          (f) => encode([...textParts(Object.fromEntries(Object.entries(f).filter(([k]) => k !== name))), file]),
        ]),
      );
    }
    faults.push(
      fc.constant<Fault>([
        `${name} twice`,
        (f) => encode([...textParts(f), { name, value: f[name] ?? 'x' }, { name, value: 'y' }, file]),
      ]),
    );
  }
  return fc.tuple(valid, fc.oneof(...faults)).map(([fields, [fault, build]]) => ({
    fault: `form: ${fault}`,
    body: build(fields),
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  }));
}
