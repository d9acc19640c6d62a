import { createHash } from 'node:crypto';
import { LedgerInvariants } from '#domain/ledger/ledger-invariants.js';
import type { EventStore } from '#event-store/event-store.js';
import { GENESIS_HASH, verifyChain } from '#event-store/hash-chain.js';
import { ProjectionRunner } from '#read-models/runner/projection-runner.js';
import type { Projection } from '#read-models/projection.js';
import type { Doc, ReadModelStore, ScratchReadModels } from '#read-models/read-model-store.js';
import { canonicalJson } from '#domain/primitives.js';

export interface VerifyProgress {
  /** phase: replay (position of head), compare (collections), ledger (events read). */
  update(phase: 'replay' | 'compare' | 'ledger', done: number, total: number): void;
}

export interface VerifyReport {
  head: string;
  collections: Record<string, { documents: number; digest: string }>;
  ledgers: number;
  /** Streams whose hash chain was checked. */
  streams: number;
  events: number;
  findings: string[];
}

const PAGE = 1000;

/** Every document of a collection in id order, a page at a time (memory stays bounded). */
async function* documents(store: ReadModelStore, collection: string): AsyncGenerator<Doc> {
  let cursor: string | undefined;
  do {
    const query = { limit: PAGE, sortBy: 'id', sortOrder: 'asc' as const, ...(cursor ? { cursor } : {}) };
    const page = await store.find(collection, query);
    yield* page.data;
    cursor = page.hasMore ? page.nextCursor : undefined;
  } while (cursor);
}

/** Walks both collections in id order: their digests, and the first document that differs. */
async function compareCollection(live: ReadModelStore, replay: ReadModelStore, collection: string) {
  const a = documents(live, collection);
  const b = documents(replay, collection);
  const hashA = createHash('sha256');
  const hashB = createHash('sha256');
  let count = 0;
  let firstDifference: string | undefined;
  let [x, y] = await Promise.all([a.next(), b.next()]);
  while (!x.done || !y.done) {
    const idA = x.done ? undefined : x.value.id;
    const idB = y.done ? undefined : y.value.id;
    // Advance the side with the smaller id; equal ids are compared as documents.
    const takeA = idA !== undefined && (idB === undefined || idA <= idB);
    const takeB = idB !== undefined && (idA === undefined || idB <= idA);
    const textA = takeA ? canonicalJson(x.value) : undefined;
    const textB = takeB ? canonicalJson(y.value) : undefined;
    if (textA !== undefined) hashA.update(textA + '\n');
    if (textB !== undefined) hashB.update(textB + '\n');
    if (firstDifference === undefined && textA !== textB) {
      const id = (takeA ? idA : idB)!;
      const how =
        textA === undefined
          ? 'only in the replay'
          : textB === undefined
            ? 'only in the live read model'
            : 'contents differ';
      firstDifference = `${id} (${how})`;
    }
    if (takeB) count += 1;
    [x, y] = await Promise.all([takeA ? a.next() : Promise.resolve(x), takeB ? b.next() : Promise.resolve(y)]);
  }
  return { live: hashA.digest('hex'), replay: hashB.digest('hex'), documents: count, firstDifference };
}

/**
 * `audit verify`: replays the whole log from position 0 into scratch read models (a fresh store from
 * `deps.scratch`, with the service's ProjectionRunner and projections), compares them
 * with the live ones (a digest per collection, then the first differing document), and proves
 * every ledger stream's invariants in one streamed pass over the log. Findings name what failed.
 */
export async function verifyAudit(deps: {
  events: EventStore;
  live: ReadModelStore;
  projections: Projection[];
  /** Where the replay goes: a fresh, empty store (the embedded one in a temporary file, say). */
  scratch: () => Promise<ScratchReadModels>;
  progress?: VerifyProgress;
}): Promise<VerifyReport> {
  const { events, live, projections, progress } = deps;
  const findings: string[] = [];
  const head = await events.headPosition();
  const replayed = await deps.scratch();
  const scratch = replayed.store;
  const collections: VerifyReport['collections'] = {};
  try {
    const runner = new ProjectionRunner(events, scratch, projections, { lease: false });
    const ticker = setInterval(() => progress?.update('replay', Number(runner.position), Number(head)), 200);
    try {
      await runner.rebuild();
    } finally {
      clearInterval(ticker);
      await runner.stop();
    }
    progress?.update('replay', Number(head), Number(head));
    for (const p of projections) {
      const checkpoint = (await live.getCheckpoint(p.name)) ?? 0n;
      if (checkpoint < head) {
        findings.push(`live read model ${p.name} is behind the log: checkpoint ${checkpoint}, head ${head}`);
      }
    }
    const names = [...new Set(projections.flatMap((p) => p.collections))].sort();
    for (const [i, collection] of names.entries()) {
      const result = await compareCollection(live, scratch, collection);
      collections[collection] = { documents: result.documents, digest: result.replay };
      if (result.live !== result.replay) {
        const digests = `live digest ${result.live.slice(0, 16)} differs from replay ${result.replay.slice(0, 16)}`;
        findings.push(`collection ${collection}: ${digests}; first differing document ${result.firstDifference}`);
      }
      progress?.update('compare', i + 1, names.length);
    }
  } finally {
    await replayed.dispose();
  }
  const { ledgers, streams, count } = await checkLog(events, head, findings, progress);
  return { head: head.toString(), collections, ledgers, streams, events: count, findings };
}

/**
 * One streamed pass over the log up to `head`: every stream's hash chain is checked (only its last hash is kept, so
 * memory grows with streams, not events), and every ledger stream's events are fed to its invariant checker.
 */
async function checkLog(events: EventStore, head: bigint, findings: string[], progress?: VerifyProgress) {
  const ledgers = new Map<string, LedgerInvariants>();
  // Per stream: the link the next event must continue, or null once the chain is broken (reported once).
  const chains = new Map<string, { revision: bigint; prevHash: string } | null>();
  let after: bigint | undefined;
  let count = 0;
  for (;;) {
    const batch = await events.readAll({ ...(after !== undefined ? { after } : {}), maxCount: PAGE });
    const within = batch.filter((e) => e.position <= head);
    for (const e of within) {
      count += 1;
      const link = chains.get(e.streamName);
      if (link !== null) {
        const broken = verifyChain([e], link ?? { revision: 0n, prevHash: GENESIS_HASH });
        if (broken)
          findings.push(`hash chain: stream ${e.streamName} broken at revision ${e.revision}: ${broken.reason}`);
        chains.set(e.streamName, broken ? null : { revision: e.revision + 1n, prevHash: String(e.metadata.hash) });
      }
      if (!e.streamName.startsWith('ledger-')) continue;
      let checker = ledgers.get(e.streamName);
      if (!checker) ledgers.set(e.streamName, (checker = new LedgerInvariants(e.streamName)));
      checker.apply(e);
    }
    progress?.update('ledger', Number(within.at(-1)?.position ?? head), Number(head));
    if (within.length < batch.length || batch.length < PAGE) break;
    after = batch[batch.length - 1].position;
  }
  for (const checker of ledgers.values()) findings.push(...checker.findings());
  return { ledgers: ledgers.size, streams: chains.size, count };
}
