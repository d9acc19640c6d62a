import { expect } from '@jest/globals';
import { createHash } from 'node:crypto';
import type { Client, Reply } from '../support/service.js';
import { uniqueValue } from '../support/sequence.js';

/** Fixtures of the document end-to-end tests: files of each accepted format, forms, and streamed forms. */

const SIGNATURES = {
  pdf: Buffer.from('%PDF-1.7\n'),
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  jpeg: Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
};
export type Format = keyof typeof SIGNATURES;
export const MEDIA_TYPES: Record<Format, string> = { pdf: 'application/pdf', png: 'image/png', jpeg: 'image/jpeg' };

/** A file of `size` bytes that starts like the format and differs from others by `seed`. */
export function fileOf(format: Format, size = 2048, seed = uniqueValue('file')): Buffer {
  const body = Buffer.alloc(Math.max(0, size - SIGNATURES[format].length), seed);
  return Buffer.concat([SIGNATURES[format], body]).subarray(0, size);
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export interface FilePart {
  bytes: Uint8Array;
  name?: string;
  /** The part's Content-Type; the format's by default. */
  type?: string;
}

/** A multipart form: text fields, then the file in the `file` part. */
export function form(fields: Record<string, string>, file?: FilePart | null, fileField = 'file'): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  if (file) {
    data.append(
      fileField,
      new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type ?? '' }),
      file.name ?? 'scan.pdf',
    );
  }
  return data;
}

export const pdfPart = (bytes = fileOf('pdf'), name = 'passport.pdf'): FilePart => ({
  bytes,
  name,
  type: 'application/pdf',
});

/**
 * A multipart body of `fields` and a file of `size` bytes in the format, generated as it is sent (64 KiB at a time,
 * never held whole) and sent without Content-Length. `digest()` is the file's SHA-256 once it was all sent.
 */
export function streamedForm(fields: Record<string, string>, format: Format, size: number) {
  const boundary = `----documents-test-${uniqueValue('boundary')}`;
  const hash = createHash('sha256');
  const CHUNK = 64 * 1024;
  async function* body(): AsyncGenerator<Uint8Array> {
    for (const [name, value] of Object.entries(fields)) {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    }
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.${format}"\r\n` +
        `Content-Type: ${MEDIA_TYPES[format]}\r\n\r\n`,
    );
    const signature = SIGNATURES[format];
    for (let sent = 0; sent < size;) {
      const length = Math.min(CHUNK, size - sent);
      const chunk = Buffer.alloc(length, sent / CHUNK);
      if (sent === 0) signature.copy(chunk, 0, 0, Math.min(signature.length, length));
      hash.update(chunk);
      sent += length;
      yield chunk;
    }
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return {
    body: body(),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    digest: () => hash.digest('hex'),
  };
}

/** A customer of the client's platform, to hold documents. */
export async function holder(api: Client): Promise<string> {
  const res = await api.post('/customers', {
    customerType: 'INDIVIDUAL',
    platformCustomerId: uniqueValue('doc-holder'),
    fullName: 'Dana Holder',
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

export const passportFields = (documentHolder: string, extra: Record<string, string> = {}) => ({
  documentHolder,
  documentType: 'PASSPORT',
  country: 'US',
  ...extra,
});

export async function upload(
  api: Client,
  fields: Record<string, string>,
  /** null: no file part at all. */
  file: FilePart | null = pdfPart(),
  headers: Record<string, string> = {},
): Promise<Reply> {
  return api.request('POST', '/documents', form(fields, file), headers);
}

/** Downloads a document's file and returns it with the response. */
export async function download(api: Client, id: string): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const res = await api.get(`/documents/${id}/content`);
  return { status: res.status, bytes: res.bytes!, headers: res.headers };
}
