import { CASES } from '../../e2e/idempotency-cases.js';
import { fixtures } from '../../e2e/idempotency-fixtures.js';
import { ok, type Tour } from './tour.js';

/**
 * Every POST that creates or moves something, as the Idempotency-Key table prepares and sends it
 * (test/e2e/idempotency-cases.ts), once each without a key; before them, the platform's decisions on incoming
 * payments with their optional bodies (the table sends none).
 */
export async function createsTour({ t, api, clock }: Tour): Promise<void> {
  const f = fixtures({ ...t, api }, clock);
  const { one, two } = await f.pendingIncoming();
  const receiverCustomerInfo = { FULL_NAME: 'Bob Receiver', BIRTH_DATE: '1990-01-01', NATIONALITY: 'US' };
  ok(await api.post(`/transactions/${one}/approve`, { receiverCustomerInfo }));
  ok(await api.post(`/transactions/${two}/reject`, { reason: 'RESTRICTED_JURISDICTION' }));
  for (const c of CASES) {
    const prepared = await c.setup(f);
    const reply = prepared.send
      ? await prepared.send(prepared.request, {})
      : await api.post(prepared.request.path, prepared.request.body);
    ok(reply, c.status, `POST ${c.op}`);
  }
}
