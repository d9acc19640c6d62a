import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ManualClock } from '#domain/clock.js';
import { request } from 'node:http';
import { waitFor } from '#jobs/job-queue.contract.js';
import { basicAuth, startTestService, type Client, type Reply, type TestService } from '../support/service.js';
import { fileOf, form, holder, passportFields, pdfPart, streamedForm, upload } from './documents-support.js';

const LIMIT = 64 * 1024;
const BOUNDARY = 'xYzBoundary';
const multipart = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };

/** A hand-written multipart body (parts as given, closed unless `open`). */
function rawForm(parts: string[], open = false): Buffer {
  const body = parts.map((p) => `--${BOUNDARY}\r\n${p}\r\n`).join('') + (open ? '' : `--${BOUNDARY}--\r\n`);
  return Buffer.from(body, 'latin1');
}
const field = (name: string, value: string) => `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;
const filePart = (name: string, content: string, type = 'application/pdf') =>
  `Content-Disposition: form-data; name="${name}"; filename="a.pdf"\r\nContent-Type: ${type}\r\n\r\n${content}`;

const expectError = (res: Reply, status: number, code: string) =>
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });

describe('document uploads that are refused', () => {
  let t: TestService;
  let api: Client;
  let customerId: string;
  const clock = new ManualClock(Date.UTC(2026, 4, 5, 9));

  beforeAll(async () => {
    t = await startTestService({ clock, env: { DOCUMENT_MAX_BYTES: String(LIMIT) } });
    api = t.api;
    customerId = await holder(api);
  });
  afterAll(async () => {
    // Nothing refused is left behind in the blob store's staging area.
    expect(readdirSync(join(t.dataDir, 'documents', 'staging'))).toEqual([]);
    await t?.close();
  });

  const fieldsOf = (res: Reply) => (res.body.details?.errors ?? []).map((e: { field: string }) => e.field).sort();

  it('400 for missing or invalid fields, each named', async () => {
    const missing = await upload(api, { documentHolder: customerId });
    expectError(missing, 400, 'INVALID_INPUT');
    expect(fieldsOf(missing)).toEqual(['country', 'documentType']);
    const bad = await upload(
      api,
      passportFields(customerId, { documentType: 'PASSPORTS', country: 'us', side: 'TOP' }),
    );
    expect(fieldsOf(bad)).toEqual(['country', 'documentType', 'side']);
    const unknown = await upload(api, passportFields(customerId, { color: 'blue' }));
    expect(fieldsOf(unknown)).toEqual(['color']);
    const owner = await upload(api, passportFields('BeneficialOwner:019542f5-b3e7-1d02-0000-000000000001'));
    expect({ status: owner.status, code: owner.body.code }).toEqual({
      status: 404,
      code: 'BENEFICIAL_OWNER_NOT_FOUND',
    });
    const neither = await upload(api, passportFields('Card:019542f5-b3e7-1d02-0000-000000000001'));
    expect(neither.body.details.errors[0].message).toContain('beneficial owner (BeneficialOwner:<uuid>)');
    expect(fieldsOf(await upload(api, passportFields(customerId, { documentNumber: 'A\u0000B' })))).toEqual([
      'documentNumber',
    ]);
  });

  it('400 without the file, with the file in a text or another part, or with two files', async () => {
    const none = await upload(api, passportFields(customerId), null);
    expectError(none, 400, 'INVALID_INPUT');
    expect(none.body.details.errors).toEqual([
      { field: 'file', constraint: 'isFile', message: 'file is required: send the document in it' },
    ]);
    const asText = await api.request('POST', '/documents', form({ ...passportFields(customerId), file: '%PDF-1.7' }));
    expect(fieldsOf(asText)).toEqual(['file']);
    const elsewhere = await api.request('POST', '/documents', form(passportFields(customerId), pdfPart(), 'scan'));
    expect(fieldsOf(elsewhere)).toEqual(['file', 'scan']);
    const two = form(passportFields(customerId), pdfPart());
    two.append('file', new Blob([fileOf('pdf') as Uint8Array<ArrayBuffer>]), 'second.pdf');
    expect(fieldsOf(await api.request('POST', '/documents', two))).toEqual(['file']);
    const twice = rawForm([
      field('documentHolder', customerId),
      field('documentType', 'PASSPORT'),
      field('documentType', 'OTHER'),
      field('country', 'US'),
      filePart('file', '%PDF-1.7'),
    ]);
    expect(fieldsOf(await api.request('POST', '/documents', twice, multipart))).toEqual(['documentType']);
    const proto = rawForm([
      field('__proto__', 'x'),
      ...[field('documentHolder', customerId), field('documentType', 'PASSPORT'), field('country', 'US')],
      filePart('file', '%PDF-1.7'),
    ]);
    expectError(await api.request('POST', '/documents', proto, multipart), 400, 'INVALID_INPUT');
  });

  it('accepts the text fields after the file part too', async () => {
    const late = rawForm([
      filePart('file', '%PDF-1.4 late fields'),
      field('documentHolder', customerId),
      field('documentType', 'OTHER'),
      field('country', 'DE'),
    ]);
    const res = await api.request('POST', '/documents', late, multipart);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ documentType: 'OTHER', country: 'DE', fileSize: 20, fileName: 'a.pdf' });
  });

  it('400 for malformed or unfinished multipart bodies', async () => {
    const fields = [field('documentHolder', customerId), field('documentType', 'PASSPORT'), field('country', 'US')];
    for (const [body, headers] of [
      [rawForm([...fields, filePart('file', '%PDF-1.7')]), { 'content-type': 'multipart/form-data' }],
      [rawForm([...fields, filePart('file', '%PDF-1.7')], true), multipart],
      [Buffer.from('no parts at all'), multipart],
      [
        Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.7`),
        multipart,
      ],
    ] as const) {
      const res = await api.request('POST', '/documents', body, headers);
      expectError(res, 400, 'INVALID_INPUT');
    }
  });

  it('404 for a holder that is not a customer of the platform, or a deleted one', async () => {
    const unknown = await upload(api, passportFields('Customer:00000000-0000-4000-8000-00000000dead'));
    expectError(unknown, 404, 'CUSTOMER_NOT_FOUND');
    const gone = await holder(api);
    expect((await api.delete(`/customers/${gone}`)).status).toBe(200);
    expectError(await upload(api, passportFields(gone)), 404, 'CUSTOMER_NOT_FOUND');
  });

  it('415 for a body that is not multipart/form-data', async () => {
    expectError(await api.post('/documents', passportFields(customerId)), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await api.post('/documents', 'text', { 'content-type': 'text/plain' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await api.post('/documents'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const doc = (await upload(api, passportFields(customerId))).body;
    expectError(
      await api.request('PUT', `/documents/${doc.id}`, { documentType: 'OTHER' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    // Another route does not take multipart bodies at all.
    const elsewhere = await api.request('POST', '/customers', form({ customerType: 'INDIVIDUAL' }));
    expectError(elsewhere, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('415 for files that are not PDF, JPEG or PNG, or not what their part says', async () => {
    const cases = [
      { bytes: Buffer.from('hello'), type: 'text/plain' },
      { bytes: Buffer.from('GIF89a....'), type: 'image/gif' },
      { bytes: Buffer.from('GIF89a....'), type: 'application/octet-stream' },
      { bytes: fileOf('pdf'), type: 'image/png' },
      { bytes: fileOf('png'), type: 'application/pdf' },
      { bytes: Buffer.alloc(0), type: 'application/pdf' },
      { bytes: Buffer.from('%PD'), type: 'application/pdf' },
    ];
    for (const file of cases) {
      const res = await upload(api, passportFields(customerId), { ...file, name: 'x' });
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    // The content decides when the part says nothing specific.
    const octet = await upload(api, passportFields(customerId), {
      bytes: fileOf('png'),
      type: 'application/octet-stream',
    });
    expect({ status: octet.status, mediaType: octet.body.mediaType }).toEqual({ status: 201, mediaType: 'image/png' });
  });

  it('413 past the configured size: at once from the declared length, and while streaming', async () => {
    const exact = await upload(api, passportFields(customerId), pdfPart(fileOf('pdf', LIMIT)));
    expect({ status: exact.status, size: exact.body.fileSize }).toEqual({ status: 201, size: LIMIT });
    const declared = await upload(api, passportFields(customerId), pdfPart(fileOf('pdf', LIMIT * 3)));
    expectError(declared, 413, 'PAYLOAD_TOO_LARGE');
    expect(declared.body.details).toEqual({ maxFileBytes: LIMIT });
    const oneMore = await upload(api, passportFields(customerId), pdfPart(fileOf('pdf', LIMIT + 1)));
    expectError(oneMore, 413, 'PAYLOAD_TOO_LARGE');
    const streamed = streamedForm(passportFields(customerId), 'pdf', LIMIT * 4);
    expectError(await api.request('POST', '/documents', streamed.body, streamed.headers), 413, 'PAYLOAD_TOO_LARGE');
    const doc = (await upload(api, passportFields(customerId))).body;
    const replaced = await api.request(
      'PUT',
      `/documents/${doc.id}`,
      form({ documentType: 'OTHER', country: 'US' }, pdfPart(fileOf('pdf', LIMIT + 1))),
    );
    expectError(replaced, 413, 'PAYLOAD_TOO_LARGE');
    // The connection is still good for the next request.
    expect((await api.get(`/documents/${doc.id}`)).body.sha256).toBe(doc.sha256);
  });

  it('a client that goes away in the middle of the file leaves nothing staged', async () => {
    const staging = join(t.dataDir, 'documents', 'staging');
    const req = request(`${t.url}/documents`, {
      method: 'POST',
      headers: { ...multipart, authorization: basicAuth(t.service.sandbox!.tokenId, t.service.sandbox!.clientSecret) },
    });
    req.on('error', () => undefined);
    const head = [field('documentHolder', customerId), field('documentType', 'PASSPORT'), field('country', 'US')];
    req.write(rawForm([...head, filePart('file', '%PDF-1.7 ')], true).subarray(0, -2));
    req.write(Buffer.alloc(32 * 1024, 1));
    await waitFor(() => readdirSync(staging).length > 0, 'the file being staged');
    req.destroy();
    await waitFor(() => readdirSync(staging).length === 0, 'the staged file to be dropped');
  });

  it('refusals change nothing: only the accepted uploads are listed', async () => {
    const customerId = await holder(api);
    // Refused: missing fields, a text file, one byte past the limit.
    expectError(await upload(api, { documentHolder: customerId }), 400, 'INVALID_INPUT');
    const text = { bytes: Buffer.from('hello'), type: 'text/plain', name: 'x' };
    expectError(await upload(api, passportFields(customerId), text), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const tooLarge = pdfPart(fileOf('pdf', LIMIT + 1));
    expectError(await upload(api, passportFields(customerId), tooLarge), 413, 'PAYLOAD_TOO_LARGE');
    // Accepted: late fields, an octet-stream PNG, exactly the limit, and two plain uploads.
    const late = rawForm([
      filePart('file', '%PDF-1.4 late fields'),
      field('documentHolder', customerId),
      field('documentType', 'OTHER'),
      field('country', 'DE'),
    ]);
    expect((await api.request('POST', '/documents', late, multipart)).status).toBe(201);
    const png = { bytes: fileOf('png'), type: 'application/octet-stream' };
    expect((await upload(api, passportFields(customerId), png)).status).toBe(201);
    expect((await upload(api, passportFields(customerId), pdfPart(fileOf('pdf', LIMIT)))).status).toBe(201);
    for (let i = 0; i < 2; i++) expect((await upload(api, passportFields(customerId))).status).toBe(201);
    const listed = await api.get(`/documents?documentHolder=${encodeURIComponent(customerId)}`);
    // late fields, octet-stream PNG, exactly the limit, and two plain uploads above
    expect(listed.body.totalCount).toBe(5);
  });
});
