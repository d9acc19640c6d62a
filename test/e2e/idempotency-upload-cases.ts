import type { Case } from './idempotency-cases.js';
import { fileOf, form, pdfPart } from './documents-support.js';
import { caseOf } from './idempotency-fixtures.js';

/**
 * POSTs with multipart bodies: the key's request hash covers the text fields and the file's name, type, size and
 * SHA-256, so the same fields with another file are another request.
 */
export const UPLOAD_CASES: Case[] = [
  caseOf('/documents', 201, async (f) => {
    const c = await f.m.customer(['USD']);
    const fields = { documentHolder: c.id, documentType: 'PASSPORT', country: 'US' };
    return {
      request: { path: '/documents', body: fileOf('pdf', 4096) },
      other: { path: '/documents', body: fileOf('pdf', 4096) },
      effect: () => f.total(`/documents?documentHolder=${encodeURIComponent(c.id)}`),
      delta: 1,
      send: (req, headers) => f.api.request('POST', req.path, form(fields, pdfPart(req.body as Buffer)), headers),
    };
  }),
];
