import { describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { ManualClock } from '#domain/clock.js';
import { pointWebhooksAt, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import {
  COLUMNS,
  accepted,
  allCustomers,
  bulkUploadWebhooks,
  business,
  csvForm,
  csvOf,
  individual,
  upload,
  waitForJob,
  type Row,
} from './customers-bulk-support.js';
import { BULK_IMPORT_QUEUE } from '#application/customers/bulk-imports.js';
import { describeEachJobQueue, useTestService } from '../support/fixture.js';

const START = Date.UTC(2026, 4, 4, 9);

/**
 * Bulk customer imports (POST /customers/bulk/csv, GET /customers/bulk/jobs/{jobId}): the upload is
 * checked whole, then a job creates each row's customer as POST /customers would, and the job
 * reports every failed row with its line. The row tests run on both job-queue adapters.
 */
describeEachJobQueue('bulk customer import', (adapter) => {
  const fixture = useTestService({ start: START, jobs: adapter });
  const { api } = fixture;

  it('creates each valid row’s customer; each other row is reported with its line and its error', async () => {
    const taken = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: `${adapter}-taken`,
      umaAddress: `$${adapter}-taken@bulk.example.com`,
    });
    expect(taken.status).toBe(201);
    const rows: Row[] = [
      individual(`${adapter}-ada`, { email: 'ada@example.com', addressLine2: 'Floor 2\nBack door' }), // lines 2-3
      business(`${adapter}-acme`), // 4
      individual(`${adapter}-no-birth`, { birthDate: '' }), // 5
      individual(`${adapter}-bad-email`, { email: 'not-an-email', country: 'usa' }), // 6
      individual(`${adapter}-ada`, { umaAddress: `${adapter}-ada2@bulk.example.com` }), // 7: platformCustomerId taken
      individual(`${adapter}-uma`, { umaAddress: `${adapter}-taken@bulk.example.com` }), // 8: UMA address taken
      individual('', { umaAddress: 'no-id@bulk.example.com' }), // 9
    ];
    const jobId = await accepted(api, csvOf(rows));
    const job = await waitForJob(api, jobId);
    expect(job).toMatchObject({
      id: jobId,
      status: 'COMPLETED',
      progress: { total: 7, processed: 7, successful: 2, failed: 5 },
      completedAt: expect.any(String),
    });
    const errors = job.errors.map((e: any) => ({
      line: e.line,
      correlationId: e.correlationId,
      code: e.code,
      fields: (e.details?.errors ?? []).map((f: any) => `${f.field}:${f.constraint}`),
    }));
    expect(errors).toEqual([
      { line: 5, correlationId: `${adapter}-no-birth`, code: 'INVALID_INPUT', fields: ['birthDate:required'] },
      {
        line: 6,
        correlationId: `${adapter}-bad-email`,
        code: 'INVALID_INPUT',
        fields: ['email:isEmail', 'country:matches'],
      },
      { line: 7, correlationId: `${adapter}-ada`, code: 'CONFLICT', fields: [] },
      { line: 8, correlationId: `${adapter}-uma`, code: 'UMA_ADDRESS_EXISTS', fields: [] },
      { line: 9, correlationId: 'row_9', code: 'INVALID_INPUT', fields: ['platformCustomerId:required'] },
    ]);
    const [ada] = (await api.get(`/customers?platformCustomerId=${adapter}-ada`)).body.data;
    expect(ada).toMatchObject({
      customerType: 'INDIVIDUAL',
      umaAddress: `$${adapter}-ada@bulk.example.com`,
      fullName: `Ada ${adapter}-ada`,
      birthDate: '1990-01-15',
      email: 'ada@example.com',
      address: { line1: '1 Main St', line2: 'Floor 2\nBack door', city: 'Austin', country: 'US' },
      kycStatus: 'APPROVED',
      currencies: ['USD'],
    });
    const [acme] = (await api.get(`/customers?platformCustomerId=${adapter}-acme`)).body.data;
    expect(acme).toMatchObject({ customerType: 'BUSINESS', businessInfo: { legalName: `Acme ${adapter}-acme` } });
    // The rows' customers have their accounts, as after POST /customers.
    const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(ada.id)}`);
    expect(accounts.body.data.map((a: any) => a.balance.currency.code)).toEqual(['USD']);
  });

  it('reports a job where no row created a customer as FAILED', async () => {
    const jobId = await accepted(api, csvOf([individual('', {}), individual(`${adapter}-x`, { birthDate: 'soon' })]));
    const job = await waitForJob(api, jobId);
    expect(job).toMatchObject({ status: 'FAILED', progress: { total: 2, processed: 2, successful: 0, failed: 2 } });
    expect(job.errors.map((e: any) => e.line)).toEqual([2, 3]);
  });

  it('completes three imports of one platform uploaded at once (a platform’s imports take turns)', async () => {
    const files = ['p1', 'p2', 'p3'].map((tag) =>
      csvOf(Array.from({ length: 400 }, (_, i) => individual(`${adapter}-${tag}-${i}`))),
    );
    const jobIds = await Promise.all(files.map((csv) => accepted(api, csv)));
    const jobs = await Promise.all(jobIds.map((jobId) => waitForJob(api, jobId)));
    for (const job of jobs)
      expect(job).toMatchObject({ status: 'COMPLETED', progress: { total: 400, processed: 400, successful: 400 } });
    // Waiting for the platform's turn uses no attempt of the job's retry budget and records no failure.
    for (const jobId of jobIds) {
      const queued = await fixture.service.infra.jobs.getJob(BULK_IMPORT_QUEUE, `bulk-import:${jobId}`);
      expect(queued).toMatchObject({ state: 'completed', attemptsMade: 1 });
      expect(queued?.lastError).toBeUndefined();
    }
  });
});

describe('bulk customer import: the upload and the job resource', () => {
  const clock = new ManualClock(START);

  const t = useTestService({ clock });
  const api = t.api;

  const head = () => t.service.infra.eventStore.headPosition();

  it('refuses missing, unknown or repeated header columns: 400 INVALID_INPUT naming each, nothing stored', async () => {
    const before = await head();
    const missing = await upload(
      api,
      csvOf(
        [individual('h-1')],
        COLUMNS.filter((c) => c !== 'umaAddress'),
      ),
    );
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      status: 400,
      code: 'INVALID_INPUT',
      message: 'the CSV header is not valid: the header lacks the required column umaAddress',
      details: { errors: [{ field: 'file', constraint: 'missing_required_column' }] },
    });
    const unknown = await upload(api, csvOf([individual('h-2')], [...COLUMNS, 'nickname', 'city']));
    expect(unknown.body.details.errors.map((e: any) => e.constraint)).toEqual(['unknown_column', 'duplicate_column']);
    expect(unknown.body.details.knownColumns).toEqual(expect.arrayContaining(['umaAddress', 'businessTaxId']));
    const empty = await upload(api, '');
    expect(empty.body).toMatchObject({ status: 400, details: { errors: [{ constraint: 'empty_file' }] } });
    const noRows = await upload(api, `${COLUMNS.join(',')}\n\n`);
    expect(noRows.body).toMatchObject({ status: 400, details: { errors: [{ constraint: 'no_rows' }] } });
    const notCsv = await upload(api, `${COLUMNS.join(',')}\n"unclosed,quote\n`);
    expect(notCsv.body).toMatchObject({ status: 400, details: { errors: [{ constraint: 'invalid_csv_format' }] } });
    expect(await head()).toBe(before);
  });

  it('refuses a quote inside an unquoted field: 400 naming the line, never the value, in answer or log', async () => {
    const before = await head();
    const logged: string[] = [];
    const spies = (['log', 'warn', 'error', 'debug', 'verbose', 'fatal'] as const).map((level) =>
      jest.spyOn(Logger.prototype, level).mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(' '));
      }),
    );
    try {
      const secret = 'Ada "Secret" Lovelace';
      const rows = csvOf([individual('q-1')]).split('\n');
      rows.splice(2, 0, rows[1].replace('Ada q-1', secret).replace(/q-1/g, 'q-2'));
      const res = await upload(api, rows.join('\n'));
      expect({ status: res.status, body: res.body }).toEqual({
        status: 400,
        body: {
          status: 400,
          code: 'INVALID_INPUT',
          message: expect.stringMatching(/^the file is not valid CSV at line 3: a quote inside a field/),
          details: { errors: [expect.objectContaining({ field: 'file', constraint: 'invalid_csv_format' })] },
        },
      });
      expect(JSON.stringify(res.body)).not.toContain('Secret');
      expect(logged.filter((line) => line.includes('Secret'))).toEqual([]);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(await head()).toBe(before);
  });

  it('takes the file only as multipart/form-data in the file field', async () => {
    const csv = csvOf([individual('m-1')]);
    const json = await api.post('/customers/bulk/csv', { file: csv });
    expect({ status: json.status, code: json.body.code }).toEqual({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    const wrongField = await api.post('/customers/bulk/csv', csvForm(csv, 'document'));
    expect({ status: wrongField.status, code: wrongField.body.code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
    const form = csvForm(csv);
    form.append('note', 'hello');
    expect((await api.post('/customers/bulk/csv', form)).status).toBe(400);
    const none = await api.post('/customers/bulk/csv', undefined);
    expect(none.status).toBe(415);
  });

  it('shows a job to its own platform only: another platform’s job is 404 BULK_UPLOAD_JOB_NOT_FOUND', async () => {
    const jobId = await accepted(api, csvOf([individual('own-1')]));
    await waitForJob(api, jobId);
    const other = await t.otherPlatform();
    const foreign = await other.api.get(`/customers/bulk/jobs/${jobId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ status: 404, code: 'BULK_UPLOAD_JOB_NOT_FOUND' });
    const unknown = await api.get('/customers/bulk/jobs/Job:00000000-0000-4000-8000-00000000dead');
    expect(unknown.body.code).toBe('BULK_UPLOAD_JOB_NOT_FOUND');
    expect((await api.get('/customers/bulk/jobs/not-a-job')).status).toBe(400);
    // The other platform's rows are its own: the same platformCustomerId is free there (UMA addresses are global).
    const theirs = await accepted(
      other.api,
      csvOf([individual('own-1', { umaAddress: 'own-1-other@bulk.example.com' })]),
    );
    expect((await waitForJob(other.api, theirs)).progress).toMatchObject({ successful: 1, failed: 0 });
  });

  it('imports 10,000 rows, 50 bad: 9,950 customers, 50 errors with their lines, one BULK_UPLOAD webhook', async () => {
    const receiver: WebhookReceiver = await startWebhookReceiver();
    try {
      const platform = await t.otherPlatform();
      await pointWebhooksAt(platform.api, receiver);
      const bad = new Set(Array.from({ length: 50 }, (_, i) => 100 + i * 197)); // row indexes
      const rows = Array.from({ length: 10_000 }, (_, i) =>
        bad.has(i) ? individual(`big-${i}`, { birthDate: '15/01/1990' }) : individual(`big-${i}`),
      );
      const jobId = await accepted(platform.api, csvOf(rows));
      const job = await waitForJob(platform.api, jobId, undefined, 600_000);
      expect(job.status).toBe('COMPLETED');
      expect(job.progress).toEqual({ total: 10_000, processed: 10_000, successful: 9_950, failed: 50 });
      const lines = [...bad].map((i) => i + 2);
      expect(job.errors.map((e: any) => e.line)).toEqual(lines);
      expect(job.errors.every((e: any) => e.code === 'INVALID_INPUT')).toBe(true);
      expect(job.errors[0].details.errors).toEqual([
        { field: 'birthDate', constraint: 'matches', message: 'birthDate must be a date YYYY-MM-DD' },
      ]);
      const customers = await allCustomers(platform.api);
      const ids = customers.map((c) => c.platformCustomerId);
      expect(customers).toHaveLength(9_950);
      expect(new Set(ids).size).toBe(9_950);
      expect(ids.filter((id) => bad.has(Number(id.slice(4))))).toEqual([]);

      const hooks = await bulkUploadWebhooks(receiver);
      expect(hooks[0].ecdsaValid && hooks[0].standardValid).toBe(true);
      expect(hooks[0].json!.data).toEqual(job);
    } finally {
      await receiver.close();
    }
  }, 900_000);
});
