import { fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { BankSimulator, type BankFile } from '#rails/bank-simulator.js';
import { TAKEN } from '#rails/bank-simulator-folders.js';
import { listInbox, moveTo, replaceFileAtomically, writeFileAtomically } from '#rails/file-exchange.js';

/** What one run of the bank did. */
export interface BankRunReport {
  taken: number;
  /** The answers written: status reports (pain.002) and notifications (camt.054). */
  written: string[];
  /** Transfers and collections in the files taken. */
  instructions: number;
  ms: number;
}

export interface BankFolders {
  outbox: string;
  inbox: string;
  state: string;
}

const instructionsIn = (xml: string) => xml.split('<EndToEndId>').length - 1;

async function loadBank(stateFile: string): Promise<BankSimulator> {
  try {
    return BankSimulator.fromJSON(JSON.parse(await readFile(stateFile, 'utf8')));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return BankSimulator.create();
    throw e;
  }
}

/**
 * One run of the bank simulator over the outbox, as `runBankOnce` does it, except that the files taken are answered
 * in groups of at most `perNotification` transfers: each group's bookings come back in a camt.054 of their own (a
 * bank splits its notifications too).
 */
async function runBank(folders: BankFolders, perNotification: number): Promise<BankRunReport> {
  const started = performance.now();
  const bank = await loadBank(folders.state);
  const waiting = await listInbox(folders.outbox);
  const files = await Promise.all(waiting.map(async (f) => ({ name: f.name, xml: await readFile(f.path, 'utf8') })));
  const groups: BankFile[][] = [];
  let inGroup = 0;
  let instructions = 0;
  for (const file of files) {
    const n = instructionsIn(file.xml);
    instructions += n;
    if (groups.length === 0 || inGroup + n > perNotification) {
      groups.push([]);
      inGroup = 0;
    }
    groups.at(-1)!.push(file);
    inGroup += n;
  }
  const now = new Date();
  const answers = groups.flatMap((group) => bank.process({ files: group, now }));
  for (const answer of answers) await writeFileAtomically(folders.inbox, answer.name, answer.xml);
  await replaceFileAtomically(folders.state, `${JSON.stringify(bank.toJSON())}\n`);
  for (const f of waiting) await moveTo(f.path, join(folders.outbox, TAKEN));
  const written = answers.map((a) => a.name);
  return { taken: waiting.length, written, instructions, ms: performance.now() - started };
}

/**
 * Runs the bank once in a process of its own, as a bank is outside the service: its parsing and writing do not take
 * the service's event loop.
 */
export function bankRunInChild(folders: BankFolders, perNotification: number): Promise<BankRunReport> {
  const child = fork(fileURLToPath(import.meta.url), ['--bank', JSON.stringify({ folders, perNotification })], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let report: BankRunReport | undefined;
    child.once('error', reject);
    child.on('message', (message: BankRunReport) => (report = message));
    child.once('exit', (code) =>
      report ? resolve(report) : reject(new Error(`the bank process exited with ${code}`)),
    );
  });
}

if (process.argv[2] === '--bank') {
  const { folders, perNotification } = JSON.parse(process.argv[3]) as { folders: BankFolders; perNotification: number };
  const report = await runBank(folders, perNotification);
  process.send!(report, () => process.disconnect());
}
