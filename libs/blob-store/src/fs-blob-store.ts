import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, mkdirSync } from 'node:fs';
import { link, mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline, Transform, type Readable } from 'node:stream';
import { pipeline as pipelineAsync } from 'node:stream/promises';
import {
  BlobCorrupted,
  BlobTooLarge,
  SHA256_HEX,
  type BlobRef,
  type BlobStore,
  type StagedBlob,
  type StageOptions,
} from './blob-store.js';

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException)?.code;

function assertHash(sha256: string): void {
  if (!SHA256_HEX.test(sha256)) throw new TypeError(`not a SHA-256 in lowercase hex: ${sha256}`);
}

/** Makes a directory's entries (a rename, a new file, an unlink) durable. */
async function syncDir(path: string): Promise<void> {
  const dir = await open(path, 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

/**
 * The embedded blob store: files under one directory (`<DATA_DIR>/documents` by default).
 *
 * - `staging/<uuid>`: content being received. Written through a hash, fsynced; read back only by its uploader.
 * - `objects/<first two hex>/<sha256>`: published content, renamed in from staging (atomic on
 *   one file system) and its directory fsynced, so a crash leaves either the whole file or none.
 * - `erasing/<sha256>.<uuid>`: content moved aside by `erase` while it asks whether it is still
 *   referred to.
 *
 * Files are created with mode 0600 and directories 0700: documents are personal data.
 */
export class FsBlobStore implements BlobStore {
  private readonly staging: string;
  private readonly objects: string;
  private readonly erasing: string;

  constructor(readonly root: string) {
    this.staging = join(root, 'staging');
    this.objects = join(root, 'objects');
    this.erasing = join(root, 'erasing');
    for (const dir of [root, this.staging, this.objects, this.erasing])
      mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** Where published content lives (tests damage it there on purpose). */
  objectPath(sha256: string): string {
    assertHash(sha256);
    return join(this.objects, sha256.slice(0, 2), sha256);
  }

  async stage(
    source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
    { maxBytes }: StageOptions,
  ): Promise<StagedBlob> {
    const path = join(this.staging, randomUUID());
    const hash = createHash('sha256');
    let size = 0;
    // The file exists before any byte is read, so that a failure at any point removes it (a stream that
    // opened it lazily could create it after the cleanup).
    const file = await open(path, 'wx', 0o600);
    try {
      await pipelineAsync(
        source,
        async function* measure(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>) {
          for await (const chunk of chunks) {
            size += chunk.length;
            if (size > maxBytes) throw new BlobTooLarge(maxBytes);
            hash.update(chunk);
            yield chunk;
          }
        },
        file.createWriteStream(),
      );
      // The stream closed the file; fsync applies to the file, whichever descriptor asks for it.
      const written = await open(path, 'r');
      try {
        await written.sync();
      } finally {
        await written.close();
      }
    } catch (error) {
      await file.close().catch(() => undefined);
      await unlink(path).catch(() => undefined);
      throw error;
    }
    return this.staged(path, hash.digest('hex'), size);
  }

  private staged(path: string, sha256: string, size: number): StagedBlob {
    let finished = false;
    return {
      sha256,
      size,
      read: () => {
        if (finished) throw new Error(`staged content ${sha256} was already published or discarded`);
        return createReadStream(path);
      },
      publish: async () => {
        if (finished) return;
        const target = this.objectPath(sha256);
        const dir = join(this.objects, sha256.slice(0, 2));
        const created = await mkdir(dir, { recursive: true, mode: 0o700 });
        if (created) await syncDir(this.objects);
        // Replacing content that is already there swaps in the same bytes.
        await rename(path, target);
        await syncDir(dir);
        finished = true;
      },
      discard: async () => {
        if (finished) return;
        finished = true;
        await unlink(path).catch((error) => {
          if (codeOf(error) !== 'ENOENT') throw error;
        });
      },
    };
  }

  async open(ref: BlobRef): Promise<Readable | undefined> {
    const path = this.objectPath(ref.sha256);
    let file;
    try {
      file = await open(path, 'r');
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return undefined;
      throw error;
    }
    const { size } = await file.stat();
    if (size !== ref.size) {
      await file.close();
      throw new BlobCorrupted(ref.sha256, `${size} bytes stored where ${ref.size} were written`);
    }
    const hash = createHash('sha256');
    const verify = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done(null, chunk);
      },
      flush(done) {
        const actual = hash.digest('hex');
        done(actual === ref.sha256 ? null : new BlobCorrupted(ref.sha256, `the bytes hash to ${actual}`));
      },
    });
    // pipeline forwards a failure of either side to the other: a reader that goes away closes the file.
    return pipeline(file.createReadStream(), verify, () => undefined);
  }

  async erase(sha256: string, unreferenced: () => Promise<boolean>): Promise<boolean> {
    const target = this.objectPath(sha256);
    const aside = join(this.erasing, `${sha256}.${randomUUID()}`);
    try {
      await rename(target, aside);
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return false;
      throw error;
    }
    let gone: boolean;
    try {
      gone = await unreferenced();
    } catch (error) {
      await this.restore(aside, sha256);
      throw error;
    }
    if (!gone) {
      await this.restore(aside, sha256);
      return false;
    }
    await unlink(aside);
    await syncDir(this.erasing);
    return true;
  }

  /** Puts content moved aside back, unless the same content was published again meanwhile. */
  private async restore(aside: string, sha256: string): Promise<void> {
    const dir = join(this.objects, sha256.slice(0, 2));
    await mkdir(dir, { recursive: true, mode: 0o700 });
    try {
      await link(aside, this.objectPath(sha256));
    } catch (error) {
      if (codeOf(error) !== 'EEXIST') throw error;
    }
    await syncDir(dir);
    await unlink(aside);
  }

  /**
   * After a crash: staged files older than `staleAfterMs` are dropped (their uploads were never
   * answered), and content left aside by an interrupted erase is put back (erasing it would need
   * the answer that was never given; keeping it is the safe side). Younger files may belong to
   * another process sharing the directory and are left alone.
   */
  async recover({ staleAfterMs, now = Date.now() }: { staleAfterMs: number; now?: number }): Promise<void> {
    const stale = async (path: string) => {
      try {
        return now - (await stat(path)).mtimeMs >= staleAfterMs;
      } catch {
        return false;
      }
    };
    for (const name of await readdir(this.staging)) {
      const path = join(this.staging, name);
      if (await stale(path)) await unlink(path).catch(() => undefined);
    }
    for (const name of await readdir(this.erasing)) {
      const path = join(this.erasing, name);
      const sha256 = name.split('.')[0];
      if (SHA256_HEX.test(sha256) && (await stale(path))) await this.restore(path, sha256);
    }
  }

  async close(): Promise<void> {}
}
