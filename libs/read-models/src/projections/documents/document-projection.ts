import type { DocumentEvent, DocumentSnapshot } from '#domain/documents/document.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import type { Projection } from '../../projection.js';
import type { Doc, ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';
import { listIndexes } from '../list-indexes.js';

/** The document read model: the latest snapshot of each live document; a deleted one is removed. */
export type DocumentDoc = Doc & DocumentSnapshot;

/** The Document resource: scoping and the content reference stay inside. */
export function toDocument(doc: DocumentDoc): Record<string, unknown> {
  const { platformId: _p, contentReference: _r, ...resource } = doc;
  return resource;
}

export const documentProjection: Projection = {
  name: 'documents',
  collections: [Collections.documents],
  indexes: listIndexes(Collections.documents, ['documentHolder', 'documentType']),
  handles: ['DocumentUploaded', 'DocumentReplaced', 'DocumentDeleted'],
  async apply(recorded: RecordedEvent, tx: ProjectionTransaction) {
    const event = { type: recorded.type, data: recorded.data } as DocumentEvent;
    if (event.type === 'DocumentDeleted') tx.delete(Collections.documents, event.data.documentId);
    else tx.put(Collections.documents, { ...event.data.document } as DocumentDoc);
  },
};
