import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildService, type ChildService } from '../support/child-service.js';
import { PeakRss } from '../support/peak-rss.js';
import { basicAuth, client } from '../support/service.js';
import { holder, passportFields, streamedForm } from './documents-support.js';

const MB = 1024 * 1024;
const FILE_BYTES = 20 * MB;
/** Far below the file's size: what streaming costs, not what buffering the file would. */
const MAX_GROWTH = 15 * MB;

/**
 * The service runs as a process of its own, so that what is measured is the service alone (not this test's
 * client, nor what other suites left running in the test process). Its young generation is kept small, so that
 * the chunks passing through are collected within a few MB instead of letting the heap grow by tens of MB of
 * garbage first: the resident set then shows what the service holds.
 */
const SERVICE_NODE_OPTIONS = '--max-semi-space-size=1';

describe('a 20 MB document goes through the service without being held in memory', () => {
  let dataDir: string;
  let service: ChildService;
  let url: string;
  let auth: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'documents-memory-'));
    service = await startChildService(dataDir, { NODE_OPTIONS: SERVICE_NODE_OPTIONS });
    url = service.url;
    const credentials = JSON.parse(readFileSync(join(dataDir, 'sandbox-credentials.json'), 'utf8')) as {
      tokenId: string;
      clientSecret: string;
    };
    auth = basicAuth(credentials.tokenId, credentials.clientSecret);
  });
  afterAll(async () => {
    await service?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * Uploads a form generated as it is sent, with node:http (fetch keeps a streamed request body until its
   * response is gone, which would put the whole file in this process).
   */
  const send = async (size: number, customerId: string) => {
    const form = streamedForm(passportFields(customerId), 'pdf', size);
    const res = await new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const headers = { ...form.headers, authorization: auth };
      const req = request(`${url}/documents`, { method: 'POST', headers }, (answer) => {
        let text = '';
        answer.setEncoding('utf8');
        answer.on('data', (chunk: string) => (text += chunk));
        answer.on('end', () => resolve({ status: answer.statusCode!, body: JSON.parse(text) }));
      });
      req.on('error', reject);
      pipeline(Readable.from(form.body), req).catch(reject);
    });
    return { res, digest: form.digest() };
  };
  /**
   * Downloads a document's file with node:http, hashing it as it arrives (read chunk by chunk, so the socket is
   * paused while a chunk is hashed: fetch's body stream may queue what the server sends faster than it is read).
   */
  const fetchDigest = (id: unknown) =>
    new Promise<{ status: number; size: number; digest: string }>((resolve, reject) => {
      const req = request(`${url}/documents/${id}/content`, { headers: { authorization: auth } }, (answer) => {
        const hash = createHash('sha256');
        let size = 0;
        (async () => {
          for await (const chunk of answer as AsyncIterable<Buffer>) {
            hash.update(chunk);
            size += chunk.length;
          }
          resolve({ status: answer.statusCode!, size, digest: hash.digest('hex') });
        })().catch(reject);
      });
      req.on('error', reject);
      req.end();
    });
  it('uploads and downloads 20 MB while the service process grows by far less than that', async () => {
    const customerId = await holder(client(url, auth));
    // Warm up: every code path of upload and download runs once before measuring, with a small file.
    const warm = await send(256 * 1024, customerId);
    expect(warm.res.status).toBe(201);
    expect((await fetchDigest(warm.res.body.id)).digest).toBe(warm.digest);
    const rss = new PeakRss(service.process.pid!);
    const before = rss.now();

    rss.start();
    const { res, digest } = await send(FILE_BYTES, customerId);
    expect(res.status).toBe(201);
    expect({ fileSize: res.body.fileSize, sha256: res.body.sha256 }).toEqual({ fileSize: FILE_BYTES, sha256: digest });
    expect(await fetchDigest(res.body.id)).toEqual({ status: 200, size: FILE_BYTES, digest });
    rss.stop();

    const growth = rss.peak - before;
    process.stderr.write(`documents: for a 20 MB file the service's RSS grew ${(growth / MB).toFixed(1)} MB\n`);
    expect(growth).toBeLessThan(MAX_GROWTH);
  });
});
