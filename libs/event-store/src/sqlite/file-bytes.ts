import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { checkRange, type ByteSource } from '#domain/snapshot-codec.js';

/** Closes the descriptor of a source nothing references any more. */
const descriptors = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed: nothing to release
  }
});

/**
 * A file's bytes read by range, with positioned reads on a descriptor opened once: the file may be removed or renamed
 * over meanwhile (a newer snapshot replaces it) and the descriptor still reads the bytes it opened. The descriptor is
 * closed once the source is no longer referenced. Undefined when the file is not `expectedBytes` long; throws when it
 * cannot be opened.
 */
export function fileBytes(path: string, expectedBytes: number): ByteSource | undefined {
  const fd = openSync(path, 'r');
  const byteLength = fstatSync(fd).size;
  if (byteLength !== expectedBytes) {
    closeSync(fd);
    return undefined;
  }
  const source: ByteSource = {
    byteLength,
    read(offset: number, length: number): Uint8Array {
      checkRange(offset, length, byteLength);
      const out = Buffer.allocUnsafe(length);
      for (let got = 0; got < length;) {
        const n = readSync(fd, out, got, length - got, offset + got);
        if (n === 0) throw new Error(`file ended at ${offset + got} of ${byteLength} bytes`);
        got += n;
      }
      return out;
    },
  };
  descriptors.register(source, fd);
  return source;
}
