import { describe, expect, it } from '@jest/globals';
import { startChildService, type ChildService } from '../support/child-service.js';
import { useDataDir } from '../support/fixture.js';

/**
 * Durability: a service process killed with SIGKILL in the middle of a burst of customer
 * creations loses no acknowledged write and duplicates none.
 */
describe('crash during a burst of writes', () => {
  let child: ChildService | undefined;
  const dataDir = useDataDir('payments-crash-', () => child?.kill());

  it('keeps every acknowledged customer and never duplicates one after SIGKILL and restart', async () => {
    child = await startChildService(dataDir);
    const acknowledged = new Map<string, string>(); // platformCustomerId -> id
    const attempted: string[] = [];
    let killed = false;
    let n = 0;
    const target = 120;
    const worker = async () => {
      for (;;) {
        // Every worker attempts once more after the kill was decided; the one that killed does so after the
        // process is gone, so at least one attempt is never acknowledged.
        const last = killed;
        const ref = `crash-${n++}`;
        attempted.push(ref);
        try {
          const res = await child!.api.post('/customers', { platformCustomerId: ref, customerType: 'INDIVIDUAL' });
          if (res.status === 201) acknowledged.set(ref, res.body.id);
          else throw new Error(`unexpected ${res.status}: ${JSON.stringify(res.body)}`);
        } catch (error) {
          if (!killed) throw error;
        }
        if (last) return;
        if (acknowledged.size >= target && !killed) {
          killed = true;
          await child!.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(acknowledged.size).toBeGreaterThanOrEqual(target);
    expect(attempted.length).toBeGreaterThan(acknowledged.size); // some were in flight at the kill

    child = await startChildService(dataDir);
    for (const [ref, id] of acknowledged) {
      const res = await child.api.get(`/customers/${id}`);
      expect({ ref, status: res.status }).toEqual({ ref, status: 200 });
      expect(res.body.platformCustomerId).toBe(ref);
    }
    const listed: { id: string; platformCustomerId: string }[] = [];
    let cursor: string | undefined;
    do {
      const res = await child.api.get(`/customers?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      listed.push(...res.body.data);
      cursor = res.body.nextCursor;
    } while (cursor);
    const refs = listed.map((c) => c.platformCustomerId);
    expect(new Set(refs).size).toBe(refs.length);
    for (const ref of acknowledged.keys()) expect(refs).toContain(ref);
    for (const ref of refs) expect(attempted).toContain(ref);
  });
});
