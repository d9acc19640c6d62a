import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { runBankOnce, writeStatementOnce } from '#rails/bank-simulator-folders.js';
import { writeFileAtomically } from '#rails/file-exchange.js';
import { readStatement, writeStatement } from '#rails/iso20022/index.js';
import { useTestService } from '../support/fixture.js';
import { poll } from '../support/poll.js';
import type { Client } from '../support/service.js';
import { uniqueDigits, uniqueValue } from '../support/sequence.js';

const DAY_1 = '2026-03-09';
const DAY_2 = '2026-03-10';

/** Each day's camt.053 statement reconciled against the ledger's movements on the rail's bank account. */
describe('bank rail reconciliation (camt.053)', () => {
  const t = useTestService({ env: { RAILS_POLL_MS: '20' } });
  let api: Client;
  let folders: { outbox: string; inbox: string; state: string };

  const bankOn = (day: string) =>
    runBankOnce({
      outboxDir: folders.outbox,
      inboxDir: folders.inbox,
      stateFile: folders.state,
      now: new Date(`${day}T12:00:00Z`),
    });
  const status = (id: string, want: string) =>
    poll(
      async () => (await api.get(`/transactions/${id}`)).body,
      (tx) => tx.status === want,
      { what: `${id} ${want}`, timeoutMs: 10_000, intervalMs: 20 },
    );
  const written = (reference: string) =>
    poll(
      async () => {
        const names = (await readdir(folders.outbox).catch(() => [])).filter((n) => n.endsWith('.xml'));
        const texts = await Promise.all(names.map((n) => readFile(join(folders.outbox, n), 'utf8')));
        return texts.some((x) => x.includes(`<EndToEndId>${reference}</EndToEndId>`));
      },
      Boolean,
      { what: `an outbox file with ${reference}`, timeoutMs: 10_000, intervalMs: 20 },
    );
  const external = async (customerId: string, suffix: string) =>
    (
      await api.post('/customers/external-accounts', {
        customerId,
        currency: 'USD',
        accountInfo: {
          accountType: 'USD_ACCOUNT',
          accountNumber: uniqueDigits('recon-ext', 7) + suffix,
          routingNumber: '021000021',
          beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Grace Hopper' },
        },
        directDebitMandate: { mandateId: uniqueValue('M'), signedOn: '2026-01-02' },
      })
    ).body.id as string;
  /** A pull of `amount` and a payout of `paid`, both booked by the bank on `day`. */
  const dayOfPayments = async (day: string, amount: number, paid: number) => {
    const c = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: uniqueValue('recon'),
      fullName: 'Grace Hopper',
      kycStatus: 'APPROVED',
    });
    const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(c.body.id)}`);
    const usd = accounts.body.data.find((a: any) => a.balance.currency.code === 'USD').id;
    const pull = await api.post('/transfer-in', {
      source: { accountId: await external(c.body.id, '101') },
      destination: { accountId: usd },
      amount,
    });
    await written(pull.body.reconciliationInstructions.reference);
    await bankOn(day);
    await status(pull.body.id, 'COMPLETED');
    const out = await api.post('/transfer-out', {
      source: { accountId: usd },
      destination: { accountId: await external(c.body.id, '201') },
      amount: paid,
    });
    expect([out.status, out.body.status]).toEqual([201, 'PROCESSING']);
    await written(out.body.reconciliationInstructions.reference);
    await bankOn(day);
    await status(out.body.id, 'COMPLETED');
    return { pull: pull.body.reconciliationInstructions.reference, out: out.body.reconciliationInstructions.reference };
  };
  const reconciled = (date: string): Promise<any> =>
    poll<any>(
      async (): Promise<any> =>
        (await api.get('/bank-rails/USD/reconciliations')).body.data.find((r: any) => r.date === date),
      Boolean,
      { what: `the reconciliation of ${date}`, timeoutMs: 10_000, intervalMs: 20 },
    );

  beforeAll(async () => {
    const prod = await t.otherPlatform({ sandbox: false });
    api = prod.api;
    const rail = {
      currency: 'USD',
      type: 'ISO20022_FILES',
      account: { name: 'Recon Payments', accountNumber: '7000999888', routingNumber: '021000021' },
      creditorSchemeId: 'RECON01',
    };
    const patched = await api.patch('/config', { rails: [rail] });
    expect(patched.status).toBe(200);
    const [shown] = patched.body.rails;
    folders = { outbox: shown.outboxFolder, inbox: shown.inboxFolder, state: join(t.dataDir, 'recon-bank.json') };
  });

  it('closes a day whose statement matches the ledger', async () => {
    await dayOfPayments(DAY_1, 10_000, 3_000);
    await writeStatementOnce({ inboxDir: folders.inbox, stateFile: folders.state, date: DAY_1 });
    const day = await reconciled(DAY_1);
    expect(day).toMatchObject({ date: DAY_1, breaks: [], closed: true });
    expect(BigInt(day.closingBalance) - BigInt(day.openingBalance)).toBe(7_000n);
  });

  it('reports exactly an entry the ledger lacks and a movement the statement lacks', async () => {
    const { out } = await dayOfPayments(DAY_2, 5_000, 1_250);
    await mkdir(join(t.dataDir, 'statements'), { recursive: true });
    await writeStatementOnce({ inboxDir: join(t.dataDir, 'statements'), stateFile: folders.state, date: DAY_2 });
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
    await writeFileAtomically(folders.inbox, 'statement-day-2.xml', doctored);
    const day = await reconciled(DAY_2);
    expect(day.closed).toBe(false);
    expect(day.breaks).toEqual([
      expect.objectContaining({ kind: 'ENTRY_NOT_IN_LEDGER', reference: 'PLANTED-1', statementAmount: '42' }),
      expect.objectContaining({ kind: 'MOVEMENT_NOT_ON_STATEMENT', reference: out, ledgerAmount: '1250' }),
    ]);
  });
});
