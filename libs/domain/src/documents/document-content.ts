import type { Decider } from '../decider.js';

/**
 * Who refers to one stored content (by its SHA-256): every upload or replacement that points a
 * document at it holds a reference of its own, recorded before the content is made readable.
 * Content is erased only when its last reference is released, and the erase asks this stream
 * again after moving the content aside (see the blob-store port), so a reference taken meanwhile
 * keeps it. Identical files share one copy across documents.
 */
export interface DocumentContentState {
  /** Reference ids still held. */
  references: string[];
}

interface ReferenceData {
  sha256: string;
  referenceId: string;
  documentId: string;
  platformId: string;
}

export type DocumentContentEvent =
  | { type: 'DocumentContentReferenced'; data: ReferenceData & { at: string } }
  | { type: 'DocumentContentReleased'; data: ReferenceData & { remaining: number; at: string } };

export type DocumentContentCommand =
  | ({ type: 'ReferenceContent'; now: string } & ReferenceData)
  | ({ type: 'ReleaseContent'; now: string } & ReferenceData);

/** `documentcontent-<uuid-shaped prefix of the hash>`: streams keep the `<aggregate>-<uuid>` form. */
export function documentContentStream(sha256: string): string {
  const h = sha256;
  const uuid = `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
  return `documentcontent-${uuid}`;
}

function decide(cmd: DocumentContentCommand, state: DocumentContentState): DocumentContentEvent[] {
  const { sha256, referenceId, documentId, platformId } = cmd;
  const held = state.references.includes(referenceId);
  switch (cmd.type) {
    case 'ReferenceContent':
      // A retried reference is already held.
      if (held) return [];
      return [
        { type: 'DocumentContentReferenced', data: { sha256, referenceId, documentId, platformId, at: cmd.now } },
      ];
    case 'ReleaseContent': {
      if (!held) return [];
      const remaining = state.references.length - 1;
      return [
        {
          type: 'DocumentContentReleased',
          data: { sha256, referenceId, documentId, platformId, remaining, at: cmd.now },
        },
      ];
    }
  }
}

function evolve(state: DocumentContentState, event: DocumentContentEvent): DocumentContentState {
  const id = event.data.referenceId;
  const others = state.references.filter((r) => r !== id);
  return { references: event.type === 'DocumentContentReferenced' ? [...others, id] : others };
}

export const documentContentDecider: Decider<DocumentContentState, DocumentContentCommand, DocumentContentEvent> = {
  initialState: () => ({ references: [] }),
  evolve,
  decide,
};
