import { describe, expect, it } from '@jest/globals';
import { useChildServices } from '../support/fixture.js';
import { pointWebhooksAt } from '../support/webhook-receiver.js';
import { allCustomers, bulkUploadWebhooks, csvOf, individual, upload, waitForJob } from './customers-bulk-support.js';

const ROWS = 1_000;
/** Rows (by index) with a birth date POST /customers refuses. */
const BAD = new Set([7, 260, 499, 501, 620, 990]);
/** Row 800 repeats row 12's platformCustomerId: 409 CONFLICT, as it would be one by one. */
const DUPLICATE = 800;

/**
 * A bulk import killed with SIGKILL halfway: with FAULT_INJECT=bulk-import-halfway the service kills
 * itself right after creating the customers of the window that holds the file's middle row, before
 * it records their outcomes. After a restart the job (taken over once its queue lease runs out) runs
 * that window again: the rows find the customers they created, so none is created twice, no row is
 * counted twice, and the job finishes with the exact counts.
 */
describe('bulk import across a crash', () => {
  const services = useChildServices('payments-bulk-crash-');

  it('creates no customer twice after SIGKILL halfway through the job and a restart; the job finishes', async () => {
    const receiver = await services.receiver();
    let child = await services.start({ FAULT_INJECT: 'bulk-import-halfway' });
    await pointWebhooksAt(child.api, receiver);
    const rows = Array.from({ length: ROWS }, (_, i) => {
      if (i === DUPLICATE) return individual('crash-12', { umaAddress: 'crash-dup@bulk.example.com' });
      return individual(`crash-${i}`, BAD.has(i) ? { birthDate: '1990-13-01' } : {});
    });
    const accepted = await upload(child.api, csvOf(rows));
    expect(accepted.status).toBe(202);
    const jobId: string = accepted.body.jobId;
    await new Promise<void>((resolve) => child.process.once('exit', () => resolve()));
    expect(child.process.signalCode).toBe('SIGKILL');

    child = await services.start();
    const atRestart = (await child.api.get(`/customers/bulk/jobs/${jobId}`)).body;
    expect(atRestart.progress.processed).toBeLessThan(ROWS);
    const job = await waitForJob(child.api, jobId, undefined, 120_000);
    const failed = [...BAD, DUPLICATE].sort((a, b) => a - b);
    expect(job).toMatchObject({
      status: 'COMPLETED',
      progress: { total: ROWS, processed: ROWS, successful: ROWS - failed.length, failed: failed.length },
    });
    expect(job.errors.map((e: any) => [e.line, e.code])).toEqual(
      failed.map((i) => [i + 2, i === DUPLICATE ? 'CONFLICT' : 'INVALID_INPUT']),
    );
    const customers = await allCustomers(child.api);
    const ids = customers.map((c) => c.platformCustomerId);
    expect(customers).toHaveLength(ROWS - failed.length);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [i] of rows.entries()) if (!failed.includes(i)) expect(ids).toContain(`crash-${i}`);

    const hooks = await bulkUploadWebhooks(receiver);
    expect(hooks[0].json!.data.progress).toEqual(job.progress);
  }, 240_000);
});
