import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Envelope } from './envelopes.js';

/** BullMQ's lowest priority. */
const LOWEST_PRIORITY = 2_097_152;

/**
 * Adds ARGV[2] to the group ARGV[1]'s count of unfinished jobs in the hash KEYS[1] and answers the new count; when
 * KEYS[2] (the job about to be added) already exists, changes nothing and answers 0 (adding it again is a no-op).
 */
const BACKLOG_SCRIPT = `
if KEYS[2] and redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
if n <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return n`;

const backlogsKey = (queue: Queue) => queue.toKey('group-backlogs');
const priorityOf = (place: number) => Math.min(Math.max(place, 1), LOWEST_PRIORITY);

/**
 * Counts the job `jobId` (BullMQ's id) about to be added into its group's backlog in `queue` (the group's jobs enqueued
 * and not yet completed or dead) unless it exists already; answers its place there, which is its BullMQ priority.
 */
export async function joinBacklog(client: Redis, queue: Queue, group: string, jobId: string): Promise<number> {
  return priorityOf(Number(await client.eval(BACKLOG_SCRIPT, 2, backlogsKey(queue), queue.toKey(jobId), group, 1)));
}

/** Adds `by` to the count of the envelope's group; a failure to count is reported, what was done stands. */
async function count(client: Redis, queue: Queue, envelope: Envelope, by: 1 | -1, onError: (error: unknown) => void) {
  if (envelope.group === undefined) return;
  await client.eval(BACKLOG_SCRIPT, 1, backlogsKey(queue), envelope.group, by).catch(onError);
}

/** A dead job was queued again: counted back into its group's backlog. */
export async function rejoinBacklog(
  client: Redis,
  queue: Queue,
  envelope: Envelope,
  onError: (error: unknown) => void,
) {
  await count(client, queue, envelope, 1, onError);
}

/**
 * A job ended (completed or dead): counted out of its group's backlog. A count missed (or a worker that died between a
 * job's end and its count) only moves the group's later jobs a place back.
 */
export async function leaveBacklog(client: Redis, queue: Queue, envelope: Envelope, onError: (error: unknown) => void) {
  await count(client, queue, envelope, -1, onError);
}
