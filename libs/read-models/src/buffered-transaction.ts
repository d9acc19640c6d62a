import { deepFreeze } from '#event-store/deep-freeze.js';
import type { Doc, ProjectionTransaction } from './read-model-store.js';

/** Document changes of one batch: per collection, id to the new document or null for a delete. */
export type BufferedWrites = Map<string, Map<string, Readonly<Doc> | null>>;

/**
 * The ProjectionTransaction both adapters hand to `work`: writes are kept in memory until the adapter commits
 * them, and reads see the batch's own earlier writes before the committed state.
 *
 * A document is kept as the object that was put, deeply frozen (projections build a new document for every change,
 * so a change to one already put fails loudly instead of leaking in), and serialised once when the batch is
 * committed: a document changed by many events of a batch (a platform's settlement account) is written once, and
 * reading it back costs nothing. Stores keep exactly what JSON can say: `texts` gives each document's JSON text.
 */
export class BufferedTransaction implements ProjectionTransaction {
  readonly writes: BufferedWrites = new Map();
  private readonly absent = new Set<string>();

  /**
   * `freeze: false` (a rebuild's replay) keeps documents as put without freezing them: the projections are the live
   * ones, whose batches freeze, and a replay that differed would show in `audit verify`.
   */
  constructor(
    private readonly read: (collection: string, id: string) => Promise<Doc | undefined>,
    private readonly options: { freeze?: boolean } = {},
  ) {}

  async get<T extends Doc = Doc>(collection: string, id: string): Promise<T | undefined> {
    const pending = this.writes.get(collection);
    if (pending?.has(id)) return (pending.get(id) ?? undefined) as T | undefined;
    // A document the store does not hold is looked up once per batch (a ledger-only account is adjusted by every
    // transfer that touches it): its absence holds until the batch itself puts it, which the check above sees first.
    const key = `${collection}\u0000${id}`;
    if (this.absent.has(key)) return undefined;
    const doc = (await this.read(collection, id)) as T | undefined;
    if (doc === undefined) this.absent.add(key);
    return doc;
  }

  put(collection: string, doc: Doc): void {
    if (typeof doc?.id !== 'string' || doc.id === '')
      throw new TypeError(`a document in ${collection} needs a non-empty string id`);
    this.collection(collection).set(doc.id, this.options.freeze === false ? doc : deepFreeze(doc));
  }

  delete(collection: string, id: string): void {
    this.collection(collection).set(id, null);
  }

  /** Documents written so far in this transaction (for batch size limits). */
  get size(): number {
    let n = 0;
    for (const docs of this.writes.values()) n += docs.size;
    return n;
  }

  /** The batch's changes of one collection: each document's JSON text, or null for a delete. */
  *texts(collection: string): Generator<[id: string, text: string | null]> {
    for (const [id, doc] of this.writes.get(collection) ?? []) yield [id, doc ? JSON.stringify(doc) : null];
  }

  private collection(name: string): Map<string, Readonly<Doc> | null> {
    let docs = this.writes.get(name);
    if (!docs) {
      docs = new Map();
      this.writes.set(name, docs);
    }
    return docs;
  }
}
