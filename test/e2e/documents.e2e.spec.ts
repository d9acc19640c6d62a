import { beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { FsBlobStore } from '#blob-store/fs-blob-store.js';
import { ManualClock } from '#domain/clock.js';
import { streams } from '#domain/primitives.js';
import { useTestService } from '../support/fixture.js';
import { ownerBody } from './idempotency-fixtures.js';
import {
  download,
  fileOf,
  form,
  holder,
  passportFields,
  pdfPart,
  sha256,
  upload,
  type FilePart,
} from './documents-support.js';

const START = Date.UTC(2026, 4, 4, 9);
const q = encodeURIComponent;

describe('documents over HTTP', () => {
  const clock = new ManualClock(START);
  /** Where the blob store keeps a hash's file: to see that content is erased. */
  let stored: (sha: string) => boolean;

  const t = useTestService({ clock });
  const api = t.api;
  beforeAll(async () => {
    const blobs = t.service.infra.blobs as FsBlobStore;
    stored = (sha) => existsSync(blobs.objectPath(sha));
  });

  const replace = (id: string, fields: Record<string, string>, file?: FilePart, client = api) =>
    client.request('PUT', `/documents/${id}`, form(fields, file));

  it('uploads a document: 201 with what it is and the stored file’s name, type, size and hash', async () => {
    const customerId = await holder(api);
    const bytes = fileOf('pdf', 5000);
    const fields = passportFields(customerId, { side: 'FRONT', documentNumber: 'A1234567', issuingAuthority: 'DoS' });
    const res = await upload(api, fields, { bytes, name: 'C:\\scans\\passport.pdf', type: 'application/pdf' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^Document:[0-9a-f-]{36}$/),
      documentHolder: customerId,
      documentType: 'PASSPORT',
      side: 'FRONT',
      country: 'US',
      documentNumber: 'A1234567',
      issuingAuthority: 'DoS',
      fileName: 'passport.pdf',
      mediaType: 'application/pdf',
      fileSize: 5000,
      sha256: sha256(bytes),
      createdAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
    });
    expect((await api.get(`/documents/${res.body.id}`)).body).toEqual(res.body);
    const events = await t.service.infra.eventStore.readStream(streams.document(res.body.id));
    expect(events.map((e) => e.type)).toEqual(['DocumentUploaded']);
    expect(events[0].metadata).toMatchObject({ platformId: t.service.sandbox!.platformId });
  });

  it('serves the file back byte for byte, with its type, name, length and hash in the headers', async () => {
    const customerId = await holder(api);
    const bytes = fileOf('png', 300_000);
    const file = { bytes, name: 'ïd çard.png', type: 'image/png' };
    const doc = (await upload(api, passportFields(customerId), file)).body;
    const res = await download(api, doc.id);
    expect(res.status).toBe(200);
    expect(sha256(res.bytes)).toBe(doc.sha256);
    expect(res.bytes.equals(bytes)).toBe(true);
    expect(
      Object.fromEntries(
        [...res.headers].filter(([k]) => !['date', 'x-request-id', 'connection', 'keep-alive'].includes(k)),
      ),
    ).toEqual({
      'content-type': 'image/png',
      'content-length': '300000',
      'content-disposition': `attachment; filename="_d _ard.png"; filename*=UTF-8''${q('ïd çard.png')}`,
      etag: `"${doc.sha256}"`,
      'repr-digest': `sha-256=:${Buffer.from(doc.sha256, 'hex').toString('base64')}:`,
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    });
    expect((await t.anonymous.get(`/documents/${doc.id}/content`)).status).toBe(401);
  });

  it('lists documents newest first with filters, cursor pagination and totalCount', async () => {
    const customerId = await holder(api);
    const ids: string[] = [];
    for (const documentType of ['PASSPORT', 'UTILITY_BILL', 'PASSPORT']) {
      clock.advance(1000);
      const res = await upload(api, { documentHolder: customerId, documentType, country: 'GB' });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const all = await api.get(`/documents?documentHolder=${q(customerId)}`);
    expect(all.body).toMatchObject({ hasMore: false, totalCount: 3 });
    expect(all.body.data.map((d: { id: string }) => d.id)).toEqual([...ids].reverse());
    const passports = await api.get(`/documents?documentHolder=${q(customerId)}&documentType=PASSPORT`);
    expect(passports.body.data.map((d: { id: string }) => d.id)).toEqual([ids[2], ids[0]]);
    const first = await api.get(`/documents?documentHolder=${q(customerId)}&limit=2`);
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 3, nextCursor: expect.any(String) });
    const second = await api.get(
      `/documents?documentHolder=${q(customerId)}&limit=2&cursor=${q(first.body.nextCursor)}`,
    );
    expect(second.body.data.map((d: { id: string }) => d.id)).toEqual([ids[0]]);
    expect(second.body.hasMore).toBe(false);
    expect((await api.get('/documents?documentType=SELFIE')).body.totalCount).toBe(0);
    expect((await api.get('/documents?documentType=passport')).status).toBe(400);
    expect((await api.get('/documents?documentHolder=nobody')).status).toBe(400);
  });

  it('replaces file and details (PUT): holder and createdAt stay, the old file is erased', async () => {
    const customerId = await holder(api);
    const before = (await upload(api, passportFields(customerId, { side: 'FRONT', documentNumber: 'X1' }))).body;
    expect(stored(before.sha256)).toBe(true);
    clock.advance(60_000);
    const bytes = fileOf('jpeg', 4096);
    const res = await replace(
      before.id,
      { documentType: 'DRIVERS_LICENSE', country: 'CA', side: 'BACK' },
      {
        bytes,
        name: 'licence.jpg',
        type: 'image/jpeg',
      },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: before.id,
      documentHolder: customerId,
      documentType: 'DRIVERS_LICENSE',
      side: 'BACK',
      country: 'CA',
      fileName: 'licence.jpg',
      mediaType: 'image/jpeg',
      fileSize: 4096,
      sha256: sha256(bytes),
      createdAt: before.createdAt,
      updatedAt: clock.now().toISOString(),
    });
    expect((await download(api, before.id)).bytes.equals(bytes)).toBe(true);
    expect(stored(before.sha256)).toBe(false);
    const events = await t.service.infra.eventStore.readStream(streams.document(before.id));
    expect(events.map((e) => e.type)).toEqual(['DocumentUploaded', 'DocumentReplaced']);
    // The same file again: a new reference, the file stays.
    const again = await replace(
      before.id,
      { documentType: 'DRIVERS_LICENSE', country: 'CA' },
      { bytes, name: 'x.jpg' },
    );
    expect(again.status).toBe(200);
    expect(stored(res.body.sha256)).toBe(true);
    expect((await download(api, before.id)).bytes.equals(bytes)).toBe(true);
  });

  it('deletes a document (204): it is gone from reads, its file is erased, a second delete is 404', async () => {
    const customerId = await holder(api);
    const doc = (await upload(api, passportFields(customerId))).body;
    expect((await api.delete(`/documents/${doc.id}`)).status).toBe(204);
    for (const path of [`/documents/${doc.id}`, `/documents/${doc.id}/content`]) {
      const res = await api.get(path);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'DOCUMENT_NOT_FOUND' });
    }
    expect((await api.get(`/documents?documentHolder=${q(customerId)}`)).body.totalCount).toBe(0);
    expect(stored(doc.sha256)).toBe(false);
    expect((await api.delete(`/documents/${doc.id}`)).status).toBe(404);
    expect((await replace(doc.id, { documentType: 'PASSPORT', country: 'US' }, pdfPart())).status).toBe(404);
  });

  it('keeps one copy of identical files: it is erased with the last document that has it', async () => {
    const customerId = await holder(api);
    const bytes = fileOf('pdf', 10_000);
    const one = (await upload(api, passportFields(customerId), pdfPart(bytes))).body;
    const two = (await upload(api, passportFields(customerId), pdfPart(bytes))).body;
    expect(two.sha256).toBe(one.sha256);
    expect((await api.delete(`/documents/${one.id}`)).status).toBe(204);
    expect(stored(one.sha256)).toBe(true);
    expect((await download(api, two.id)).bytes.equals(bytes)).toBe(true);
    expect((await api.delete(`/documents/${two.id}`)).status).toBe(204);
    expect(stored(one.sha256)).toBe(false);
  });

  it('another platform’s document answers 404 to every operation, and its customers cannot hold ours', async () => {
    const customerId = await holder(api);
    const doc = (await upload(api, passportFields(customerId))).body;
    const other = await t.otherPlatform();
    for (const res of [
      await other.api.get(`/documents/${doc.id}`),
      await other.api.get(`/documents/${doc.id}/content`),
      await replace(doc.id, { documentType: 'PASSPORT', country: 'US' }, pdfPart(), other.api),
      await other.api.delete(`/documents/${doc.id}`),
    ]) {
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'DOCUMENT_NOT_FOUND' });
    }
    expect((await other.api.get(`/documents?documentHolder=${q(customerId)}`)).body.totalCount).toBe(0);
    const foreign = await upload(other.api, passportFields(customerId));
    expect({ status: foreign.status, code: foreign.body.code }).toEqual({ status: 404, code: 'CUSTOMER_NOT_FOUND' });
    // Ours is untouched.
    expect((await api.get(`/documents/${doc.id}`)).body).toEqual(doc);
    expect((await download(api, doc.id)).status).toBe(200);
  });

  it('a beneficial owner of the platform holds documents too; another platform’s owner is not found', async () => {
    const business = await api.post('/customers', {
      customerType: 'BUSINESS',
      platformCustomerId: 'documents-business',
      businessInfo: { legalName: 'Docs Ltd', registrationNumber: 'REG-77' },
    });
    const owner = await api.post('/beneficial-owners', ownerBody(business.body.id));
    expect(owner.status).toBe(201);
    const created = await upload(api, passportFields(owner.body.id));
    expect(created.status).toBe(201);
    expect(created.body.documentHolder).toBe(owner.body.id);
    const listed = await api.get(`/documents?documentHolder=${q(owner.body.id)}`);
    expect(listed.body.data.map((d: { id: string }) => d.id)).toEqual([created.body.id]);
    const other = await t.otherPlatform();
    const foreign = await upload(other.api, passportFields(owner.body.id));
    expect({ status: foreign.status, code: foreign.body.code }).toEqual({
      status: 404,
      code: 'BENEFICIAL_OWNER_NOT_FOUND',
    });
  });
});
