import { loadLedger } from './ledger-check.js';
import type { Client, TestService } from './service.js';

/** Every list of the API that has a totalCount: what a platform can see of its own state. */
export const COUNTED_LISTS = [
  '/customers?isIncludingDeleted=true',
  '/customers/internal-accounts',
  '/platform/internal-accounts',
  '/customers/external-accounts',
  '/platform/external-accounts',
  '/cards',
  '/quotes',
  '/transactions',
  '/invitations',
  '/tokens',
  '/verifications',
  '/documents',
  '/webhooks/deliveries',
] as const;

export interface StateSnapshot {
  counts: Record<string, number>;
  /**
   * Per ledger account: posted and pending debits and credits, as strings (bigints do not compare in toEqual output).
   */
  ledger: Record<string, string>;
  /** Position of the last event in the log: any change at all moves it. */
  head: string;
}

/** The platform's visible state: list counts, its ledger folded from the event log, and the log head. */
export async function snapshot(t: TestService, api: Client, platformId: string): Promise<StateSnapshot> {
  const counts: Record<string, number> = {};
  for (const path of COUNTED_LISTS) {
    const res = await api.get(path);
    if (res.status !== 200 || typeof res.body.totalCount !== 'number')
      throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    counts[path] = res.body.totalCount;
  }
  const ledger: Record<string, string> = {};
  for (const [id, a] of (await loadLedger(t.service.infra.eventStore, platformId)).accounts) {
    ledger[id] = `${a.debitsPosted}/${a.creditsPosted}/${a.debitsPending}/${a.creditsPending}`;
  }
  return { counts, ledger, head: String(await t.service.infra.eventStore.headPosition()) };
}
