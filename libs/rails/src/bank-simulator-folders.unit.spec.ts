import { describe, expect, it } from '@jest/globals';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { payInOnce, runBankOnce, writeStatementOnce } from './bank-simulator-folders.js';
import { listInbox } from './file-exchange.js';
import { readNotification, readStatement, readStatusReport, writePain001 } from './iso20022/index.js';
import { pain001 } from './iso20022/samples.fixtures.js';
import { useTempFolder } from './temp-folder.fixtures.js';

describe('bank simulator on folders', () => {
  const root = useTempFolder('bank-', ['outbox', 'inbox']);
  const folders = () => ({
    outboxDir: join(root(), 'outbox'),
    inboxDir: join(root(), 'inbox'),
    stateFile: join(root(), 'bank-state.json'),
  });

  it('takes the outbox, answers into the inbox, keeps its state between runs', async () => {
    const { outboxDir, inboxDir, stateFile } = folders();
    await writeFile(join(outboxDir, 'pain.001.PO-1.xml'), writePain001(pain001));
    await writeFile(join(outboxDir, '.pain.001.PO-2.xml.tmp'), 'still being written');
    const first = await runBankOnce({ outboxDir, inboxDir, stateFile, now: new Date('2026-11-28T10:00:00Z') });
    expect(first.taken).toEqual(['pain.001.PO-1.xml']);
    expect(await readdir(join(outboxDir, 'taken'))).toEqual(['pain.001.PO-1.xml']);
    expect((await listInbox(outboxDir)).length).toBe(0);
    const inbox = await listInbox(inboxDir);
    expect(inbox.map((f) => f.name)).toEqual(first.written);
    const [report, ...notifications] = await Promise.all(inbox.map((f) => readFile(f.path, 'utf8')));
    expect(readStatusReport(report).originalMessageId).toBe('PO-20261128-0001');
    expect(notifications.map((x) => readNotification(x).entries.length)).toEqual([2, 1]);

    // The same file again: the saved state knows its MsgId.
    await writeFile(join(outboxDir, 'pain.001.PO-1.xml'), writePain001(pain001));
    const second = await runBankOnce({ outboxDir, inboxDir, stateFile, now: new Date('2026-11-28T11:00:00Z') });
    expect(await readdir(join(outboxDir, 'taken'))).toEqual(['pain.001.PO-1.1.xml', 'pain.001.PO-1.xml']);
    const dup = readStatusReport(await readFile(join(inboxDir, second.written[0]), 'utf8'));
    expect(dup).toMatchObject({ groupStatus: 'RJCT', groupReasonCode: 'DU01' });

    const { written } = await writeStatementOnce({ inboxDir, stateFile, date: '2026-11-28' });
    expect(written.length).toBe(2);
    const stmts = await Promise.all(written.map((n) => readFile(join(inboxDir, n), 'utf8')));
    expect(stmts.map((x) => readStatement(x).closingBalance)).toEqual([
      { amount: { minor: 123457n, currency: 'EUR' }, creditDebit: 'DBIT' },
      { amount: { minor: 100000000n, currency: 'USD' }, creditDebit: 'DBIT' },
    ]);
    expect(JSON.parse(await readFile(stateFile, 'utf8')).seenMessageIds).toEqual(['PO-20261128-0001']);
  });

  it('a run with nothing waiting writes nothing', async () => {
    const { outboxDir, inboxDir, stateFile } = folders();
    expect(await runBankOnce({ outboxDir, inboxDir, stateFile, now: new Date() })).toEqual({ taken: [], written: [] });
    expect(await readdir(inboxDir)).toEqual([]);
  });

  it('books a pay-in at once and notifies it, remembering it for the statement', async () => {
    const { inboxDir, stateFile } = folders();
    const account = { name: 'Acme Payments', accountNumber: '7000123456', routingNumber: '021000021' };
    const debtor = { name: 'Charles Babbage', accountNumber: '4400012345', routingNumber: '021000021' };
    const now = new Date('2026-11-28T10:00:00Z');
    const amount = { minor: 2_500n, currency: 'USD' };
    const paid = await payInOnce({
      inboxDir,
      stateFile,
      account,
      amount,
      remittanceInformation: 'FUND-1',
      debtor,
      now,
    });
    expect(paid.written).toHaveLength(1);
    const notification = readNotification(await readFile(join(inboxDir, paid.written[0]), 'utf8'));
    expect(notification.entries).toEqual([
      expect.objectContaining({
        amount,
        creditDebit: 'CRDT',
        details: [expect.objectContaining({ remittanceInformation: 'FUND-1' })],
      }),
    ]);
    const { written } = await writeStatementOnce({ inboxDir, stateFile, date: '2026-11-28' });
    const statement = readStatement(await readFile(join(inboxDir, written[0]), 'utf8'));
    expect(statement.closingBalance).toEqual({ amount, creditDebit: 'CRDT' });
  });
});
