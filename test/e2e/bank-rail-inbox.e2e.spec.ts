import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { streams } from '#domain/primitives.js';
import { writeStatementOnce } from '#rails/bank-simulator-folders.js';
import { decimalText } from '#rails/iso20022/index.js';
import { useTestService } from '../support/fixture.js';
import { expectBalancedLedger } from '../support/ledger-check.js';
import type { Client } from '../support/service.js';
import { filesIn, RailDriver, type RailCustomer, type RailFolders } from './bank-rail-support.js';
import { corruptedVariants } from './bank-rail-variants.js';

const VARIANTS = 200;
const BATCH = 40;

/** What the API shows of a platform's money: every transaction's status, and the balances of some accounts. */
async function snapshot(api: Client, accounts: string[]) {
  const txs = await api.get('/transactions?limit=100');
  expect(txs.status).toBe(200);
  const statuses = Object.fromEntries(txs.body.data.map((tx: any) => [tx.id, tx.status]));
  const balances: Record<string, number> = {};
  for (const id of accounts) balances[id] = (await api.get(`/internal-accounts/${id}`)).body.balance.amount;
  return { statuses, balances };
}

/** Calls the API over and over until stopped; answers every status it got. */
function keepCalling(api: Client, paths: string[]) {
  let running = true;
  const statuses: number[] = [];
  const loop = (async () => {
    while (running) {
      for (const path of paths) statuses.push((await api.get(path)).status);
      // Paced, so that the calls share the process with the worker rather than crowd it out.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return statuses;
  };
}

/**
 * Files from the bank are inputs to distrust: a copy of a file already taken, and files corrupted in every way a
 * file can be, are quarantined with a reason and move no money; the API answers throughout.
 */
describe('bank rail inbox: copies and corrupted files', () => {
  const t = useTestService({ env: { RAILS_POLL_MS: '20' } });
  let prod: { platformId: string; api: Client };
  let rail: RailDriver;

  const railEvents = async (type: string) =>
    (await t.service.infra.eventStore.readStream(streams.bankRail(prod.platformId, 'USD')))
      .filter((e) => e.type === type)
      .map((e) => (e.data as { file: { fileName: string; quarantineReason?: string } }).file);

  beforeAll(async () => {
    prod = await t.otherPlatform({ sandbox: false });
    rail = await RailDriver.configure(prod.api, join(t.dataDir, 'bank-state.json'));
  });

  it('applies a booking once: a copy under another name or the same one is quarantined, naming the first', async () => {
    const c = await rail.funded(8_000);
    const quote = await rail.payout(c.usd, await rail.external(c.id, '201'), 3_000);
    await rail.outboxHolds((await rail.transaction(quote.transactionId)).reconciliationInstructions.reference);
    const { written } = await rail.bank();
    await rail.settles(quote.transactionId, 'COMPLETED');
    await rail.inboxEmpty();
    const [notification] = written.filter((n) => n.includes('.camt.054.'));
    expect(await rail.archived('processed')).toContain(notification);
    const content = await readFile(join(rail.folders.inbox, 'processed', notification));
    const before = await snapshot(prod.api, [c.usd]);
    expect(before.balances[c.usd]).toBe(5_000);

    await rail.drop(`copy-of-${notification}`, content);
    await rail.inboxEmpty();
    await rail.drop(notification, content);
    await rail.inboxEmpty();

    expect(await rail.archived('quarantine')).toEqual(
      expect.arrayContaining([notification, `copy-of-${notification}`]),
    );
    const quarantined = await railEvents('BankFileQuarantined');
    expect(quarantined.map((f) => [f.fileName, f.quarantineReason])).toEqual([
      [`copy-of-${notification}`, expect.stringContaining(`a copy of ${notification}`)],
      [notification, expect.stringContaining(`a copy of ${notification}`)],
    ]);
    expect((await railEvents('BankFileReceived')).filter((f) => f.fileName.includes(notification))).toHaveLength(1);
    expect(await snapshot(prod.api, [c.usd])).toEqual(before);
  });

  /** A payout written out and not answered, and the bank's answers to it held back in folders of the test's own. */
  async function heldBackAnswers(c: RailCustomer) {
    const quote = await rail.payout(c.usd, await rail.external(c.id, '201'), 5_000);
    const tx = await rail.transaction(quote.transactionId);
    const endToEndId: string = tx.reconciliationInstructions.reference;
    await rail.outboxHolds(endToEndId);
    const aside: RailFolders = {
      outbox: join(t.dataDir, 'aside', 'outbox'),
      inbox: join(t.dataDir, 'aside', 'inbox'),
      state: join(t.dataDir, 'aside', 'bank-state.json'),
    };
    await mkdir(aside.outbox, { recursive: true });
    await mkdir(aside.inbox, { recursive: true });
    await copyFile(rail.folders.state, aside.state);
    for (const name of await filesIn(rail.folders.outbox))
      await copyFile(join(rail.folders.outbox, name), join(aside.outbox, name));
    // One instant for the run and the statement: the statement is of the day the payout is booked on.
    const now = new Date();
    await rail.bank(aside, now);
    await writeStatementOnce({ inboxDir: aside.inbox, stateFile: aside.state, date: now.toISOString().slice(0, 10) });
    const files = await filesIn(aside.inbox);
    const named = (kind: string) => join(aside.inbox, files.find((n) => n.includes(kind)) ?? `no ${kind} file`);
    const read = (kind: string) => readFile(named(kind), 'utf8');
    const answers = {
      pain002: await read('.pain.002.'),
      camt054: await read('.camt.054.'),
      camt053: await read('.camt.053.'),
    };
    const amount = decimalText(BigInt(tx.receivedAmount.amount), 2);
    return { transactionId: tx.id as string, endToEndId, amount, answers, names: files };
  }

  it(`quarantines ${VARIANTS} corrupted copies of real files, moving nothing; the API answers throughout`, async () => {
    const c = await rail.funded(10_000);
    const payout = await heldBackAnswers(c);
    expect(payout.answers.camt054).toContain(`<EndToEndId>${payout.endToEndId}</EndToEndId>`);
    const variants = corruptedVariants(
      { ...payout.answers, endToEndId: payout.endToEndId, amount: payout.amount },
      VARIANTS,
    );
    expect(variants).toHaveLength(VARIANTS);
    const before = await snapshot(prod.api, [c.usd]);
    expect(before.statuses[payout.transactionId]).toBe('PROCESSING');
    const eventsBefore = (await railEvents('BankFileQuarantined')).length;

    const stop = keepCalling(prod.api, ['/transactions?limit=100', '/config', `/internal-accounts/${c.usd}`]);
    let takingMs = 0;
    for (let i = 0; i < variants.length; i += BATCH) {
      for (const v of variants.slice(i, i + BATCH)) await rail.drop(v.name, v.content);
      const started = Date.now();
      await rail.inboxEmpty(60_000);
      takingMs += Date.now() - started;
    }
    const statuses = await stop();
    console.log(`the rail took ${VARIANTS} corrupted files in ${takingMs} ms; ${statuses.length} API calls meanwhile`);

    const quarantine = new Set(await rail.archived('quarantine'));
    expect(variants.filter((v) => !quarantine.has(v.name)).map((v) => v.label)).toEqual([]);
    const events = (await railEvents('BankFileQuarantined')).slice(eventsBefore);
    const reasons = new Map(events.map((f) => [f.fileName, f.quarantineReason ?? '']));
    expect(variants.filter((v) => !reasons.get(v.name)?.trim()).map((v) => v.label)).toEqual([]);
    expect(events).toHaveLength(VARIANTS);
    const taken = new Set((await railEvents('BankFileReceived')).map((f) => f.fileName));
    expect(variants.filter((v) => taken.has(v.name)).map((v) => v.label)).toEqual([]);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(await snapshot(prod.api, [c.usd])).toEqual(before);
    await expectBalancedLedger(t.service.infra.eventStore, prod.platformId);

    // The genuine answers are taken: the variants were refused for what was done to them.
    for (const name of payout.names) await rail.drop(name, await readFile(join(t.dataDir, 'aside', 'inbox', name)));
    await rail.settles(payout.transactionId, 'COMPLETED');
    await rail.inboxEmpty();
    expect(await rail.archived('processed')).toEqual(expect.arrayContaining(payout.names));
    expect(await rail.balance(c.usd)).toBe(5_000);
    await expectBalancedLedger(t.service.infra.eventStore, prod.platformId);
  }, 120_000);
});
