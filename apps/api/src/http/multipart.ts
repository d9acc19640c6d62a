import busboy from 'busboy';
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request } from 'express';
import { ApiError, invalidInput } from './errors.js';

/** A file received with a multipart upload, stored whole in a file of its own (never in memory). */
export interface ReceivedFile {
  path: string;
  /** SHA-256 of its bytes, hex: what identifies the upload for Idempotency-Key. */
  sha256: string;
  bytes: number;
  filename?: string;
  /** Removes the stored file. */
  discard(): void;
}

export interface UploadOptions {
  /** The form field that carries the file. */
  field: string;
  maxBytes: number;
  /** Directory the file is written to (created when missing). */
  dir: string;
}

const MULTIPART = /^multipart\/form-data\b/i;

const unsupported = () =>
  new ApiError({
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'send the file as multipart/form-data',
  });

const fieldError = (field: string, constraint: string, message: string) =>
  invalidInput([{ field, constraint, message }], message);

/** Whether a request carries a multipart body (the JSON-only rule lets these through to the upload routes). */
export const isMultipart = (req: Request) => MULTIPART.test(req.headers['content-type'] ?? '');

/**
 * Streams one file of a `multipart/form-data` request to disk while hashing it. Refuses, with the
 * file removed: another content type (415), a body that is not valid multipart, no file in
 * `field`, other fields or a second file (400), a file over `maxBytes` (413).
 */
export function receiveFile(req: Request, options: UploadOptions): Promise<ReceivedFile> {
  if (!isMultipart(req)) return Promise.reject(unsupported());
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      limits: { files: 1, fields: 0, fileSize: options.maxBytes },
    });
  } catch {
    return Promise.reject(fieldError('body', 'isMultipart', 'the multipart body has no boundary'));
  }
  mkdirSync(options.dir, { recursive: true });
  const path = join(options.dir, `${randomUUID()}.upload`);
  const discard = () => rmSync(path, { force: true });
  return new Promise<ReceivedFile>((resolve, reject) => {
    let refusal: ApiError | undefined;
    let saved: Promise<ReceivedFile> | undefined;
    const refuse = (error: ApiError) => (refusal ??= error);
    parser.on('file', (name, file, info) => {
      if (name !== options.field) {
        refuse(fieldError(name, 'unknownField', `the form has no field ${name}; send the file as ${options.field}`));
        file.resume();
        return;
      }
      const hash = createHash('sha256');
      let bytes = 0;
      const hashing = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          bytes += chunk.length;
          done(null, chunk);
        },
      });
      file.on('limit', () =>
        refuse(
          new ApiError({
            status: 413,
            code: 'PAYLOAD_TOO_LARGE',
            message: `the file is larger than ${options.maxBytes} bytes`,
          }),
        ),
      );
      saved = pipeline(file, hashing, createWriteStream(path)).then(() => ({
        path,
        sha256: hash.digest('hex'),
        bytes,
        ...(info.filename ? { filename: info.filename } : {}),
        discard,
      }));
      // Failures are reported once the whole body was read (`close`).
      saved.catch(() => undefined);
    });
    parser.on('field', (name) => refuse(fieldError(name, 'unknownField', `send only the file, as ${options.field}`)));
    parser.on('filesLimit', () => refuse(fieldError(options.field, 'maxFiles', 'send one file')));
    parser.on('fieldsLimit', () => refuse(fieldError('body', 'maxFields', `send only the file, as ${options.field}`)));
    const fail = (error: unknown) => {
      req.unpipe(parser);
      req.resume();
      void (saved ?? Promise.resolve())
        .catch(() => undefined)
        .then(() => {
          discard();
          reject(error);
        });
    };
    parser.on('error', (error: Error) =>
      fail(refusal ?? fieldError('body', 'isMultipart', `the multipart body is not valid: ${error.message}`)),
    );
    parser.on('close', () => {
      if (refusal) return fail(refusal);
      if (!saved) return fail(fieldError(options.field, 'isRequired', `the form needs the file as ${options.field}`));
      saved.then(resolve, (error: unknown) => fail(error));
    });
    req.on('aborted', () => fail(fieldError('body', 'isComplete', 'the upload was interrupted')));
    req.pipe(parser);
  });
}

/** Removes uploads left behind by a process that died while reading one (older than `maxAgeMs`). */
export function removeStaleUploads(dir: string, maxAgeMs: number, now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.endsWith('.upload')) continue;
    const file = join(dir, name);
    try {
      if (now - statSync(file).mtimeMs > maxAgeMs) rmSync(file, { force: true });
    } catch {
      // removed meanwhile
    }
  }
}
