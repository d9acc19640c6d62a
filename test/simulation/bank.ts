import { createHash } from 'node:crypto';
import type { BankFiles, InboxItem } from '#application/payments/rails/bank-files.js';
import type { RailFile, RailInstruction } from '#domain/payments/rails/bank-rail-stream.js';
import type { BankRailConfig } from '#domain/payments/rails/bank-rails.js';
import type { BankMessage } from '#domain/payments/rails/bank-messages.js';
import { BankSimulator, type BankFile } from '#rails/bank-simulator.js';
import { IsoBankFiles } from '#rails/iso-bank-files.js';
import { messageTypeOf, readNotification, readPain001, readPain008, readStatusReport } from '#rails/iso20022/index.js';
import type { Random } from './scheduler.js';

/** One rail's exchange folders, as the bank's host-to-host client would carry them. */
interface RailFolders {
  outbox: Map<string, string>;
  /** Files of the outbox the bank took (outbox/taken/). */
  taken: Map<string, string>;
  inbox: Map<string, string>;
  processed: Map<string, string>;
  quarantine: Map<string, string>;
}

/** What the bank did with one payment (by end-to-end id), and what of it the service was told. */
export interface BankOutcome {
  /** The initiation files (message ids) the bank took that name the payment. */
  messages: Set<string>;
  /** How often the bank booked the payment (money moved), returned it, rejected it. */
  booked: number;
  returned: number;
  rejected: number;
  /** The outcomes whose files were delivered into the service's inbox. */
  delivered: Set<'BOOK' | 'RETURN' | 'REJECT'>;
}

/** What an answer file tells of which payments. */
type Told = { endToEndId: string; outcome: 'BOOK' | 'RETURN' | 'REJECT' }[];

/**
 * The bank behind the production platforms' rails: the exchange folders in memory (outside the service: they outlive
 * its restarts) and a BankSimulator per rail that takes the initiation files and answers. The seed makes the bank's
 * client unreliable: an answer is now and then held back and delivered late (after answers written after it), or
 * delivered twice; now and then the bank adds the day's statements.
 */
export class SimBank {
  readonly folders = new Map<string, RailFolders>();
  readonly banks = new Map<string, BankSimulator>();
  readonly outcomes = new Map<string, BankOutcome>();
  /** Answers written and not delivered yet (late), or to be delivered again (twice). */
  private readonly later: { folder: string; file: BankFile; told: Told }[] = [];
  /** Files delivered, for the trace. */
  delivered = 0;
  /**
   * Whether the process that has just written an initiation file stops there, before it records the file written (a
   * crash point of the rail): the run sets it, and restarts the process when it answers true.
   */
  stopsAfterWrite: (process: object) => boolean = () => false;
  /** Initiation files written again under a name written before (a process stopped before recording it written). */
  rewritten = 0;

  constructor(
    private readonly random: Random,
    private readonly now: () => Date,
  ) {}

  folder(name: string): RailFolders {
    let folder = this.folders.get(name);
    if (!folder) {
      folder = { outbox: new Map(), taken: new Map(), inbox: new Map(), processed: new Map(), quarantine: new Map() };
      this.folders.set(name, folder);
    }
    return folder;
  }

  outcomeOf(endToEndId: string): BankOutcome {
    let outcome = this.outcomes.get(endToEndId);
    if (!outcome) {
      outcome = { messages: new Set(), booked: 0, returned: 0, rejected: 0, delivered: new Set() };
      this.outcomes.set(endToEndId, outcome);
    }
    return outcome;
  }

  /**
   * One run of the bank over every rail: it takes what waits in the outbox (in name order) and answers; an answer is
   * delivered now, held back, or delivered now and again later. With `reliable` (the run's end) everything held back
   * is delivered and nothing is held or doubled.
   */
  run(reliable = false): string {
    const late = this.later.splice(0);
    let written = 0;
    for (const [name, folder] of [...this.folders].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const files = [...folder.outbox].sort(([a], [b]) => (a < b ? -1 : 1)).map(([n, xml]) => ({ name: n, xml }));
      for (const file of files) {
        folder.outbox.delete(file.name);
        folder.taken.set(this.freeName(folder.taken, file.name), file.xml);
        this.sent(file.xml);
      }
      const bank = this.banks.get(name) ?? BankSimulator.create();
      this.banks.set(name, bank);
      const answers = bank.process({ files, now: this.now() });
      if (!reliable && this.random.chance(0.1))
        answers.push(...bank.endOfDayAll(this.now().toISOString().slice(0, 10)));
      for (const file of answers) {
        written++;
        const told = this.executed(file);
        const roll = reliable ? 1 : this.random.next();
        if (roll < 0.15) this.later.push({ folder: name, file, told });
        else {
          this.deliver(name, file, told);
          if (roll < 0.25) this.later.push({ folder: name, file, told });
        }
      }
    }
    // Answers held back from earlier runs arrive after this run's (late, and out of order).
    for (const { folder, file, told } of late)
      if (reliable || this.random.chance(0.7)) this.deliver(folder, file, told);
      else this.later.push({ folder, file, told });
    return `bank took files, wrote ${written}, ${this.later.length} held back`;
  }

  /** Whether anything the bank wrote still waits to be delivered. */
  get holding(): boolean {
    return this.later.length > 0;
  }

  private deliver(folder: string, file: BankFile, told: Told): void {
    // Dropped under its name (again, if it was delivered and archived before: a copy the service must not apply twice).
    this.folder(folder).inbox.set(file.name, file.xml);
    this.delivered++;
    for (const { endToEndId, outcome } of told) this.outcomeOf(endToEndId).delivered.add(outcome);
  }

  private freeName(files: Map<string, string>, name: string): string {
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    let free = name;
    for (let n = 1; files.has(free); n++) free = `${stem}.${n}${ext}`;
    return free;
  }

  /** An initiation file the bank took: which payments it names. */
  private sent(xml: string): void {
    const { messageId, ids } =
      messageTypeOf(xml) === 'pain.008.001.08'
        ? (({ messageId, payments }) => ({ messageId, ids: payments.flatMap((p) => p.collections) }))(readPain008(xml))
        : (({ messageId, payments }) => ({ messageId, ids: payments.flatMap((p) => p.transfers) }))(readPain001(xml));
    for (const { endToEndId } of ids) this.outcomeOf(endToEndId).messages.add(messageId);
  }

  /** What the bank did, as an answer it wrote tells it: a rejection, a booking, a return. */
  private executed(file: BankFile): Told {
    const told: Told = [];
    const type = messageTypeOf(file.xml);
    if (type === 'pain.002.001.10') {
      const report = readStatusReport(file.xml);
      for (const t of report.transactions)
        if (t.status === 'RJCT') {
          this.outcomeOf(t.endToEndId).rejected++;
          told.push({ endToEndId: t.endToEndId, outcome: 'REJECT' });
        }
    } else if (type?.startsWith('camt.054')) {
      for (const entry of readNotification(file.xml).entries)
        for (const d of entry.details) {
          if (!d.endToEndId || entry.status !== 'BOOK') continue;
          const outcome = d.returnReasonCode ? 'RETURN' : 'BOOK';
          if (outcome === 'RETURN') this.outcomeOf(d.endToEndId).returned++;
          else this.outcomeOf(d.endToEndId).booked++;
          told.push({ endToEndId: d.endToEndId, outcome });
        }
    }
    return told;
  }
}

/**
 * The rail's files in the simulated bank's folders, as one process sees them: the ISO 20022 formats are the
 * service's own (IsoBankFiles), the folders live in the SimBank, and each folder operation is held by the scheduler
 * (a process may stop between writing a file and recording it, or between taking a file and archiving it).
 */
export class SimBankFiles implements BankFiles {
  private readonly iso = new IsoBankFiles('/nonexistent');

  constructor(
    private readonly bank: SimBank,
    private readonly held: (label: string) => Promise<void>,
    private readonly process: object,
  ) {}

  render(file: RailFile, instructions: RailInstruction[], rail: BankRailConfig, initiatingParty: string): string {
    return this.iso.render(file, instructions, rail, initiatingParty);
  }

  read(content: string, currency: string): BankMessage {
    return this.iso.read(content, currency);
  }

  async ensureFolders(folder: string): Promise<{ outbox: string; inbox: string }> {
    await this.held(`rail folders ${folder}`);
    this.bank.folder(folder);
    return { outbox: `${folder}/outbox`, inbox: `${folder}/inbox` };
  }

  async writeOutbox(folder: string, name: string, content: string): Promise<void> {
    await this.held(`rail write ${folder}/${name}`);
    const { outbox, taken } = this.bank.folder(folder);
    const existing = outbox.get(name);
    if (existing !== undefined || taken.has(name)) this.bank.rewritten++;
    if (existing !== undefined && existing !== content) throw new Error(`${name} exists with other content`);
    outbox.set(name, content);
    if (this.bank.stopsAfterWrite(this.process)) await new Promise<never>(() => undefined);
  }

  async listInbox(folder: string): Promise<InboxItem[]> {
    await this.held(`rail list ${folder}`);
    return [...this.bank.folder(folder).inbox]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, content]) => ({ name, content, sha256: createHash('sha256').update(content).digest('hex') }));
  }

  async archive(folder: string, name: string, to: 'processed' | 'quarantine'): Promise<void> {
    await this.held(`rail archive ${folder}/${name}`);
    const rail = this.bank.folder(folder);
    const content = rail.inbox.get(name);
    // Another process took it first.
    if (content === undefined) return;
    rail.inbox.delete(name);
    const dot = name.lastIndexOf('.');
    const [stem, ext] = [name.slice(0, dot), name.slice(dot)];
    let target = name;
    for (let n = 1; rail[to].has(target); n++) target = `${stem}.${n}${ext}`;
    rail[to].set(target, content);
  }

  async isArchived(folder: string, name: string, to: 'processed' | 'quarantine'): Promise<boolean> {
    await this.held(`rail archived ${folder}/${name}`);
    return this.bank.folder(folder)[to].has(name);
  }

  async railFolders(): Promise<string[]> {
    await this.held('rail folders');
    return [...this.bank.folders.keys()].sort();
  }
}
