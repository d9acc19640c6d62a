import { mkdtempSync, readdirSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { open as openFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { BlobCorrupted } from './blob-store.js';
import { blobStoreContract, readAll, sha256Of } from './blob-store.contract.js';
import { FsBlobStore } from './fs-blob-store.js';
import { createBlobStore } from './index.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'blobs-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

blobStoreContract('fs', async () => new FsBlobStore(tempDir()));

const files = (dir: string) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());

describe('FsBlobStore on disk', () => {
  it('writes atomically: bytes in flight stay in staging; the object appears whole at publish', async () => {
    const root = tempDir();
    const s = new FsBlobStore(root);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let firstWritten!: () => void;
    const started = new Promise<void>((resolve) => (firstWritten = resolve));
    async function* slow() {
      yield Buffer.alloc(64 * 1024, 1);
      firstWritten();
      await gate;
      yield Buffer.alloc(64 * 1024, 2);
    }
    const staging = s.stage(slow(), { maxBytes: 1 << 20 });
    await started;
    expect(files(join(root, 'objects'))).toEqual([]);
    expect(files(join(root, 'staging'))).toHaveLength(1);
    release();
    const staged = await staging;
    expect(files(join(root, 'objects'))).toEqual([]);
    await staged.publish();
    expect(files(join(root, 'staging'))).toEqual([]);
    const path = s.objectPath(staged.sha256);
    expect(path).toBe(join(root, 'objects', staged.sha256.slice(0, 2), staged.sha256));
    expect(statSync(path).size).toBe(128 * 1024);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('leaves no staging file behind when the content is too large or the source fails', async () => {
    const root = tempDir();
    const s = new FsBlobStore(root);
    await expect(s.stage([Buffer.alloc(2048)], { maxBytes: 1024 })).rejects.toThrow('larger than 1024 bytes');
    async function* broken() {
      yield Buffer.alloc(10);
      throw new Error('reset');
    }
    await expect(s.stage(broken(), { maxBytes: 1024 })).rejects.toThrow('reset');
    expect(files(root)).toEqual([]);
  });

  it('leaves no staging file behind when the source fails on its first chunk, before the file is open', async () => {
    const root = tempDir();
    const s = new FsBlobStore(root);
    async function* refused() {
      throw new Error('not a PDF');
      yield Buffer.alloc(0);
    }
    // Many at once, so that the file system's thread pool finishes their opens and unlinks in any order.
    const failures = Array.from({ length: 100 }, (_, i) =>
      i % 2 ? s.stage(refused(), { maxBytes: 1024 }) : s.stage([Buffer.alloc(2048)], { maxBytes: 1024 }),
    );
    for (const failure of await Promise.allSettled(failures)) expect(failure.status).toBe('rejected');
    expect(files(root)).toEqual([]);
  });

  it('verifies the checksum on read: a changed byte fails the stream at its end', async () => {
    const s = new FsBlobStore(tempDir());
    const bytes = Buffer.alloc(300_000, 7);
    const staged = await s.stage([bytes], { maxBytes: bytes.length });
    await staged.publish();
    const file = await openFile(s.objectPath(staged.sha256), 'r+');
    await file.write(Buffer.from([8]), 0, 1, 150_000);
    await file.close();
    const stream = (await s.open(staged))!;
    const failure = await readAll(stream).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BlobCorrupted);
    expect((failure as BlobCorrupted).sha256).toBe(staged.sha256);
  });

  it('verifies the length before serving: a truncated file fails at once', async () => {
    const s = new FsBlobStore(tempDir());
    const bytes = Buffer.from('four score and seven years ago');
    const staged = await s.stage([bytes], { maxBytes: 1024 });
    await staged.publish();
    truncateSync(s.objectPath(staged.sha256), 10);
    await expect(s.open(staged)).rejects.toBeInstanceOf(BlobCorrupted);
  });

  it('recovers after a crash: drops stale staging files, puts back content left aside by an erase', async () => {
    const root = tempDir();
    const s = new FsBlobStore(root);
    const bytes = Buffer.from('left aside');
    const sha = sha256Of(bytes);
    const old = Date.now() / 1000 - 7200;
    writeFileSync(join(root, 'staging', 'stale-upload'), 'half');
    utimesSync(join(root, 'staging', 'stale-upload'), old, old);
    writeFileSync(join(root, 'staging', 'upload-in-flight'), 'half');
    writeFileSync(join(root, 'erasing', `${sha}.crashed`), bytes);
    utimesSync(join(root, 'erasing', `${sha}.crashed`), old, old);
    await s.recover({ staleAfterMs: 3_600_000 });
    expect(readdirSync(join(root, 'staging'))).toEqual(['upload-in-flight']);
    expect(readdirSync(join(root, 'erasing'))).toEqual([]);
    expect(await readAll((await s.open({ sha256: sha, size: bytes.length }))!)).toEqual(bytes);
  });

  it('is what the configuration selects, recovering at start', async () => {
    const root = tempDir();
    const s = await createBlobStore({ kind: 'fs', path: root });
    expect(s).toBeInstanceOf(FsBlobStore);
    expect(statSync(join(root, 'objects')).mode & 0o777).toBe(0o700);
    await s.close();
  });
});
