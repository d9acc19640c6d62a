import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from '@jest/globals';
import { BlobTooLarge, type BlobStore } from './blob-store.js';

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `count` chunks of `chunkSize` bytes, each filled with its index: content that is cheap to describe. */
export async function* chunks(count: number, chunkSize: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < count; i++) yield Buffer.alloc(chunkSize, i % 251);
}

/** What every BlobStore adapter must do; `make` returns a fresh, empty store. */
export function blobStoreContract(name: string, make: () => Promise<BlobStore>): void {
  describe(`BlobStore contract: ${name}`, () => {
    const open: BlobStore[] = [];
    const store = async () => {
      const s = await make();
      open.push(s);
      return s;
    };
    afterEach(async () => {
      for (const s of open.splice(0)) await s.close();
    });

    it('stages while hashing, and serves the content under its hash only once published', async () => {
      const s = await store();
      const bytes = Buffer.from('%PDF-1.7 a small document');
      const staged = await s.stage([bytes], { maxBytes: 1024 });
      expect({ sha256: staged.sha256, size: staged.size }).toEqual({ sha256: sha256Of(bytes), size: bytes.length });
      expect(await s.open(staged)).toBeUndefined();
      await staged.publish();
      await staged.publish();
      expect(await readAll((await s.open(staged))!)).toEqual(bytes);
    });

    it('hashes content arriving in many chunks as one', async () => {
      const s = await store();
      const staged = await s.stage(chunks(40, 4096), { maxBytes: 40 * 4096 });
      await staged.publish();
      const read = await readAll((await s.open(staged))!);
      expect(read.length).toBe(40 * 4096);
      expect(sha256Of(read)).toBe(staged.sha256);
    });

    it('reads staged content back to its uploader until it is published or discarded', async () => {
      const s = await store();
      const bytes = Buffer.from('name,amount\nA,1\n');
      const staged = await s.stage([bytes], { maxBytes: 1024 });
      expect(await readAll(staged.read())).toEqual(bytes);
      expect(await readAll(staged.read())).toEqual(bytes);
      await staged.discard();
      expect(() => staged.read()).toThrow();
    });

    it('discards staged content: it never becomes readable', async () => {
      const s = await store();
      const staged = await s.stage([Buffer.from('draft')], { maxBytes: 1024 });
      await staged.discard();
      await staged.discard();
      await staged.publish();
      expect(await s.open(staged)).toBeUndefined();
    });

    it('refuses content past maxBytes with BlobTooLarge; exactly maxBytes is accepted', async () => {
      const s = await store();
      await expect(s.stage(chunks(3, 1000), { maxBytes: 2999 })).rejects.toBeInstanceOf(BlobTooLarge);
      const exact = await s.stage(chunks(3, 1000), { maxBytes: 3000 });
      expect(exact.size).toBe(3000);
      await exact.discard();
    });

    it('passes on a failing source and keeps nothing of it', async () => {
      const s = await store();
      async function* broken() {
        yield Buffer.from('half of it');
        throw new Error('client went away');
      }
      await expect(s.stage(broken(), { maxBytes: 1024 })).rejects.toThrow('client went away');
      expect(await s.open({ sha256: sha256Of(Buffer.from('half of it')), size: 10 })).toBeUndefined();
    });

    it('publishing the same content twice keeps one readable copy', async () => {
      const s = await store();
      const bytes = Buffer.from('same bytes');
      const one = await s.stage([bytes], { maxBytes: 1024 });
      const two = await s.stage([bytes], { maxBytes: 1024 });
      await one.publish();
      await two.publish();
      expect(await readAll((await s.open(one))!)).toEqual(bytes);
    });

    it('erases content nothing refers to, and keeps content something refers to', async () => {
      const s = await store();
      const kept = await s.stage([Buffer.from('kept')], { maxBytes: 1024 });
      const gone = await s.stage([Buffer.from('gone')], { maxBytes: 1024 });
      await kept.publish();
      await gone.publish();
      expect(await s.erase(kept.sha256, async () => false)).toBe(false);
      expect(await readAll((await s.open(kept))!)).toEqual(Buffer.from('kept'));
      expect(await s.erase(gone.sha256, async () => true)).toBe(true);
      expect(await s.open(gone)).toBeUndefined();
      expect(await s.erase(gone.sha256, async () => true)).toBe(false);
    });

    it('puts content back when the reference check fails', async () => {
      const s = await store();
      const staged = await s.stage([Buffer.from('precious')], { maxBytes: 1024 });
      await staged.publish();
      await expect(
        s.erase(staged.sha256, async () => {
          throw new Error('event store unavailable');
        }),
      ).rejects.toThrow('event store unavailable');
      expect(await readAll((await s.open(staged))!)).toEqual(Buffer.from('precious'));
    });

    it('content published again while an erase checks its references survives the erase', async () => {
      const s = await store();
      const bytes = Buffer.from('uploaded twice');
      const first = await s.stage([bytes], { maxBytes: 1024 });
      await first.publish();
      const again = await s.stage([bytes], { maxBytes: 1024 });
      // The check says nothing refers to it, but a new upload publishes it before the erase ends.
      const erased = await s.erase(first.sha256, async () => {
        expect(await s.open(first)).toBeUndefined();
        await again.publish();
        return true;
      });
      expect(erased).toBe(true);
      expect(await readAll((await s.open(first))!)).toEqual(bytes);
    });
  });
}
