import { csvForm, csvOf, individual, waitForJob } from './customers-bulk-support.js';
import { caseOf, unique } from './idempotency-fixtures.js';

/**
 * POST /customers/bulk/csv in the Idempotency-Key table: a multipart upload, whose key identifies
 * the file by its bytes; the customers come from the job it queues, so the effect waits for the jobs.
 */
export const bulkUploadCase = caseOf('/customers/bulk/csv', 202, async (f) => {
  const id = unique('bulk');
  const file = (fullName: string) => csvOf([individual(id, { fullName })]);
  const jobs = new Set<string>();
  return {
    request: { path: '/customers/bulk/csv', body: file('Ada Lovelace') },
    other: { path: '/customers/bulk/csv', body: file('Ada King') },
    effect: async () => {
      for (const job of jobs) await waitForJob(f.api, job);
      return f.total(`/customers?platformCustomerId=${id}`);
    },
    delta: 1,
    send: async (req, headers) => {
      const res = await f.api.post(req.path, csvForm(req.body as string), headers);
      if (res.status === 202) jobs.add(res.body.jobId);
      return res;
    },
  };
});
