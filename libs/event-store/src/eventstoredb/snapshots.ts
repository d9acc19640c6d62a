import { randomUUID } from 'node:crypto';
import {
  BACKWARDS,
  END,
  NO_STREAM,
  StreamNotFoundError,
  binaryEvent,
  jsonEvent,
  type AppendExpectedRevision,
  type AppendResult,
  type EventData,
  type EventStoreDBClient,
  type JSONType,
} from '@eventstore/db-client';
import { bytesSource } from '#domain/snapshot-codec.js';
import { consume } from './reads.js';
import { supersedes, type Snapshot, type SnapshotStore, type StoredSnapshot } from '../snapshot-store.js';

/** Bytes of encoded state per chunk event (binary, so no escaping can grow it). */
const CHUNK_BYTES = 256 * 1024;
/** Room left in each append for event framing, metadata and the manifest. */
const APPEND_HEADROOM = 64 * 1024;
/**
 * Event types start with `$`, so `excludeSystemEvents()` keeps them from subscriptions on the server, and the
 * adapter's system check skips them (and their `$snapshot-` stream) in reads of `$all`.
 */
const CHUNK = '$snapshot-chunk';
const MANIFEST = '$snapshot';

/** The last event of a snapshot stream: which chunks (a run of revisions) hold the state, and what the state is. */
interface Manifest {
  snapshotId: string;
  decider: string;
  version: number;
  revision: string;
  eventId: string;
  firstChunk: string;
  chunks: number;
  /** Bytes of JSON state, then `binaryBytes` of the binary part (absent: none), in that order across the chunks. */
  bytes: number;
  binaryBytes?: number;
}

interface ChunkMetadata {
  snapshotId: string;
  seq: number;
}

export const snapshotStreamOf = (streamName: string) => `$snapshot-${streamName}`;

/**
 * Snapshots on EventStoreDB: a `$snapshot-<stream>` stream per stream. The encoded state (its JSON text, then its
 * binary part when it has one) is cut into binary chunk
 * events (an append carries at most `maxAppendBytes`, so a large state takes several appends, each expecting the
 * revision the previous one left: a concurrent writer makes one of the two fail rather than interleave) and closed
 * by a manifest event naming the run of chunks. A reader takes the stream's last event: a manifest whose chunks all
 * carry its id, or no snapshot at all (a write cut short leaves chunks without a manifest until the next one).
 * After a write, `$tb` (truncate before) is moved to the new first chunk so a scavenge drops the older snapshots.
 * The connection's user must be allowed to write `$`-streams ($admins by default; any user on an insecure node).
 */
export class EventStoreDbSnapshotStore implements SnapshotStore {
  constructor(
    private readonly client: EventStoreDBClient,
    private readonly maxAppendBytes: number,
  ) {}

  async readSnapshot(streamName: string): Promise<StoredSnapshot | undefined> {
    const stream = snapshotStreamOf(streamName);
    const last = await this.lastEvent(stream);
    if (!last?.manifest) return undefined;
    const manifest = last.manifest;
    const parts: Uint8Array[] = [];
    let whole = true;
    try {
      const read = this.client.readStream(stream, {
        fromRevision: BigInt(manifest.firstChunk),
        maxCount: manifest.chunks,
      });
      await consume(read, (resolved) => {
        const e = resolved.event;
        const meta = e?.metadata as Partial<ChunkMetadata> | undefined;
        if (!e || e.type !== CHUNK || meta?.snapshotId !== manifest.snapshotId || meta.seq !== parts.length) {
          whole = false;
          return false;
        }
        parts.push(e.data as Uint8Array);
        return true;
      });
    } catch (error) {
      if (error instanceof StreamNotFoundError) return undefined;
      throw error;
    }
    if (!whole || parts.length !== manifest.chunks) return undefined;
    const bytes = Buffer.concat(parts);
    if (bytes.length !== manifest.bytes + (manifest.binaryBytes ?? 0)) return undefined;
    const snapshot: StoredSnapshot = {
      streamName,
      decider: manifest.decider,
      version: manifest.version,
      revision: BigInt(manifest.revision),
      eventId: manifest.eventId,
      state: bytes.toString('utf8', 0, manifest.bytes),
    };
    return manifest.binaryBytes === undefined
      ? snapshot
      : { ...snapshot, binary: bytesSource(bytes.subarray(manifest.bytes)) };
  }

  /** Answers undefined: a restore reads the chunks whole, so the writer keeps its copy of the binary part. */
  async writeSnapshot(snapshot: Snapshot): Promise<undefined> {
    if (typeof snapshot.state !== 'string') throw new TypeError('a snapshot state is JSON text');
    const stream = snapshotStreamOf(snapshot.streamName);
    const last = await this.lastEvent(stream);
    const kept = last?.manifest;
    if (kept && !supersedes(snapshot, { ...kept, revision: BigInt(kept.revision) })) return undefined;
    const snapshotId = randomUUID();
    const text = Buffer.from(snapshot.state, 'utf8');
    const binary = snapshot.binary;
    const bytes = binary ? Buffer.concat([text, binary]) : text;
    const events: EventData[] = [];
    for (let offset = 0, seq = 0; offset < bytes.length || seq === 0; offset += CHUNK_BYTES, seq++) {
      const metadata: ChunkMetadata = { snapshotId, seq };
      events.push(binaryEvent({ type: CHUNK, data: bytes.subarray(offset, offset + CHUNK_BYTES), metadata }));
    }
    const firstChunk = (last ? last.revision : -1n) + 1n;
    const manifest: Manifest = {
      snapshotId,
      decider: snapshot.decider,
      version: snapshot.version,
      revision: snapshot.revision.toString(),
      eventId: snapshot.eventId,
      firstChunk: firstChunk.toString(),
      chunks: events.length,
      bytes: text.length,
      ...(binary ? { binaryBytes: binary.byteLength } : {}),
    };
    events.push(jsonEvent({ type: MANIFEST, data: manifest as unknown as JSONType }));
    const perAppend = Math.max(1, Math.floor((this.maxAppendBytes - APPEND_HEADROOM) / CHUNK_BYTES));
    let expected: AppendExpectedRevision = last ? last.revision : NO_STREAM;
    for (let i = 0; i < events.length; i += perAppend) {
      const result: AppendResult = await this.client.appendToStream(stream, events.slice(i, i + perAppend), {
        expectedRevision: expected,
      });
      expected = result.nextExpectedRevision;
    }
    // Older snapshots become scavengeable; failing to say so only keeps them on disk longer.
    await this.client.setStreamMetadata(stream, { truncateBefore: Number(firstChunk) }).catch(() => undefined);
    return undefined;
  }

  /** The revision of a snapshot stream's last event, with its manifest when it is one. */
  private async lastEvent(stream: string): Promise<{ revision: bigint; manifest?: Manifest } | undefined> {
    let last: { revision: bigint; manifest?: Manifest } | undefined;
    try {
      const read = this.client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 });
      await consume(read, (resolved) => {
        const e = resolved.event;
        if (e)
          last = { revision: e.revision, ...(e.type === MANIFEST ? { manifest: e.data as unknown as Manifest } : {}) };
        return false;
      });
    } catch (error) {
      if (error instanceof StreamNotFoundError) return undefined;
      throw error;
    }
    return last;
  }
}
