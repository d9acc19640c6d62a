import { request } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CUSTOMER_CSV_COLUMNS, individualRow as individual } from './customer-csv.js';
import { poll } from './poll.js';
import type { Client } from './service.js';

/** A large customer CSV generated as it is sent, for the bulk import memory test and the `bulk-imports` benchmark. */

const MB = 1024 * 1024;
/**
 * A 29 MB upload takes seconds on an idle machine and has taken more than the default 30 s on a loaded one: the
 * child services of the memory test and the benchmark cut a request off at two minutes instead.
 */
export const BULK_REQUEST_TIMEOUT_MS = '120000';
/** The size of each file of the two concurrent imports. */
export const BULK_FILE_BYTES = 29 * MB;
/** Each row is padded (in `description`, accepted and not kept) to this size: 29 MB are about 98,000 rows. */
const ROW_BYTES = 310;

const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** A CSV file of `bytes` bytes (deterministic), generated as it is sent, in the multipart body of an upload. */
function csvUpload(tag: string, bytes: number) {
  const boundary = `----bulk-memory-${tag}`;
  const columns = [...CUSTOMER_CSV_COLUMNS, 'description'];
  async function* body(): AsyncGenerator<Uint8Array> {
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${tag}.csv"\r\n` +
        `Content-Type: text/csv\r\n\r\n`,
    );
    let chunk = `${columns.join(',')}\n`;
    let sent = chunk.length;
    for (let i = 0; sent < bytes; i++) {
      const row = individual(`${tag}-${i}`);
      const short = columns.map((c) => cell(row[c] ?? '')).join(',');
      row.description = 'x'.repeat(Math.max(Math.min(ROW_BYTES, bytes - sent) - short.length - 1, 0));
      const text = `${columns.map((c) => cell(row[c] ?? '')).join(',')}\n`;
      sent += text.length;
      chunk += text;
      // Sent in chunks of about 64 KB, as a client would.
      if (chunk.length >= 64 * 1024) {
        yield Buffer.from(chunk);
        chunk = '';
      }
    }
    yield Buffer.from(chunk);
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/**
 * Uploads a generated file of `bytes` bytes to `POST /customers/bulk/csv` with node:http (fetch would keep the whole
 * body in this process) and answers the status and body.
 */
export const sendBulkCsv = (url: string, auth: string, tag: string, bytes: number) =>
  new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
    const form = csvUpload(tag, bytes);
    const headers = { ...form.headers, authorization: auth };
    const req = request(`${url}/customers/bulk/csv`, { method: 'POST', headers }, (answer) => {
      let text = '';
      answer.setEncoding('utf8');
      answer.on('data', (chunk: string) => (text += chunk));
      answer.on('end', () => resolve({ status: answer.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    pipeline(Readable.from(form.body()), req).catch(reject);
  });

/**
 * Polls the jobs every 50 ms until one of them has processed `rows` rows, and answers its id. One platform's imports
 * run one at a time, and which of two concurrent uploads takes the slot first is a race, so the measurement follows
 * whichever runs. Throws when a job fails or none gets there in `timeoutMs`.
 */
export async function firstJobProcessing(api: Client, jobIds: string[], rows: number, timeoutMs: number) {
  const running = (job: { progress?: { processed: number } }) => (job.progress?.processed ?? 0) >= rows;
  const jobs = await poll(
    async () => {
      const bodies = (await Promise.all(jobIds.map((id) => api.get(`/customers/bulk/jobs/${id}`)))).map((r) => r.body);
      const failed = bodies.find((job) => job.status === 'FAILED');
      if (failed) throw new Error(`import ${failed.id} failed: ${JSON.stringify(failed).slice(0, 500)}`);
      return bodies;
    },
    (bodies) => bodies.some(running),
    { what: `an import with ${rows} rows processed`, timeoutMs, intervalMs: 50 },
  );
  return jobs.find(running).id as string;
}
