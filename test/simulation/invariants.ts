import { canonicalJson, streams } from '#domain/primitives.js';
import { IDEMPOTENCY_RETENTION_MS, idempotencyStream } from '#domain/idempotency/idempotency.js';
import { agentStream } from '#domain/agents/agent.js';
import { available, ledgerDecider, type LedgerEvent, type LedgerState } from '#domain/ledger/ledger.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import { verifyChain } from '#event-store/hash-chain.js';
import type { MemoryLog } from '#event-store/memory/event-store.js';
import { Collections, type InternalAccountDoc } from '#read-models/projections/index.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { replayAll } from './projector.js';
import { AGENT_POLICY } from './workload-agents.js';
import type { World } from './world.js';

/** A broken invariant: its name, what was seen, and the streams involved (their last events go in the report). */
export class InvariantViolation extends Error {
  override readonly name = 'InvariantViolation';
  constructor(
    readonly invariant: string,
    detail: string,
    readonly streams: string[] = [],
  ) {
    super(`${invariant}: ${detail}`);
  }
}

const fail = (invariant: string, detail: string, ...streamNames: string[]): never => {
  throw new InvariantViolation(invariant, detail, streamNames);
};

/** A ledger stream folded afresh with the write path's own evolve. */
export function foldLedger(events: readonly RecordedEvent[]): LedgerState {
  let state = ledgerDecider.initialState();
  for (const e of events) state = ledgerDecider.evolve(state, { type: e.type, data: e.data } as LedgerEvent);
  return state;
}

/** Every currency's ledger sums to zero, and no account that may not go negative can spend more than it holds. */
export function checkLedgers(log: MemoryLog, world: World): void {
  for (const platform of world.platforms) {
    const stream = streams.ledger(platform.id);
    const state = foldLedger(log.streams.get(stream) ?? []);
    const sums = new Map<string, { posted: bigint; pending: bigint }>();
    for (const account of state.accounts.values()) {
      const sum = sums.get(account.currency) ?? { posted: 0n, pending: 0n };
      sum.posted += account.creditsPosted - account.debitsPosted;
      sum.pending += account.creditsPending - account.debitsPending;
      sums.set(account.currency, sum);
      if (!account.allowNegative && available(account) < 0n)
        fail('ledger: no account below what it may', `${account.id} has ${available(account)} available`, stream);
    }
    for (const [currency, sum] of sums) {
      if (sum.posted !== 0n || sum.pending !== 0n)
        fail(
          'ledger: every currency sums to zero',
          `${currency} sums to ${sum.posted} (${sum.pending} pending)`,
          stream,
        );
    }
    if (!platform.sandbox && state.transfers.size > 0) {
      for (const t of state.transfers.values())
        if (t.code === 'SANDBOX_FUNDING') fail('no sandbox funding on production', `transfer ${t.id}`, stream);
    }
  }
}

/**
 * An Idempotency-Key has at most one effect: one funding transfer per key while its first answer is kept (a key may
 * be used afresh once that answer's retention has passed on the platform's clock).
 */
export function checkIdempotency(log: MemoryLog, world: World): void {
  for (const platform of world.platforms) {
    const stream = streams.ledger(platform.id);
    const firstAt = new Map<string, number>();
    for (const e of log.streams.get(stream) ?? []) {
      const key = e.metadata.correlationId;
      if (e.type !== 'TransferCreated' || typeof key !== 'string' || !key.startsWith('idem-')) continue;
      const at = Date.parse(String(e.data.createdAt));
      const first = firstAt.get(key);
      // Also when a request was cut off by a crash after its effect, or was still running in another process when
      // its claim's lease ended: the request taking it over names its transfer as the first run did.
      if (first !== undefined && at - first < IDEMPOTENCY_RETENTION_MS)
        fail(
          'idempotency: a key never has two effects',
          `${key} funded again ${at - first} ms later`,
          stream,
          idempotencyStream(platform.id, key.slice('idem-'.length)),
        );
      if (first === undefined || at - first >= IDEMPOTENCY_RETENTION_MS) firstAt.set(key, at);
    }
  }
}

/** What was acknowledged is still there: every acknowledged revision, every transfer answered with success. */
export function checkAcknowledged(log: MemoryLog, world: World): void {
  for (const [stream, revision] of world.acknowledged) {
    const length = BigInt(log.streams.get(stream)?.length ?? 0);
    if (length <= revision) fail('acknowledged writes are never lost', `revision ${revision} missing`, stream);
  }
  for (const [platformId, ids] of world.ackedTransfers) {
    const stream = streams.ledger(platformId);
    const state = foldLedger(log.streams.get(stream) ?? []);
    for (const id of ids) if (!state.transfers.has(id)) fail('acknowledged writes are never lost', `${id}`, stream);
  }
}

/** Every stream's hash chain verifies, and no event of one platform's stream names another platform. */
export function checkStreams(log: MemoryLog, world: World): void {
  const ownerOf = new Map<string, string>();
  for (const p of world.platforms) ownerOf.set(streams.ledger(p.id), p.id).set(streams.platform(p.id), p.id);
  for (const c of world.customers) ownerOf.set(streams.customer(c.id), c.platformId);
  for (const [name, events] of log.streams) {
    const broken = verifyChain(events);
    if (broken) fail('the hash chain verifies', `${broken.reason} at revision ${broken.revision}`, name);
    for (const e of events) {
      const own = (e.data as { platformId?: unknown }).platformId;
      if (typeof own === 'string' && typeof e.metadata.platformId === 'string' && own !== e.metadata.platformId)
        fail('platform isolation', `${e.type} of ${own} written by ${e.metadata.platformId}`, name);
    }
    const owner = ownerOf.get(name);
    if (!owner) continue;
    for (const e of events)
      if (e.metadata.platformId !== owner)
        fail('platform isolation', `${e.type} of ${String(e.metadata.platformId)} in ${owner}'s stream`, name);
  }
  for (const p of world.platforms) checkLedgerAccountsOwned(log, world, p.id);
}

function checkLedgerAccountsOwned(log: MemoryLog, world: World, platformId: string): void {
  const stream = streams.ledger(platformId);
  for (const e of log.streams.get(stream) ?? []) {
    if (e.type !== 'TransferCreated') continue;
    for (const account of [e.data.debitAccountId, e.data.creditAccountId] as string[]) {
      const owner = world.platformOfAccount(account);
      if (owner !== undefined && owner !== platformId)
        fail('platform isolation', `${platformId}'s ledger moves ${account} of ${owner}`, stream);
    }
  }
}

/**
 * No agent limit is exceeded: per day (count and amount), per month and per transaction, counting every spend
 * committed or still reserved; and money moves for an agent only under a reservation of its own.
 */
export function checkAgents(log: MemoryLog, world: World): void {
  const limits = AGENT_POLICY.spendingLimits;
  const reservedActions = new Set<string>();
  for (const agent of world.agents) {
    const stream = agentStream(agent.id);
    const live = new Map<string, { amount: bigint; day: string; month: string }>();
    for (const e of log.streams.get(stream) ?? []) {
      const data = e.data as { action: { id: string }; reservation?: { amount: string; day: string; month: string } };
      if (e.type === 'AgentSpendReserved') {
        const r = data.reservation!;
        live.set(data.action.id, { amount: BigInt(r.amount), day: r.day, month: r.month });
        reservedActions.add(data.action.id);
      }
      if (e.type === 'AgentActionFailed') live.delete(data.action.id);
    }
    const days = new Map<string, { count: number; amount: bigint }>();
    const months = new Map<string, bigint>();
    for (const r of live.values()) {
      if (r.amount > BigInt(limits.perTransactionLimit)) fail('agent limits', `one spend of ${r.amount}`, stream);
      const day = days.get(r.day) ?? { count: 0, amount: 0n };
      days.set(r.day, { count: day.count + 1, amount: day.amount + r.amount });
      months.set(r.month, (months.get(r.month) ?? 0n) + r.amount);
    }
    for (const [day, { count, amount }] of days) {
      if (count > limits.dailyTransactionLimit! || amount > BigInt(limits.dailyLimit!))
        fail('agent limits', `${count} spends of ${amount} on ${day}`, stream);
    }
    for (const [month, amount] of months)
      if (amount > BigInt(limits.monthlyLimit!)) fail('agent limits', `${amount} spent in ${month}`, stream);
  }
  for (const p of world.platforms) {
    const stream = streams.ledger(p.id);
    for (const e of log.streams.get(stream) ?? []) {
      if (
        e.type === 'TransferCreated' &&
        e.data.code === 'AGENT_TRANSFER' &&
        !reservedActions.has(String(e.data.reference))
      )
        fail('agent limits', `money moved for ${String(e.data.reference)} without a reservation`, stream);
    }
  }
}

/** A platformCustomerId is held by one live customer of its platform (a deleted one releases it). */
export function checkUniqueness(log: MemoryLog): void {
  const seen = new Map<string, string>();
  for (const e of log.all) {
    // A deleted customer's platformCustomerId is released: another customer may take it afterwards.
    if (e.type === 'CustomerDeleted') {
      for (const [key, holder] of seen) if (holder === e.streamName) seen.delete(key);
      continue;
    }
    if (e.type !== 'CustomerCreated') continue;
    const key = `${String(e.data.platformId)}/${String(e.data.platformCustomerId)}`;
    const holder = seen.get(key);
    if (holder && holder !== e.streamName)
      fail('uniqueness: one customer per platformCustomerId', key, holder, e.streamName);
    seen.set(key, e.streamName);
  }
}

/**
 * The read models equal a fresh replay of the log (every document either wrote), and every internal account's totals
 * equal its ledger's (run once the projector has caught up).
 */
export async function checkReplay(
  log: MemoryLog,
  world: World,
  readModels: ReadModelStore,
  projections: Parameters<typeof replayAll>[1],
): Promise<void> {
  const fresh = await replayAll(log.all, projections);
  const ids = new Map<string, Set<string>>();
  for (const [collection, docs] of fresh) ids.set(collection, new Set(docs.keys()));
  for (const [collection, touched] of world.touched) {
    const set = ids.get(collection) ?? new Set<string>();
    for (const id of touched) set.add(id);
    ids.set(collection, set);
  }
  for (const [collection, set] of ids) {
    for (const id of set) {
      const stored = await readModels.get(collection, id);
      const replayed = fresh.get(collection)?.get(id);
      if (canonical(stored) !== canonical(replayed))
        fail('read models equal a fresh replay', `${collection}/${id}: ${brief(stored)} != ${brief(replayed)}`);
    }
  }
  for (const platform of world.platforms) {
    const stream = streams.ledger(platform.id);
    const state = foldLedger(log.streams.get(stream) ?? []);
    for (const account of state.accounts.values()) {
      const doc = await readModels.get<InternalAccountDoc>(Collections.internalAccounts, account.id);
      const posted = doc ? BigInt(doc.ledger.creditsPosted) - BigInt(doc.ledger.debitsPosted) : undefined;
      if (posted !== account.creditsPosted - account.debitsPosted)
        fail('read models agree with the ledger', `${account.id}: ${posted} shown`, stream);
    }
  }
}

const brief = (value: unknown) => JSON.stringify(value)?.slice(0, 600) ?? 'undefined';
const canonical = (value: unknown) => (value === undefined ? 'undefined' : canonicalJson(value));
