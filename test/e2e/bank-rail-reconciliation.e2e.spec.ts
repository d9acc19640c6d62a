import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { writeStatementOnce } from '#rails/bank-simulator-folders.js';
import { writeFileAtomically } from '#rails/file-exchange.js';
import { readStatement, writeStatement } from '#rails/iso20022/index.js';
import { useTestService } from '../support/fixture.js';
import { RailDriver } from './bank-rail-support.js';

const DAY_1 = '2026-03-09';
const DAY_2 = '2026-03-10';

/** Each day's camt.053 statement reconciled against the ledger's movements on the rail's bank account. */
describe('bank rail reconciliation (camt.053)', () => {
  const t = useTestService({ env: { RAILS_POLL_MS: '20' } });
  let rail: RailDriver;

  /** A pull of `amount` and a payout of `paid`, both booked by the bank on `day`. */
  const dayOfPayments = async (day: string, amount: number, paid: number) => {
    const noon = new Date(`${day}T12:00:00Z`);
    const c = await rail.customer();
    const pull = await rail.pull(c.id, c.usd, amount);
    await rail.booked(pull, noon);
    const out = await rail.transferOut(c.usd, await rail.external(c.id, '201'), paid);
    await rail.booked(out, noon);
    return { pull: pull.reconciliationInstructions.reference, out: out.reconciliationInstructions.reference };
  };

  beforeAll(async () => {
    const prod = await t.otherPlatform({ sandbox: false });
    const config = {
      currency: 'USD',
      type: 'ISO20022_FILES',
      account: { name: 'Recon Payments', accountNumber: '7000999888', routingNumber: '021000021' },
      creditorSchemeId: 'RECON01',
    };
    rail = await RailDriver.configure(prod.api, join(t.dataDir, 'recon-bank.json'), undefined, config);
  });

  it('closes a day whose statement matches the ledger', async () => {
    await dayOfPayments(DAY_1, 10_000, 3_000);
    await writeStatementOnce({ inboxDir: rail.folders.inbox, stateFile: rail.folders.state, date: DAY_1 });
    const day = await rail.reconciled(DAY_1);
    expect(day).toMatchObject({ date: DAY_1, breaks: [], closed: true });
    expect(BigInt(day.closingBalance) - BigInt(day.openingBalance)).toBe(7_000n);
  });

  it('reports exactly an entry the ledger lacks and a movement the statement lacks', async () => {
    const { out } = await dayOfPayments(DAY_2, 5_000, 1_250);
    await mkdir(join(t.dataDir, 'statements'), { recursive: true });
    await writeStatementOnce({ inboxDir: join(t.dataDir, 'statements'), stateFile: rail.folders.state, date: DAY_2 });
    const [name] = await readdir(join(t.dataDir, 'statements'));
    const statement = readStatement(await readFile(join(t.dataDir, 'statements', name), 'utf8'));
    const kept = statement.entries.filter((e) => !e.details.some((d) => d.endToEndId === out));
    expect(kept).toHaveLength(statement.entries.length - 1);
    const planted = {
      ...kept[0],
      entryReference: 'PLANTED-1',
      bankReference: 'PLANTED-1',
      amount: { minor: 42n, currency: 'USD' },
      creditDebit: 'CRDT' as const,
      details: [{ remittanceInformation: 'bank fee refund' }],
    };
    const entries = [...kept, planted];
    const net = entries.reduce((t, e) => t + (e.creditDebit === 'CRDT' ? e.amount.minor : -e.amount.minor), 0n);
    const opening =
      (statement.openingBalance.creditDebit === 'CRDT' ? 1n : -1n) * statement.openingBalance.amount.minor;
    const closing = opening + net;
    const doctored = writeStatement({
      ...statement,
      messageId: `${statement.messageId}-X`,
      statementId: `${statement.statementId}-X`,
      entries,
      closingBalance: {
        amount: { minor: closing < 0n ? -closing : closing, currency: 'USD' },
        creditDebit: closing < 0n ? 'DBIT' : 'CRDT',
      },
    });
    await writeFileAtomically(rail.folders.inbox, 'statement-day-2.xml', doctored);
    const day = await rail.reconciled(DAY_2);
    expect(day.closed).toBe(false);
    expect(day.breaks).toEqual([
      expect.objectContaining({ kind: 'ENTRY_NOT_IN_LEDGER', reference: 'PLANTED-1', statementAmount: '42' }),
      expect.objectContaining({ kind: 'MOVEMENT_NOT_ON_STATEMENT', reference: out, ledgerAmount: '1250' }),
    ]);
  });
});
