import type { Readable } from 'node:stream';

/**
 * The blob-store port: immutable content addressed by its SHA-256 (lowercase hex), for uploaded
 * documents. Content is written in two steps so that nothing half-written is ever readable and the
 * application decides when it becomes visible: `stage` streams the bytes into a private staging
 * area while hashing and counting them (memory does not grow with the size), `publish` makes the
 * staged bytes readable under their hash in one atomic step, `discard` drops them. Publishing
 * content that is already there is harmless: the bytes are the same.
 *
 * The shape fits a file system (staging file, fsync, rename) as well as an S3-compatible object
 * store (upload to a staging key, copy to the hash key, delete the staging key).
 */
export interface BlobRef {
  /** SHA-256 of the content, 64 lowercase hex characters. */
  sha256: string;
  /** Length in bytes. */
  size: number;
}

export interface StagedBlob extends BlobRef {
  /**
   * The staged bytes, for a caller that inspects them before deciding (a CSV checked whole before it is
   * accepted). Fails once the blob is published or discarded.
   */
  read(): Readable;
  /** Makes the content readable under its hash (atomic, durable when it resolves). */
  publish(): Promise<void>;
  /** Drops the staged bytes; a no-op after `publish` or a first `discard`. */
  discard(): Promise<void>;
}

export interface StageOptions {
  /** Most bytes accepted; one more fails the stage with BlobTooLarge and leaves nothing behind. */
  maxBytes: number;
}

export interface BlobStore {
  /** Streams `source` into the staging area, hashing it; the source is consumed with backpressure. */
  stage(source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, options: StageOptions): Promise<StagedBlob>;
  /**
   * The published content, or undefined when there is none under that hash. A stored length other
   * than `ref.size` fails at once with BlobCorrupted; the stream is hashed as it is read and fails
   * with BlobCorrupted at its end when the bytes do not match `ref.sha256`.
   */
  open(ref: BlobRef): Promise<Readable | undefined>;
  /**
   * Removes published content once nothing refers to it. The content is first moved out of reach,
   * then `unreferenced` is asked: true removes it for good, false puts it back (someone referred to
   * it meanwhile). Content published again after the move is left alone. Resolves true when
   * content was removed.
   */
  erase(sha256: string, unreferenced: () => Promise<boolean>): Promise<boolean>;
  close(): Promise<void>;
}

/** The source had more bytes than `maxBytes`. */
export class BlobTooLarge extends Error {
  override readonly name = 'BlobTooLarge';
  constructor(readonly maxBytes: number) {
    super(`the content is larger than ${maxBytes} bytes`);
  }
}

/** Stored bytes that do not match their hash or length: the store was damaged outside the service. */
export class BlobCorrupted extends Error {
  override readonly name = 'BlobCorrupted';
  constructor(
    readonly sha256: string,
    detail: string,
  ) {
    super(`stored content ${sha256} is corrupted: ${detail}`);
  }
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;
