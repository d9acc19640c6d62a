import type { Decider } from '../decider.js';
import { conflict, notFound } from '../errors.js';
import type { DocumentMediaType, DocumentSide, DocumentType } from './document-types.js';

/**
 * A verification document of a customer: what it is (type, side, issuing country, number,
 * authority) and the file, stored by content hash in the blob store. The file can be replaced
 * (a rejected scan uploaded again); deleting the document ends it, and another platform never
 * sees it.
 */
export interface DocumentDetails {
  documentType: DocumentType;
  side?: DocumentSide;
  /** ISO 3166-1 alpha-2 of the issuing country. */
  country: string;
  documentNumber?: string;
  issuingAuthority?: string;
}

/** The stored file of a document, and the content reference this document holds on it. */
export interface DocumentFile {
  fileName: string;
  mediaType: DocumentMediaType;
  fileSize: number;
  sha256: string;
  /** The reference held in the content's stream (document-content.ts); released when the file goes. */
  contentReference: string;
}

export interface DocumentSnapshot extends DocumentDetails, DocumentFile {
  id: string;
  platformId: string;
  /** The customer the document belongs to. */
  documentHolder: string;
  createdAt: string;
  updatedAt: string;
}

/** A file that stopped being a document's: its content reference is to be released. */
export interface ReleasedFile {
  sha256: string;
  contentReference: string;
}

/** The ids every document event carries. */
type DocumentIds = { documentId: string; platformId: string };

export type DocumentEvent =
  | { type: 'DocumentUploaded'; data: DocumentIds & { document: DocumentSnapshot } }
  | { type: 'DocumentReplaced'; data: DocumentIds & { document: DocumentSnapshot; replaced: ReleasedFile } }
  | { type: 'DocumentDeleted'; data: DocumentIds & { released: ReleasedFile; deletedAt: string } };

/** What uploading a document and replacing its file both give. */
type DocumentUpload = { id: string; platformId: string; details: DocumentDetails; file: DocumentFile; now: string };

export type DocumentCommand =
  | ({ type: 'UploadDocument'; documentHolder: string } & DocumentUpload)
  | ({ type: 'ReplaceDocument' } & DocumentUpload)
  | { type: 'DeleteDocument'; id: string; platformId: string; now: string };

export interface DocumentState {
  exists: boolean;
  deleted: boolean;
  document?: DocumentSnapshot;
}

/** Only the given optional details are kept: a replacement states them all again. */
function withDetails(details: DocumentDetails): DocumentDetails {
  const { documentType, side, country, documentNumber, issuingAuthority } = details;
  return {
    documentType,
    ...(side !== undefined ? { side } : {}),
    country,
    ...(documentNumber !== undefined ? { documentNumber } : {}),
    ...(issuingAuthority !== undefined ? { issuingAuthority } : {}),
  };
}

/**
 * The document a file upload leaves: `held` (the id, platform, holder and creation time it keeps) with the uploaded
 * file and details, updated now.
 */
const uploaded = (
  held: Pick<DocumentSnapshot, 'id' | 'platformId' | 'documentHolder' | 'createdAt'>,
  cmd: { details: DocumentDetails; file: DocumentFile; now: string },
): DocumentSnapshot => ({
  id: held.id,
  platformId: held.platformId,
  documentHolder: held.documentHolder,
  ...withDetails(cmd.details),
  ...cmd.file,
  createdAt: held.createdAt,
  updatedAt: cmd.now,
});

const released = (d: DocumentSnapshot): ReleasedFile => ({ sha256: d.sha256, contentReference: d.contentReference });

/** A document of another platform, a deleted one and one that never existed look the same. */
function live(cmd: { id: string; platformId: string }, state: DocumentState): DocumentSnapshot {
  if (!state.document || state.deleted || state.document.platformId !== cmd.platformId) {
    throw notFound('DOCUMENT', cmd.id);
  }
  return state.document;
}

function decide(cmd: DocumentCommand, state: DocumentState): DocumentEvent[] {
  const ids = { documentId: cmd.id, platformId: cmd.platformId };
  switch (cmd.type) {
    case 'UploadDocument': {
      if (state.exists) throw conflict('DOCUMENT_EXISTS', `document ${cmd.id} already exists`);
      const { id, platformId, documentHolder, now } = cmd;
      const document = uploaded({ id, platformId, documentHolder, createdAt: now }, cmd);
      return [{ type: 'DocumentUploaded', data: { ...ids, document } }];
    }
    case 'ReplaceDocument': {
      const current = live(cmd, state);
      const document = uploaded(current, cmd);
      return [{ type: 'DocumentReplaced', data: { ...ids, document, replaced: released(current) } }];
    }
    case 'DeleteDocument': {
      const current = live(cmd, state);
      return [{ type: 'DocumentDeleted', data: { ...ids, released: released(current), deletedAt: cmd.now } }];
    }
  }
}

function evolve(state: DocumentState, event: DocumentEvent): DocumentState {
  switch (event.type) {
    case 'DocumentUploaded':
    case 'DocumentReplaced':
      return { exists: true, deleted: false, document: event.data.document };
    case 'DocumentDeleted':
      return { ...state, deleted: true };
  }
}

export const documentDecider: Decider<DocumentState, DocumentCommand, DocumentEvent> = {
  initialState: () => ({ exists: false, deleted: false }),
  evolve,
  decide,
};
