import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  BULK_FILE_BYTES,
  BULK_REQUEST_TIMEOUT_MS,
  firstJobProcessing,
  sendBulkCsv,
} from '../../support/bulk-csv-upload.js';
import { startChildService } from '../../support/child-service.js';
import { PeakRss } from '../../support/peak-rss.js';
import type { Client } from '../../support/service.js';
import { fmt, percentile, round, type Scenario, type ScenarioReport } from '../scenario.js';

/**
 * Two concurrent 29 MB customer CSV imports into the service as a child process, while a client GETs
 * `/customers?limit=1` every 50 ms: the GET's latency meanwhile against the same GETs for 5 s with no import (the
 * ratio, idle p99 over importing p99), and the service's peak RSS.
 */
const PROBE_EVERY_MS = 50;
const IDLE_MS = 5_000;
/** Rows of the running job processed before the measurement ends. */
const PROCESSED = 2_000;
const MB = 1024 * 1024;

/** GETs every 50 ms until `until()` says stop: their latencies, ascending. */
async function probe(api: Client, until: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!until()) {
    const started = performance.now();
    const res = await api.get('/customers?limit=1');
    const took = performance.now() - started;
    if (res.status !== 200) throw new Error(`GET /customers answered ${res.status}`);
    latencies.push(took);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, PROBE_EVERY_MS - took)));
  }
  return latencies.sort((a, b) => a - b);
}

async function run(): Promise<ScenarioReport> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-bulk-'));
  const service = await startChildService(dir, { HTTP_REQUEST_TIMEOUT_MS: BULK_REQUEST_TIMEOUT_MS });
  try {
    const api = service.api;
    // Warm up: the probe's route runs a few times before it is measured.
    for (let i = 0; i < 20; i++) await api.get('/customers?limit=1');
    const idleEnds = performance.now() + IDLE_MS;
    const idle = await probe(api, () => performance.now() > idleEnds);
    const rss = new PeakRss(service.process.pid!).start();
    let importing = true;
    const loaded = probe(api, () => !importing);
    try {
      const uploads = await Promise.all(
        ['alpha', 'bravo'].map((tag) => sendBulkCsv(service.url, service.auth, tag, BULK_FILE_BYTES)),
      );
      for (const upload of uploads) {
        if (upload.status !== 202) throw new Error(`upload answered ${upload.status}: ${JSON.stringify(upload.body)}`);
      }
      const jobIds = uploads.map((upload) => upload.body.jobId as string);
      await firstJobProcessing(api, jobIds, PROCESSED, 120_000);
    } finally {
      importing = false;
    }
    const during = await loaded;
    rss.stop();
    const figures = {
      idleP99Ms: round(percentile(idle, 0.99)),
      importingP50Ms: round(percentile(during, 0.5)),
      importingP99Ms: round(percentile(during, 0.99)),
      importingMaxMs: round(during.at(-1) ?? 0),
      peakRssMb: round(rss.peak / MB, 0),
    };
    return {
      ratio: round(figures.idleP99Ms / figures.importingP99Ms, 2),
      figures,
      lines: [
        `GET every 50 ms, no import: p99 ${figures.idleP99Ms} ms (${fmt(idle.length)} GETs)`,
        `during two 29 MB imports: p50 ${figures.importingP50Ms} ms, p99 ${figures.importingP99Ms} ms, ` +
          `max ${figures.importingMaxMs} ms (${fmt(during.length)} GETs); peak RSS ${figures.peakRssMb} MB`,
      ],
    };
  } finally {
    await service.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

export const bulkImports: Scenario = {
  name: 'bulk-imports',
  description: 'GET latency and peak RSS while two 29 MB customer imports run',
  run,
};
