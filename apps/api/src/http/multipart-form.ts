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

/** Checks the request's content type and declared length, and makes the parser of its form. */
function formParser(req: HttpRequest, options: MultipartOptions<string>): busboy.Busboy {
  const mediaType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (mediaType !== 'multipart/form-data') {
    throw unsupportedMediaType(`send a multipart/form-data body with the file in the ${options.fileField} part`);
  }
  const declaredLength = Number(req.headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > options.maxFileBytes + FORM_OVERHEAD_BYTES) {
    throw fileTooLarge(options.maxFileBytes);
  }
  try {
    return busboy({
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
}

/** What is gathered of one form while it is parsed, and the one answer given once it ends. */
class FormReading<T extends string> {
  private readonly fields: Record<string, string> = {};
  private readonly errors: FieldError[] = [];
  private refusal: ApiError | undefined;
  /** A failure of the service itself (the blob store): answered 500 once the form is read. */
  private broken: unknown;
  private staging: Promise<ReceivedForm<T>['file'] | undefined> | undefined;
  private done = false;

  constructor(
    private readonly options: MultipartOptions<T>,
    private readonly resolve: (form: ReceivedForm<T>) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  refuse(error: ApiError): void {
    this.refusal ??= error;
  }

  error(field: string, constraint: string, message: string): void {
    this.errors.push(fieldError(field, constraint, message));
  }

  field(name: string, value: string, truncated: boolean): void {
    if (name === this.options.fileField) {
      this.error(name, 'isFile', `${name} must be a file part (with a filename)`);
    } else if (truncated) {
      this.error(name, 'maxLength', `${name} must not be longer than ${MAX_FIELD_BYTES} bytes`);
    } else if (Object.hasOwn(this.fields, name)) {
      this.error(name, 'isUnique', `${name} must be sent once`);
    } else {
      // defineProperty: a field named __proto__ stays a field (and is refused below), never a prototype.
      Object.defineProperty(this.fields, name, { value, enumerable: true, configurable: true, writable: true });
    }
  }

  file(name: string, stream: Readable, info: { filename?: string; mimeType?: string }): void {
    // A form cut off mid-file errors the part too; the parser's own error and close handlers answer for it, and a
    // part no longer read (refused, or drained) must not turn that into an unhandled error.
    stream.on('error', () => undefined);
    const { fileField, maxFileBytes } = this.options;
    if (name !== fileField || this.staging) {
      this.error(
        name,
        'isFile',
        this.staging ? 'send one file only' : `${name} is not a file field; send the file in ${fileField}`,
      );
      stream.resume();
      return;
    }
    this.staging = stageFile(stream, info, this.options).catch((error: unknown) => {
      if (error instanceof Refused) this.refuse(error.error);
      else if (error instanceof BlobTooLarge) this.refuse(fileTooLarge(maxFileBytes));
      else if (error instanceof PartFailed) this.refuse(malformed(error.message));
      else this.broken ??= error;
      return undefined;
    });
  }

  async finish(): Promise<void> {
    if (this.done) return;
    this.done = true;
    const { fileField, fileDescription } = this.options;
    const file = await this.staging;
    if (!this.refusal && !this.broken && !file && !this.errors.some((e) => e.field === fileField)) {
      this.error(fileField, 'isFile', `${fileField} is required: send ${fileDescription} in it`);
    }
    const unsafe = unsafeBodyValues(this.fields);
    const invalid = this.errors.length + unsafe.length > 0 ? invalidInput([...this.errors, ...unsafe]) : undefined;
    const failure = this.refusal ?? this.broken ?? invalid;
    if (failure) {
      await file?.blob.discard().catch(() => undefined);
      this.reject(failure);
    } else {
      this.resolve({ fields: this.fields, file: file! });
    }
  }
}

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
export async function receiveMultipart<T extends string>(
  req: HttpRequest,
  options: MultipartOptions<T>,
): Promise<ReceivedForm<T>> {
  const parser = formParser(req, options);
  const incoming = nodeRequest(req);
  return new Promise<ReceivedForm<T>>((resolve, reject) => {
    const form = new FormReading(options, resolve, reject);
    parser.on('field', (name, value, info) => form.field(name, value, info.valueTruncated));
    parser.on('file', (name, stream, info) => form.file(name, stream, info));
    parser.on('filesLimit', () => form.error(options.fileField, 'isFile', 'send one file only'));
    parser.on('fieldsLimit', () => form.error('body', 'maxFields', `send at most ${MAX_FIELDS} fields`));
    parser.on('partsLimit', () => form.error('body', 'maxParts', `send at most ${MAX_FIELDS + 1} parts`));
    parser.on('error', (error: Error) => {
      form.refuse(malformed(error.message));
      incoming.unpipe(parser);
      incoming.resume();
      void form.finish();
    });
    parser.on('close', () => void form.finish());
    incoming.on('close', () => {
      if (incoming.complete) return;
      // The client went away or the request timed out: nobody reads the answer, nothing may stay staged.
      form.refuse(malformed('the request was not sent to its end'));
      parser.destroy();
      void form.finish();
    });
    incoming.pipe(parser);
  });
}

/**
 * Streams one file part into the blob store while checking its first bytes. When staging stops early (a refused
 * type, a file past the limit, a failing store), what is left of the part is read through the same iterator and
 * dropped: the parser finishes the form only once its file part has ended, and `resume()` on a stream an iterator
 * has listened to may leave it paused (on Node 24 it did, now and then, and the request never got its answer).
 */
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
  // Not destroyed when the blob store stops early: the part is drained instead.
  const chunks = stream.iterator({ destroyOnReturn: false }) as AsyncIterator<Buffer>;
  async function* inspected(): AsyncGenerator<Uint8Array> {
    let head = Buffer.alloc(0);
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
  try {
    const blob = await options.blobs.stage(inspected(), { maxBytes: options.maxFileBytes });
    return { blob, fileName: cleanFileName(info.filename), mediaType: decided!.mediaType };
  } catch (error) {
    void drain(chunks);
    throw error;
  }
}

/** Reads an iterator to its end, dropping what it gives; a part that broke off is the parser's to answer for. */
async function drain(chunks: AsyncIterator<unknown>): Promise<void> {
  try {
    while (!(await chunks.next()).done);
  } catch {
    // the parser's error and close handlers answer
  }
}
