import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ManualClock } from '#domain/clock.js';
import { basicAuth, startTestService, type TestService } from '../support/service.js';
import { holder, passportFields, streamedForm } from './documents-support.js';

const MB = 1024 * 1024;
const FILE_BYTES = 20 * MB;
/** Far below the file's size: what streaming costs, not what buffering the file would. */
const MAX_GROWTH = 15 * MB;

// Chunks on their way through client and service are garbage within milliseconds, but V8 frees the memory
// behind them only when a collection finds them, which may be tens of MB later: the figures would show garbage
// rather than what the process holds. A quick collection of young objects before each sample removes it.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;

/** The highest memory seen while sampling: the resident set size, and the memory of live Buffers. */
class PeakMemory {
  rss = 0;
  buffers = 0;
  private timer?: NodeJS.Timeout;
  private baseBuffers = 0;

  /** Samples every 10 ms until `stop`; `baseBuffers`: the live Buffers before. */
  start(baseBuffers: number): this {
    this.baseBuffers = baseBuffers;
    this.timer = setInterval(() => this.sample(), 10);
    return this;
  }

  stop(): void {
    this.sample();
    clearInterval(this.timer);
  }

  private sample(): void {
    gc({ type: 'minor' });
    let { rss, arrayBuffers } = process.memoryUsage();
    // On a busy machine samples come late and chunks survive long enough to be promoted, where only a full
    // collection frees them: before counting a high figure, make sure it is memory the process still holds.
    if (arrayBuffers - this.baseBuffers > MAX_GROWTH / 2) {
      gc({ type: 'major' });
      ({ rss, arrayBuffers } = process.memoryUsage());
    }
    this.rss = Math.max(this.rss, rss);
    this.buffers = Math.max(this.buffers, arrayBuffers);
  }
}

describe('a 20 MB document goes through the service without being held in memory', () => {
  let t: TestService;
  let auth: string;
  const clock = new ManualClock(Date.UTC(2026, 4, 6, 9));

  beforeAll(async () => {
    t = await startTestService({ clock });
    auth = basicAuth(t.service.sandbox!.tokenId, t.service.sandbox!.clientSecret);
  });
  afterAll(async () => t?.close());

  /**
   * Uploads a form generated as it is sent, with node:http (fetch keeps a streamed request body until its
   * response is gone, which would put the whole file in this process).
   */
  const send = async (size: number, customerId: string) => {
    const form = streamedForm(passportFields(customerId), 'pdf', size);
    const res = await new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const headers = { ...form.headers, authorization: auth };
      const req = request(`${t.url}/documents`, { method: 'POST', headers }, (answer) => {
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
      const req = request(`${t.url}/documents/${id}/content`, { headers: { authorization: auth } }, (answer) => {
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
  it('uploads and downloads 20 MB while the process grows by far less than that', async () => {
    const customerId = await holder(t.api);
    // Warm up: every code path of upload and download runs once before measuring; with a small file, so that
    // the allocator keeps little freed memory in which a buffered file could hide from the RSS.
    const warm = await send(256 * 1024, customerId);
    expect(warm.res.status).toBe(201);
    expect((await fetchDigest(warm.res.body.id)).digest).toBe(warm.digest);
    gc();
    const before = process.memoryUsage();

    const peak = new PeakMemory().start(before.arrayBuffers);
    const { res, digest } = await send(FILE_BYTES, customerId);
    expect(res.status).toBe(201);
    expect({ fileSize: res.body.fileSize, sha256: res.body.sha256 }).toEqual({ fileSize: FILE_BYTES, sha256: digest });
    expect(await fetchDigest(res.body.id)).toEqual({ status: 200, size: FILE_BYTES, digest });
    peak.stop();

    const growth = { rss: peak.rss - before.rss, buffers: peak.buffers - before.arrayBuffers };
    const mb = (n: number) => `${(n / MB).toFixed(1)} MB`;
    process.stderr.write(
      `documents: for a 20 MB file RSS grew ${mb(growth.rss)}, live buffers ${mb(growth.buffers)}\n`,
    );
    expect(growth.rss).toBeLessThan(MAX_GROWTH);
    // RSS can hide a buffered file (the allocator hands out memory it kept from earlier garbage); buffers cannot.
    expect(growth.buffers).toBeLessThan(MAX_GROWTH);
  });
});
