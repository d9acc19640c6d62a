import type { Doc, ProjectionTransaction } from './read-model-store.js';

/** Document changes of one batch: per collection, id to the new document's JSON or null for a delete. */
export type BufferedWrites = Map<string, Map<string, string | null>>;

/**
 * The ProjectionTransaction both adapters hand to `work`: writes are kept in memory until the
 * adapter commits them, and reads see the batch's own earlier writes before the committed state.
 * A document is kept as its JSON text from the moment it is put: stores keep exactly what JSON can
 * say, later mutation of the object cannot leak in, each read gets its own copy, and the SQLite
 * adapter writes the text as it is (one serialisation per put instead of three).
 */
export class BufferedTransaction implements ProjectionTransaction {
  readonly writes: BufferedWrites = new Map();

  constructor(private readonly read: (collection: string, id: string) => Promise<Doc | undefined>) {}

  async get<T extends Doc = Doc>(collection: string, id: string): Promise<T | undefined> {
    const pending = this.writes.get(collection);
    if (pending?.has(id)) {
      const text = pending.get(id);
      return text ? (JSON.parse(text) as T) : undefined;
    }
    return (await this.read(collection, id)) as T | undefined;
  }

  put(collection: string, doc: Doc): void {
    if (typeof doc?.id !== 'string' || doc.id === '')
      throw new TypeError(`a document in ${collection} needs a non-empty string id`);
    this.collection(collection).set(doc.id, JSON.stringify(doc));
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

  private collection(name: string): Map<string, string | null> {
    let docs = this.writes.get(name);
    if (!docs) {
      docs = new Map();
      this.writes.set(name, docs);
    }
    return docs;
  }
}
