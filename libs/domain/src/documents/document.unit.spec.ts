import { describe, expect, it } from '@jest/globals';
import { deciderSpec } from '../testing/decider-spec.js';
import {
  documentDecider,
  type DocumentCommand,
  type DocumentEvent,
  type DocumentFile,
  type DocumentSnapshot,
} from './document.js';
import { documentContentDecider, documentContentStream, type DocumentContentEvent } from './document-content.js';
import { documentMediaType } from './document-types.js';
import { CUSTOMER, OTHER_PLATFORM, PLATFORM, T0, T1, testId } from '../testing/fixtures.js';

const DOCUMENT = testId('Document', '3');
const SHA_A = 'a'.repeat(64);
const SHA_B = 'b'.repeat(64);

const file = (sha256: string, contentReference: string): DocumentFile => ({
  fileName: 'passport.pdf',
  mediaType: 'application/pdf',
  fileSize: 1234,
  sha256,
  contentReference,
});

describe('document decider', () => {
  const spec = deciderSpec(documentDecider);
  const upload: DocumentCommand = {
    type: 'UploadDocument',
    id: DOCUMENT,
    platformId: PLATFORM,
    documentHolder: CUSTOMER,
    details: { documentType: 'PASSPORT', side: 'FRONT', country: 'US', documentNumber: 'A123' },
    file: file(SHA_A, 'ref-1'),
    now: T0,
  };
  const snapshot: DocumentSnapshot = {
    id: DOCUMENT,
    platformId: PLATFORM,
    documentHolder: CUSTOMER,
    documentType: 'PASSPORT',
    side: 'FRONT',
    country: 'US',
    documentNumber: 'A123',
    ...file(SHA_A, 'ref-1'),
    createdAt: T0,
    updatedAt: T0,
  };
  const uploaded: DocumentEvent = {
    type: 'DocumentUploaded',
    data: { documentId: DOCUMENT, platformId: PLATFORM, document: snapshot },
  };

  it('records an upload once', () => {
    spec.given([]).when(upload).then([uploaded]);
    spec.given([uploaded]).when(upload).thenFails({ kind: 'conflict', code: 'DOCUMENT_EXISTS' });
  });

  it('replaces file and details as a whole, keeping holder and createdAt, and names the file it replaced', () => {
    const replace = {
      type: 'ReplaceDocument' as const,
      id: DOCUMENT,
      platformId: PLATFORM,
      details: { documentType: 'NATIONAL_ID' as const, country: 'FR' },
      file: { ...file(SHA_B, 'ref-2'), fileName: 'id.png', mediaType: 'image/png' as const },
      now: T1,
    };
    spec
      .given([uploaded])
      .when(replace)
      .then([
        {
          type: 'DocumentReplaced',
          data: {
            documentId: DOCUMENT,
            platformId: PLATFORM,
            document: {
              id: DOCUMENT,
              platformId: PLATFORM,
              documentHolder: CUSTOMER,
              documentType: 'NATIONAL_ID',
              country: 'FR',
              ...replace.file,
              createdAt: T0,
              updatedAt: T1,
            },
            replaced: { sha256: SHA_A, contentReference: 'ref-1' },
          },
        },
      ]);
  });

  it('deletes a live document once and releases its file', () => {
    const del = { type: 'DeleteDocument' as const, id: DOCUMENT, platformId: PLATFORM, now: T1 };
    const deleted: DocumentEvent = {
      type: 'DocumentDeleted',
      data: {
        documentId: DOCUMENT,
        platformId: PLATFORM,
        released: { sha256: SHA_A, contentReference: 'ref-1' },
        deletedAt: T1,
      },
    };
    spec.given([uploaded]).when(del).then([deleted]);
    spec.given([uploaded, deleted]).when(del).thenFails({ kind: 'not_found', code: 'DOCUMENT_NOT_FOUND' });
    spec
      .given([uploaded, deleted])
      .when({
        type: 'ReplaceDocument',
        id: DOCUMENT,
        platformId: PLATFORM,
        details: upload.details,
        file: upload.file,
        now: T1,
      })
      .thenFails({ kind: 'not_found', code: 'DOCUMENT_NOT_FOUND' });
  });

  it('answers another platform and an unknown id as not found', () => {
    spec
      .given([uploaded])
      .when({ type: 'DeleteDocument', id: DOCUMENT, platformId: OTHER_PLATFORM, now: T1 })
      .thenFails({ kind: 'not_found', code: 'DOCUMENT_NOT_FOUND' });
    spec
      .given([])
      .when({ type: 'DeleteDocument', id: DOCUMENT, platformId: PLATFORM, now: T1 })
      .thenFails({ kind: 'not_found', code: 'DOCUMENT_NOT_FOUND' });
  });
});

describe('document content references', () => {
  const spec = deciderSpec(documentContentDecider);
  const ref = (referenceId: string) => ({ sha256: SHA_A, referenceId, documentId: DOCUMENT, platformId: PLATFORM });
  const referenced = (referenceId: string): DocumentContentEvent => ({
    type: 'DocumentContentReferenced',
    data: { ...ref(referenceId), at: T0 },
  });

  it('holds each reference once and counts what remains on release', () => {
    spec
      .given([])
      .when({ type: 'ReferenceContent', ...ref('r1'), now: T0 })
      .then([referenced('r1')]);
    spec
      .given([referenced('r1')])
      .when({ type: 'ReferenceContent', ...ref('r1'), now: T0 })
      .then([]);
    spec
      .given([referenced('r1'), referenced('r2')])
      .when({ type: 'ReleaseContent', ...ref('r1'), now: T1 })
      .then([{ type: 'DocumentContentReleased', data: { ...ref('r1'), remaining: 1, at: T1 } }]);
    const history = spec.history(
      { type: 'ReferenceContent', ...ref('r1'), now: T0 },
      { type: 'ReleaseContent', ...ref('r1'), now: T1 },
      { type: 'ReleaseContent', ...ref('r1'), now: T1 },
    );
    expect(history.map((e) => e.type)).toEqual(['DocumentContentReferenced', 'DocumentContentReleased']);
    expect(spec.fold(history)).toEqual({ references: [] });
  });

  it('keeps one stream per content, named in the <aggregate>-<uuid> form', () => {
    const stream = documentContentStream('0123456789abcdef'.repeat(4));
    expect(stream).toBe('documentcontent-01234567-89ab-8def-8123-456789abcdef');
    expect(documentContentStream(SHA_B)).not.toBe(documentContentStream(SHA_A));
  });
});

describe('accepted files', () => {
  const pdf = Buffer.from('%PDF-1.7\n');
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]);

  it('takes the type from the content when the declared one agrees or says nothing', () => {
    expect(documentMediaType('application/pdf', pdf)).toEqual({ mediaType: 'application/pdf' });
    expect(documentMediaType('IMAGE/PNG; name=x', png)).toEqual({ mediaType: 'image/png' });
    expect(documentMediaType('application/octet-stream', jpeg)).toEqual({ mediaType: 'image/jpeg' });
    expect(documentMediaType(undefined, pdf)).toEqual({ mediaType: 'application/pdf' });
  });

  it('refuses other types, content of another format than declared, and unknown content', () => {
    expect(documentMediaType('text/plain', pdf)).toEqual({ refused: expect.stringContaining('text/plain') });
    expect(documentMediaType('image/png', pdf)).toEqual({ refused: expect.stringContaining('its content is') });
    expect(documentMediaType('application/pdf', Buffer.from('GIF89a'))).toEqual({
      refused: 'the content is not application/pdf',
    });
    expect(documentMediaType(undefined, Buffer.alloc(0))).toEqual({
      refused: 'the content is not one of application/pdf, image/jpeg, image/png',
    });
  });
});
