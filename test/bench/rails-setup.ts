import { randomUUID } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CommandBus } from '@nestjs/cqrs';
import type { RunningService } from '../../apps/api/src/service.js';
import { CreatePlatformCommand } from '#application/platforms/platform-commands.js';
import { runBankOnce } from '#rails/bank-simulator-folders.js';
import { isTemporaryName } from '#rails/file-exchange.js';
import { basicAuth, client, type Client } from '../support/service.js';
import { customerAccount, expectStatus, NO_CHECK } from './scenario.js';
import { USD_RAIL } from '../support/usd-rail.js';

/** A customer of the platform: its USD account, the bank account it pulls from and the one it pays out to. */
export interface RailCustomer {
  id: string;
  usd: string;
  pullFrom: string;
  payTo: string;
}

export interface RailFolders {
  outbox: string;
  inbox: string;
  /** The bank simulator's state (`runBankOnce`). */
  state: string;
}

/** A production platform with the USD rail: its client and its rail's exchange folders. */
export async function productionPlatform(
  service: RunningService,
  dataDir: string,
): Promise<{ api: Client; folders: RailFolders }> {
  const created: { platformId: string; token: { id: string; clientSecret: string } } = await service.app
    .get(CommandBus)
    .execute(
      new CreatePlatformCommand({ name: 'Bench Rails', sandbox: false, umaDomain: 'bench.example.com' }, 'bench'),
    );
  await service.infra.projections.waitForPosition(await service.infra.eventStore.headPosition(), 10_000);
  const api = client(service.url, basicAuth(created.token.id, created.token.clientSecret), NO_CHECK);
  const patched = await expectStatus(api.patch('/config', { rails: [USD_RAIL] }), 200, 'PATCH /config rails');
  const [rail] = patched.rails;
  return { api, folders: { outbox: rail.outboxFolder, inbox: rail.inboxFolder, state: join(dataDir, 'bank.json') } };
}

/** `n` approved customers, each with a USD account, a mandate to pull from its bank account, and a payee account. */
export async function railCustomers(api: Client, n: number): Promise<RailCustomer[]> {
  const out: RailCustomer[] = [];
  const external = async (customerId: string, accountNumber: string, mandate: boolean) =>
    (
      await expectStatus(
        api.post('/customers/external-accounts', {
          customerId,
          currency: 'USD',
          accountInfo: {
            accountType: 'USD_ACCOUNT',
            accountNumber,
            routingNumber: '021000021',
            beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
          },
          ...(mandate ? { directDebitMandate: { mandateId: `MANDATE${accountNumber}`, signedOn: '2026-01-15' } } : {}),
        }),
        201,
        'create external account',
      )
    ).id as string;
  for (let i = 0; i < n; i++) {
    const c = await customerAccount(api, {
      customerType: 'INDIVIDUAL',
      platformCustomerId: `bench-rail-${randomUUID()}`,
      fullName: 'Ada Lovelace',
      kycStatus: 'APPROVED',
      currencies: ['USD'],
    });
    // Suffixes 101 and 201 are not in the simulator's table of outcomes: the bank books them.
    const digits = String(i).padStart(7, '0');
    out.push({
      id: c.id,
      usd: c.accountId,
      pullFrom: await external(c.id, `${digits}101`, true),
      payTo: await external(c.id, `${digits}201`, false),
    });
  }
  return out;
}

/** The end-to-end ids of a pain.001 or pain.008. */
const END_TO_END = /<EndToEndId>([^<]+)<\/EndToEndId>/g;

/**
 * What the rail has written into its outbox (and what the bank has taken from it, in `outbox/taken/`): the end-to-end
 * ids found, and in how many files. Each scan reads only the files it has not read before.
 */
export class OutboxWatch {
  readonly ids = new Set<string>();
  private readonly read = new Set<string>();
  readonly fileIds = new Map<string, number>();

  constructor(private readonly outbox: string) {}

  async scan(): Promise<void> {
    for (const dir of [this.outbox, join(this.outbox, 'taken')]) {
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const name of names) {
        if (!name.endsWith('.xml') || isTemporaryName(name) || this.read.has(name)) continue;
        this.read.add(name);
        const xml = await readFile(join(dir, name), 'utf8');
        const found = [...xml.matchAll(END_TO_END)].map((m) => m[1]);
        this.fileIds.set(name, found.length);
        for (const id of found) this.ids.add(id);
      }
    }
  }

  /** Scans every `intervalMs` until every id of `expected` was found; answers when (performance.now()). */
  async waitFor(expected: Iterable<string>, intervalMs: number, timeoutMs: number): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      await this.scan();
      const missing = [...expected].filter((id) => !this.ids.has(id));
      if (missing.length === 0) return performance.now();
      if (performance.now() > deadline)
        throw new Error(`${missing.length} end-to-end ids not in the outbox after ${timeoutMs} ms, e.g. ${missing[0]}`);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

/** One run of the bank simulator on the rail's folders, with its duration. */
export async function bankRun(folders: RailFolders): Promise<{ taken: number; written: string[]; ms: number }> {
  const started = performance.now();
  const { taken, written } = await runBankOnce({
    outboxDir: folders.outbox,
    inboxDir: folders.inbox,
    stateFile: folders.state,
    now: new Date(),
  });
  return { taken: taken.length, written, ms: performance.now() - started };
}

/** How many of the platform's transactions have `status` (the list's exact totalCount). */
export async function countWithStatus(api: Client, status: string): Promise<number> {
  const page = await expectStatus(api.get(`/transactions?status=${status}&limit=1`), 200, 'list transactions');
  return page.totalCount as number;
}

/** Polls until no transaction of the platform is PROCESSING; answers when (performance.now()). */
export async function processingDrained(api: Client, intervalMs: number, timeoutMs: number): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const left = await countWithStatus(api, 'PROCESSING');
    if (left === 0) return performance.now();
    if (performance.now() > deadline) throw new Error(`${left} transactions still PROCESSING after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The names of the files in `dir` (none if it does not exist). */
export async function filesIn(dir: string): Promise<string[]> {
  return (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((e) => e.isFile()).map((e) => e.name);
}

/** Pulls `amount` into every customer's USD account, lets the bank book the pulls, and waits until they complete. */
export async function fundByPulls(
  api: Client,
  customers: RailCustomer[],
  folders: RailFolders,
  amount: number,
): Promise<void> {
  const ids: string[] = [];
  for (const c of customers) {
    const pull = await expectStatus(
      api.post('/transfer-in', { source: { accountId: c.pullFrom }, destination: { accountId: c.usd }, amount }),
      201,
      'transfer-in',
    );
    ids.push(pull.reconciliationInstructions.reference);
  }
  await new OutboxWatch(folders.outbox).waitFor(ids, 50, 60_000);
  await bankRun(folders);
  await processingDrained(api, 50, 60_000);
}
