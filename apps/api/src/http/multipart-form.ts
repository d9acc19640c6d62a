import busboy from 'busboy';
import type { Readable } from 'node:stream';
import { BlobTooLarge, type BlobStore, type StagedBlob } from '#blob-store/blob-store.js';
import type { FieldError } from '#domain/errors.js';
import { ApiError, invalidInput } from './errors.js';
import { unsafeBodyValues } from './json-body.js';
import { nodeRequest, type HttpRequest } from './platform.js';

/** What a form's file part is, decided from its declared type and first bytes. */
export type FileCheck<T extends string> = (
  declared: string | undefined,
  head: Uint8Array,
) => { mediaType: T } | { refused: string };

export interface MultipartOptions<T extends string> {
  blobs: BlobStore;
  /** Largest file accepted; one byte more answers 413. */
  maxFileBytes: number;
  /** Name of the one file part. */
  fileField: string;
  /** What the file is, for messages ("the document", "the CSV file"). */
  fileDescription: string;
  /** How many leading bytes `check` needs. */
  headBytes: number;
  check: FileCheck<T>;
}

export interface ReceivedForm<T extends string> {
  /** Text fields by name (validated by the route's DTO afterwards). */
  fields: Record<string, string>;
  file: { blob: StagedBlob; fileName: string; mediaType: T };
}

/** A request whose multipart body was read: its file is staged, its fields are `req.body`. */
export type RequestWithUpload = HttpRequest & { uploadedFile?: ReceivedForm<string>['file'] };

/**
 * What an Idempotency-Key compares of a request: the JSON body, or for a multipart upload its
 * fields and the file's name, type, size and hash (two uploads of different files differ).
 */
export function requestBodyForKey(req: HttpRequest): unknown {
  const file = (req as RequestWithUpload).uploadedFile;
  if (!file) return req.body ?? null;
  const { fileName, mediaType, blob } = file;
  return { ...(req.body as object), file: { fileName, mediaType, size: blob.size, sha256: blob.sha256 } };
}

/** Room for the text fields and part headers around the file in a request's declared length. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const MAX_FIELDS = 16;
const MAX_FIELD_BYTES = 4096;

export const unsupportedMediaType = (message: string) =>
  new ApiError({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message });

export const fileTooLarge = (maxBytes: number) =>
  new ApiError({
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: `the file is larger than ${maxBytes} bytes`,
    details: { maxFileBytes: maxBytes },
  });

const fieldError = (field: string, constraint: string, message: string): FieldError => ({ field, constraint, message });

const malformed = (message: string) =>
  invalidInput([fieldError('body', 'isMultipart', message)], 'malformed multipart body');

/** A file name as the client gave it, without folders or control characters, at most 255 characters. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const printable = [...base].filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f).join('');
  return printable.trim().slice(0, 255);
}

/** The file part was refused for what it is. */
class Refused extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

/** The file part broke off: a malformed or unfinished form, or a client that went away. */
class PartFailed extends Error {}

/**
 * The one reader of multipart/form-data requests (document uploads, bulk CSV imports). Reads the request: text
 * fields into an object, the one file part streamed
 * straight into the blob store's staging area (hashed on the way, never held in memory), its type
 * decided from its first bytes. A refusal answers in the error shape: no or another content type
 * 415, a file of a refused type 415, a file past the limit 413 (at once when the declared length
 * already says so), a malformed or unfinished form, a missing or second file, too many or too long
 * fields 400. The staged file is the caller's to publish or discard; after a refusal nothing stays
 * staged.
 */
// eslint-disable-next-line max-lines-per-function -- 118 lines, to be split
export async function receiveMultipart<T extends string>(
  req: HttpRequest,
  options: MultipartOptions<T>,
): Promise<ReceivedForm<T>> {
  const mediaType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType !== 'multipart/form-data') {
    throw unsupportedMediaType(`send a multipart/form-data body with the file in the ${options.fileField} part`);
  }
  const declaredLength = Number(req.headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > options.maxFileBytes + FORM_OVERHEAD_BYTES) {
    throw fileTooLarge(options.maxFileBytes);
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      limits: {
        // One byte past the limit is read, so that a file of exactly the limit is not taken as cut off.
        fileSize: options.maxFileBytes + 1,
        files: 1,
        fields: MAX_FIELDS,
        parts: MAX_FIELDS + 1,
        fieldSize: MAX_FIELD_BYTES,
        fieldNameSize: 100,
        headerPairs: 20,
      },
    });
  } catch (error) {
    // A multipart content type without a usable boundary.
    throw malformed((error as Error).message);
  }
  const incoming = nodeRequest(req);
  // eslint-disable-next-line max-lines-per-function -- 84 lines, to be split
  return new Promise<ReceivedForm<T>>((resolve, reject) => {
    const fields: Record<string, string> = {};
    const errors: FieldError[] = [];
    let refusal: ApiError | undefined;
    /** A failure of the service itself (the blob store): answered 500 once the form is read. */
    let broken: unknown;
    let staging: Promise<ReceivedForm<T>['file'] | undefined> | undefined;
    let done = false;

    const refuse = (error: ApiError) => {
      refusal ??= error;
    };
    const finish = async () => {
      if (done) return;
      done = true;
      const file = await staging;
      if (!refusal && !broken && !file && !errors.some((e) => e.field === options.fileField)) {
        const message = `${options.fileField} is required: send ${options.fileDescription} in it`;
        errors.push(fieldError(options.fileField, 'isFile', message));
      }
      const unsafe = unsafeBodyValues(fields);
      const invalid = errors.length + unsafe.length > 0 ? invalidInput([...errors, ...unsafe]) : undefined;
      const failure = refusal ?? broken ?? invalid;
      if (failure) {
        await file?.blob.discard().catch(() => undefined);
        reject(failure);
      } else {
        resolve({ fields, file: file! });
      }
    };

    parser.on('field', (name, value, info) => {
      if (name === options.fileField) {
        errors.push(fieldError(name, 'isFile', `${name} must be a file part (with a filename)`));
      } else if (info.valueTruncated) {
        errors.push(fieldError(name, 'maxLength', `${name} must not be longer than ${MAX_FIELD_BYTES} bytes`));
      } else if (Object.hasOwn(fields, name)) {
        errors.push(fieldError(name, 'isUnique', `${name} must be sent once`));
      } else {
        // defineProperty: a field named __proto__ stays a field (and is refused below), never a prototype.
        Object.defineProperty(fields, name, { value, enumerable: true, configurable: true, writable: true });
      }
    });
    parser.on('file', (name, stream, info) => {
      // A form cut off mid-file errors the part too; the parser's own error and close handlers answer for it, and a
      // part no longer read (refused, or drained) must not turn that into an unhandled error.
      stream.on('error', () => undefined);
      if (name !== options.fileField || staging) {
        const message = staging
          ? 'send one file only'
          : `${name} is not a file field; send the file in ${options.fileField}`;
        errors.push(fieldError(name, 'isFile', message));
        stream.resume();
        return;
      }
      staging = stageFile(stream, info, options).catch((error: unknown) => {
        if (error instanceof Refused) refuse(error.error);
        else if (error instanceof BlobTooLarge) refuse(fileTooLarge(options.maxFileBytes));
        else if (error instanceof PartFailed) refuse(malformed(error.message));
        else broken ??= error;
        // Whatever is left of the part is read and dropped, so that the rest of the form is parsed.
        if (!stream.destroyed) stream.resume();
        return undefined;
      });
    });
    parser.on('filesLimit', () => errors.push(fieldError(options.fileField, 'isFile', 'send one file only')));
    parser.on('fieldsLimit', () => errors.push(fieldError('body', 'maxFields', `send at most ${MAX_FIELDS} fields`)));
    parser.on('partsLimit', () => errors.push(fieldError('body', 'maxParts', `send at most ${MAX_FIELDS + 1} parts`)));
    parser.on('error', (error: Error) => {
      refuse(malformed(error.message));
      incoming.unpipe(parser);
      incoming.resume();
      void finish();
    });
    parser.on('close', () => void finish());
    incoming.on('close', () => {
      if (incoming.complete) return;
      // The client went away or the request timed out: nobody reads the answer, nothing may stay staged.
      refuse(malformed('the request was not sent to its end'));
      parser.destroy();
      void finish();
    });
    incoming.pipe(parser);
  });
}

/** Streams one file part into the blob store while checking its first bytes. */
async function stageFile<T extends string>(
  stream: Readable,
  info: { filename?: string; mimeType?: string },
  options: MultipartOptions<T>,
): Promise<ReceivedForm<T>['file']> {
  let decided: { mediaType: T } | undefined;
  const decide = (head: Uint8Array) => {
    const decision = options.check(info.mimeType, head);
    if ('refused' in decision) throw new Refused(unsupportedMediaType(decision.refused));
    decided = decision;
  };
  async function* inspected(): AsyncGenerator<Uint8Array> {
    let head = Buffer.alloc(0);
    // Not destroyed when the blob store stops early: the part is drained instead (busboy waits on it).
    const chunks = stream.iterator({ destroyOnReturn: false }) as AsyncIterator<Buffer>;
    while (true) {
      let next: IteratorResult<Buffer>;
      try {
        next = await chunks.next();
      } catch (error) {
        throw new PartFailed((error as Error)?.message ?? 'the file part broke off');
      }
      if (next.done) break;
      if (!decided) {
        head = Buffer.concat([head, next.value.subarray(0, options.headBytes - head.length)]);
        if (head.length >= options.headBytes) decide(head);
      }
      yield next.value;
    }
    if (!decided) decide(head);
  }
  const blob = await options.blobs.stage(inspected(), { maxBytes: options.maxFileBytes });
  return { blob, fileName: cleanFileName(info.filename), mediaType: decided!.mediaType };
}
