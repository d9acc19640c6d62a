import type { Doc, ProjectionTransaction } from './read-model-store.js';

/** Document changes of one batch: per collection, id to the new document or null for a delete. */
export type BufferedWrites = Map<string, Map<string, Doc | null>>;

/** JSON round trip: stores keep exactly what JSON can say, and later mutation cannot leak in or out. */
function plain<T>(doc: T): T {
  return JSON.parse(JSON.stringify(doc)) as T;
}

/**
 * The ProjectionTransaction both adapters hand to `work`: writes are kept in memory until the
 * adapter commits them, and reads see the batch's own earlier writes before the committed state.
 */
export class BufferedTransaction implements ProjectionTransaction {
  readonly writes: BufferedWrites = new Map();

  constructor(private readonly read: (collection: string, id: string) => Promise<Doc | undefined>) {}

  async get<T extends Doc = Doc>(collection: string, id: string): Promise<T | undefined> {
    const pending = this.writes.get(collection);
    if (pending?.has(id)) {
      const doc = pending.get(id);
      return doc ? plain(doc as T) : undefined;
    }
    return (await this.read(collection, id)) as T | undefined;
  }

  put(collection: string, doc: Doc): void {
    if (typeof doc?.id !== 'string' || doc.id === '') throw new TypeError(`a document in ${collection} needs a non-empty string id`);
    this.collection(collection).set(doc.id, plain(doc));
  }

  delete(collection: string, id: string): void {
    this.collection(collection).set(id, null);
  }

  private collection(name: string): Map<string, Doc | null> {
    let docs = this.writes.get(name);
    if (!docs) {
      docs = new Map();
      this.writes.set(name, docs);
    }
    return docs;
  }
}
