/**
 * The bank simulator on real folders, for developers and end-to-end tests: the service writes pain.001/008
 * into its outbox folder; one run of the bank takes them (into `outbox/taken/`), answers into the inbox folder
 * and saves its state in a JSON file. Runs are meant to be called from a script or a test, one at a time.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BankSimulator } from './bank-simulator.js';
import { listInbox, moveTo, replaceFileAtomically, writeFileAtomically } from './file-exchange.js';
import type { Amount, BankAccount } from './iso20022/messages.js';

/** The subfolder of the outbox that holds the files the bank has taken. */
export const TAKEN = 'taken';

async function loadBank(stateFile: string): Promise<BankSimulator> {
  let text: string;
  try {
    text = await readFile(stateFile, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return BankSimulator.create();
    throw e;
  }
  return BankSimulator.fromJSON(JSON.parse(text));
}

async function saveBank(stateFile: string, bank: BankSimulator): Promise<void> {
  await replaceFileAtomically(stateFile, `${JSON.stringify(bank.toJSON(), null, 2)}\n`);
}

/**
 * One run of the bank: every file in the outbox it has not taken yet is processed (in name order), the answers
 * are written into the inbox, the state saved, and the files moved into `outbox/taken/`. Answers are written
 * before the state is saved, so a run that stops half way leaves the files in the outbox to be taken again.
 */
export async function runBankOnce(input: {
  outboxDir: string;
  inboxDir: string;
  stateFile: string;
  now: Date;
}): Promise<{ taken: string[]; written: string[] }> {
  const bank = await loadBank(input.stateFile);
  const waiting = await listInbox(input.outboxDir);
  const files = await Promise.all(waiting.map(async (f) => ({ name: f.name, xml: await readFile(f.path, 'utf8') })));
  const answers = bank.process({ files, now: input.now });
  for (const answer of answers) await writeFileAtomically(input.inboxDir, answer.name, answer.xml);
  await saveBank(input.stateFile, bank);
  for (const f of waiting) await moveTo(f.path, join(input.outboxDir, TAKEN));
  return { taken: waiting.map((f) => f.name), written: answers.map((a) => a.name) };
}

/** The day's camt.053 statement of every account the bank holds, written into the inbox. */
export async function writeStatementOnce(input: {
  inboxDir: string;
  stateFile: string;
  date: string;
}): Promise<{ written: string[] }> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.date)) throw new Error(`date ${input.date} is not YYYY-MM-DD`);
  const bank = await loadBank(input.stateFile);
  const statements = bank.endOfDayAll(input.date);
  for (const s of statements) await writeFileAtomically(input.inboxDir, s.name, s.xml);
  await saveBank(input.stateFile, bank);
  return { written: statements.map((s) => s.name) };
}

/**
 * A customer paying into the service's account `account`: the bank books the credit at once and writes its camt.054
 * (with anything else it had due) into the inbox, then saves its state. Answers are written before the state is
 * saved, as in `runBankOnce`.
 */
export async function payInOnce(input: {
  inboxDir: string;
  stateFile: string;
  account: BankAccount;
  amount: Amount;
  remittanceInformation?: string;
  debtor: BankAccount;
  now: Date;
}): Promise<{ written: string[] }> {
  const bank = await loadBank(input.stateFile);
  bank.incomingCredit({
    account: input.account,
    amount: input.amount,
    remittanceInformation: input.remittanceInformation,
    debtor: input.debtor,
  });
  const answers = bank.process({ files: [], now: input.now });
  for (const answer of answers) await writeFileAtomically(input.inboxDir, answer.name, answer.xml);
  await saveBank(input.stateFile, bank);
  return { written: answers.map((a) => a.name) };
}
