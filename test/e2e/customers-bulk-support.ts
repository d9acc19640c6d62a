import { expect } from '@jest/globals';
import type { Client, Reply } from '../support/service.js';
import type { WebhookReceiver } from '../support/webhook-receiver.js';
import { CUSTOMER_CSV_COLUMNS, businessRow, individualRow, type CsvRow } from '../support/customer-csv.js';

/** Fixtures of the bulk customer import tests: CSV files, their upload, and waiting for the job. */

export const COLUMNS = CUSTOMER_CSV_COLUMNS;

export type Row = CsvRow;

export const individual = individualRow;
export const business = businessRow;

const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** A CSV file: the header, then one line per row (cells quoted where CSV needs it). */
export function csvOf(rows: Row[], columns = COLUMNS): string {
  const lines = [columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c] ?? '')).join(','))];
  return `${lines.join('\n')}\n`;
}

/** The multipart body of an upload: the file in the `file` field. */
export function csvForm(csv: string, field = 'file'): FormData {
  const form = new FormData();
  form.append(field, new Blob([csv], { type: 'text/csv' }), 'customers.csv');
  return form;
}

export const upload = (api: Client, csv: string, headers: Record<string, string> = {}) =>
  api.post('/customers/bulk/csv', csvForm(csv), headers);

/** Uploads a file that must be accepted and answers its job id. */
export async function accepted(api: Client, csv: string): Promise<string> {
  const res = await upload(api, csv);
  expect({ status: res.status, body: res.body }).toEqual({
    status: 202,
    body: { jobId: expect.stringMatching(/^Job:[0-9a-f-]{36}$/), status: 'PENDING' },
  });
  return res.body.jobId;
}

/** Polls the job (bounded, like the neighbours' delivery waits) until `done` holds; answers the last reply. */
export async function waitForJob(
  api: Client,
  jobId: string,
  done: (job: any) => boolean = (job) => job.status === 'COMPLETED' || job.status === 'FAILED',
  timeoutMs = 60_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  let last: Reply | undefined;
  for (;;) {
    last = await api.get(`/customers/bulk/jobs/${jobId}`).catch(() => undefined);
    if (last?.status === 200 && done(last.body)) return last.body;
    if (Date.now() > deadline)
      throw new Error(
        `job ${jobId} did not get there in ${timeoutMs} ms: ${JSON.stringify(last?.body)?.slice(0, 500)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every customer of the platform (all pages). */
export async function allCustomers(api: Client): Promise<{ id: string; platformCustomerId: string }[]> {
  const out: { id: string; platformCustomerId: string }[] = [];
  let cursor: string | undefined;
  do {
    const res = await api.get(`/customers?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    out.push(...res.body.data);
    cursor = res.body.nextCursor;
  } while (cursor);
  return out;
}

/** Waits for the BULK_UPLOAD.COMPLETED webhook; answers the job's BULK_UPLOAD webhooks, checked to be one webhook. */
export async function bulkUploadWebhooks(receiver: WebhookReceiver) {
  await receiver.waitFor(
    (requests) => requests.some((r) => r.json?.type === 'BULK_UPLOAD.COMPLETED'),
    30_000,
    'the BULK_UPLOAD.COMPLETED webhook',
  );
  const hooks = receiver.requests.filter((r) => r.json?.type.startsWith('BULK_UPLOAD'));
  expect(new Set(hooks.map((h) => h.json!.id)).size).toBe(1);
  return hooks;
}
