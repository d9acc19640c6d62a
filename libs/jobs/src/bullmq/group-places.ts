import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

/** BullMQ's lowest priority (its highest number); a place is its priority less one. */
const LOWEST_PRIORITY = 2_097_152;

/** Once the queue's floor reaches this, every place moves down by it, so that priorities stay in BullMQ's range. */
const DEFAULT_REBASE_AT = 1_048_576;

/**
 * Answers the priority (place + 1) a job of group ARGV[1] takes now, in one script so that two processes' enqueues
 * never take one place. KEYS: the queue's group places (hash), its floor, its prioritized (waiting) jobs, its delayed
 * jobs, its active jobs, and optionally the job's own key: when that exists already, answers 0 and changes nothing
 * (adding the job again is a no-op). ARGV: the group, the queue's key prefix, the rebase threshold, the lowest
 * priority. BullMQ scores a prioritized job priority * 2^32 + a counter.
 */
const PLACE_SCRIPT = `
if KEYS[6] and redis.call('EXISTS', KEYS[6]) == 1 then return 0 end
local SHIFT = 4294967296
local floor = tonumber(redis.call('GET', KEYS[2]) or '0')
local first = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
if first[2] then
  local waiting = math.floor(tonumber(first[2]) / SHIFT) - 1
  if waiting > floor then
    floor = waiting
    redis.call('SET', KEYS[2], floor)
  end
end
if floor >= tonumber(ARGV[3]) then
  local by = floor
  local lower = function(id)
    local key = ARGV[2] .. id
    local priority = tonumber(redis.call('HGET', key, 'priority') or '0')
    if priority > 0 then redis.call('HSET', key, 'priority', math.max(1, priority - by)) end
  end
  local nexts = redis.call('HGETALL', KEYS[1])
  for i = 1, #nexts, 2 do redis.call('HSET', KEYS[1], nexts[i], math.max(0, tonumber(nexts[i + 1]) - by)) end
  local scored = redis.call('ZRANGE', KEYS[3], 0, -1, 'WITHSCORES')
  for i = 1, #scored, 2 do
    local score = tonumber(scored[i + 1])
    local priority = math.floor(score / SHIFT)
    local moved = math.max(1, priority - by) * SHIFT + (score - priority * SHIFT)
    redis.call('ZADD', KEYS[3], moved, scored[i])
    lower(scored[i])
  end
  for _, id in ipairs(redis.call('ZRANGE', KEYS[4], 0, -1)) do lower(id) end
  for _, id in ipairs(redis.call('LRANGE', KEYS[5], 0, -1)) do lower(id) end
  floor = 0
  redis.call('SET', KEYS[2], 0)
end
local place = math.max(tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0'), floor)
redis.call('HSET', KEYS[1], ARGV[1], place + 1)
return math.min(place + 1, tonumber(ARGV[4]))`;

/**
 * Places in a BullMQ queue's claim order, fair between groups (start-time fair queueing, as the embedded queue's
 * `sqlite/group-places.ts`): a job takes its group's next place, raised to the queue's floor (the lowest place a
 * waiting job holds, never lowered), and its group's next place moves past it; the place is the job's BullMQ priority
 * (less one), so workers take jobs by place, and in order within one. A group's jobs keep their order, a group with
 * nothing waiting starts at the front, and each group holds at most one job at each place. A deferred run and a dead
 * job revived go to the back of their group. Places only grow: once the floor reaches `rebaseAt`, every place (groups'
 * next places, and the priorities of waiting, delayed and running jobs) moves down by it in the same script. Jobs
 * without a group are the group ''.
 */
export class GroupPlaces {
  constructor(
    private readonly client: Redis,
    private readonly rebaseAt = DEFAULT_REBASE_AT,
  ) {}

  /** The priority a new job `jobId` (BullMQ's id) of `group` takes in `queue`; 0 when that job exists already. */
  join(queue: Queue, group: string | undefined, jobId: string): Promise<number> {
    return this.place(queue, group, queue.toKey(jobId));
  }

  /** The priority a job of `group` already in `queue` takes now, at its group's back (a deferred run, a revival). */
  again(queue: Queue, group: string | undefined): Promise<number> {
    return this.place(queue, group);
  }

  private async place(queue: Queue, group: string | undefined, jobKey?: string): Promise<number> {
    const keys = ['group-places', 'group-floor', 'prioritized', 'delayed', 'active'].map((name) => queue.toKey(name));
    if (jobKey !== undefined) keys.push(jobKey);
    const args = [group ?? '', queue.toKey(''), this.rebaseAt, LOWEST_PRIORITY];
    return Number(await this.client.eval(PLACE_SCRIPT, keys.length, ...keys, ...args));
  }
}
