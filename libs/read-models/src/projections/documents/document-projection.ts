import type { DocumentEvent, DocumentSnapshot } from '#domain/documents/document.js';
import { defineProjection } from '../../projection.js';
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

const putDocument = ({ data }: { data: { document: DocumentSnapshot } }, tx: ProjectionTransaction) =>
  tx.put(Collections.documents, { ...data.document } as DocumentDoc);

export const documentProjection = defineProjection<DocumentEvent>({
  name: 'documents',
  collections: [Collections.documents],
  indexes: listIndexes(Collections.documents, ['documentHolder', 'documentType']),
  on: {
    DocumentUploaded: putDocument,
    DocumentReplaced: putDocument,
    DocumentDeleted: ({ data }, tx) => tx.delete(Collections.documents, data.documentId),
  },
});
