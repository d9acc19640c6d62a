import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  BULK_FILE_BYTES,
  BULK_REQUEST_TIMEOUT_MS,
  firstJobProcessing,
  sendBulkCsv,
} from '../support/bulk-csv-upload.js';
import { startChildService, type ChildService } from '../support/child-service.js';
import { PeakRss } from '../support/peak-rss.js';

const MB = 1024 * 1024;
/** Rows of the running job processed before the measurement ends. */
const PROCESSED = 2_000;
const MAX_RSS = 400 * MB;
const PROBE_EVERY_MS = 50;

/**
 * Two large imports at once stay within the service's memory bound while it keeps answering others. How fast it
 * answers meanwhile is a figure of the `bulk-imports` benchmark, not an assertion here.
 */
describe('bulk imports keep the service’s memory and event loop for everyone', () => {
  let dataDir: string;
  let service: ChildService;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'bulk-memory-'));
    service = await startChildService(dataDir, { HTTP_REQUEST_TIMEOUT_MS: BULK_REQUEST_TIMEOUT_MS });
  });
  afterAll(async () => {
    // Killed, not stopped: a graceful stop would wait for the running import's job to end.
    await service?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('two concurrent 29 MB imports: RSS stays below 400 MB and every GET meanwhile answers', async () => {
    const api = service.api;
    const rss = new PeakRss(service.process.pid!);
    const before = rss.now();
    rss.start();
    const statuses: number[] = [];
    let importing = true;
    // A bounded loop: one GET, then the rest of its 50 ms, until the imports are measured.
    const probe = (async () => {
      while (importing) {
        const started = performance.now();
        statuses.push((await api.get('/customers?limit=1')).status);
        const took = performance.now() - started;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, PROBE_EVERY_MS - took)));
      }
    })();
    try {
      const uploads = await Promise.all(
        ['alpha', 'bravo'].map((tag) => sendBulkCsv(service.url, service.auth, tag, BULK_FILE_BYTES)),
      );
      for (const upload of uploads) expect(upload.status).toBe(202);
      // The jobs run one after the other (one platform's imports); the running one is measured well into its rows.
      const jobIds = uploads.map((upload) => upload.body.jobId as string);
      await firstJobProcessing(api, jobIds, PROCESSED, 60_000);
    } finally {
      importing = false;
      await probe;
      rss.stop();
    }
    process.stderr.write(
      `bulk imports: RSS ${(before / MB).toFixed(0)} MB, peak ${(rss.peak / MB).toFixed(0)} MB; ` +
        `${statuses.length} GETs meanwhile\n`,
    );
    expect(rss.peak).toBeLessThan(MAX_RSS);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  }, 150_000);
});
