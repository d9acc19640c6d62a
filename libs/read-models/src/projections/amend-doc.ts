import type { Doc, ProjectionTransaction } from '../read-model-store.js';

/** Applies `changes` to the document `id` of `collection` where it exists (a projection never creates it here). */
export async function amendDoc<T extends Doc = Doc>(
  tx: ProjectionTransaction,
  collection: string,
  id: string,
  changes: Partial<T>,
): Promise<void> {
  const doc = await tx.get<T>(collection, id);
  if (doc) tx.put(collection, { ...doc, ...changes });
}
