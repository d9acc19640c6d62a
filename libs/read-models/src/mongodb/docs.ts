import { Long, MongoBulkWriteError, MongoServerError, type IndexDescription } from 'mongodb';
import { type Doc } from '../read-model-store.js';

/** How the MongoDB adapter stores documents, checkpoints and leases, and the small conversions around them. */

export interface StoredDoc {
  _id: string;
  [field: string]: unknown;
}

export interface CheckpointDoc {
  _id: string;
  /** Int64, so checkpoints order numerically in the database too. */
  position: Long | number | bigint | string;
}

export interface LeaseDoc {
  _id: string;
  holder: string;
  token: Long | number | bigint | string;
  /** Epoch milliseconds. */
  expiresAt: number;
  /** Bumped by every fenced write, so a write and a takeover of its lease conflict in MongoDB. */
  fencedWrites?: number;
}

/** Not read-model collection names (those are plain identifiers without a leading underscore). */
export const CHECKPOINTS = '_projection_checkpoints';
export const LEASES = '_leases';

/** How long a count may run on the server before the query fails instead of scanning on. */
export const COUNT_MAX_TIME_MS = 2_000;

/** The indexes every collection has: queries default to `createdAt` order, most filter by platform. */
export const DEFAULT_INDEXES: IndexDescription[] = [
  { key: { platformId: 1, createdAt: 1, _id: 1 }, name: 'by_platform_created' },
];

/** MongoDB's "namespace not found": dropping a collection that does not exist. */
export const NAMESPACE_NOT_FOUND = 26;

/**
 * A duplicate key and nothing else: any other error (a write concern failure reported along with it, a
 * failed write in the same bulk) must reach the caller rather than pass for a lost race.
 */
export function isDuplicateKey(error: unknown): boolean {
  if (!(error instanceof MongoServerError) || error.code !== 11000 || error.writeConcernError) return false;
  if (error instanceof MongoBulkWriteError) {
    return !error.err && [error.writeErrors].flat().every((e) => e.code === 11000);
  }
  return true;
}

export function toBigInt(value: CheckpointDoc['position']): bigint {
  if (value instanceof Long) return value.toBigInt();
  return BigInt(value);
}

export function fromStored<T extends Doc>(stored: StoredDoc): T {
  const { _id: _ignored, ...doc } = stored;
  return doc as T;
}
