import { createHash } from 'node:crypto';
import { canonicalJson } from '#domain/primitives.js';
import type { EventMetadata } from './event-store.js';

/**
 * The per-stream hash chain (design.md "Audit"): each event's metadata carries `prevHash` (the previous event's
 * hash, 64 zeros for revision 0) and `hash` = sha256(prevHash || canonical JSON of {stream, revision, type, data,
 * metadata without hash/prevHash}). Hashes are taken over the stored (JSON round-tripped) form, so a reader
 * recomputes exactly what the writer hashed.
 */
export const GENESIS_HASH = '0'.repeat(64);

export interface ChainedFields {
  streamName: string;
  revision: bigint;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

/** Metadata as hashed: without the chain's own fields. */
function hashedMetadata(metadata: EventMetadata): EventMetadata {
  const { hash: _hash, prevHash: _prevHash, ...rest } = metadata;
  return rest;
}

export function eventHash(prevHash: string, event: ChainedFields): string {
  const body = canonicalJson({
    stream: event.streamName,
    revision: Number(event.revision),
    type: event.type,
    data: event.data ?? {},
    metadata: hashedMetadata(event.metadata ?? {}),
  });
  return createHash('sha256').update(prevHash).update(body).digest('hex');
}

/** The metadata to store for an event: its own fields plus the chain link. */
export function chainMetadata(prevHash: string, event: ChainedFields): EventMetadata {
  const metadata = hashedMetadata(event.metadata ?? {});
  return { ...metadata, prevHash, hash: eventHash(prevHash, { ...event, metadata }) };
}

/** The hash an event carries, or the genesis hash before the first event of a stream. */
export function hashOf(metadata: EventMetadata | undefined): string | undefined {
  const hash = metadata?.hash;
  return typeof hash === 'string' ? hash : undefined;
}

export interface ChainBreak {
  streamName: string;
  revision: bigint;
  reason: string;
}

/**
 * Checks one stream's events (in revision order, from revision 0 unless `prevHash` is given for the event before
 * the first one): returns the first broken revision, or undefined when the chain holds. A changed event fails its
 * own hash; a removed or reordered one fails the revision sequence or the next event's prevHash.
 */
export function verifyChain(
  events: readonly ChainedFields[],
  start: { revision: bigint; prevHash: string } = { revision: 0n, prevHash: GENESIS_HASH },
): ChainBreak | undefined {
  let expectedRevision = start.revision;
  let prevHash = start.prevHash;
  for (const event of events) {
    const at = (reason: string): ChainBreak => ({ streamName: event.streamName, revision: event.revision, reason });
    if (event.revision !== expectedRevision)
      return at(`expected revision ${expectedRevision}, found ${event.revision}`);
    const hash = hashOf(event.metadata);
    if (hash === undefined || typeof event.metadata.prevHash !== 'string') return at('the event carries no hash');
    if (event.metadata.prevHash !== prevHash) return at("prevHash does not match the previous event's hash");
    if (eventHash(prevHash, event) !== hash) return at('the event does not match its hash (modified)');
    prevHash = hash;
    expectedRevision += 1n;
  }
  return undefined;
}
