/**
 * A pure bank that plays the other side of the host-to-host folders, for tests and for developers: it takes
 * pain.001 (payouts) and pain.008 (collections), answers with pain.002 statuses and camt.054 notifications,
 * and writes a camt.053 statement of a day on request. Outcomes follow the sandbox's table (OUTCOME_BY_SUFFIX).
 * No clock and no I/O: `now` comes in, files come in and go out as strings, state goes out as JSON. File names
 * start with `bank-<sequence>`, so that sorting them by name puts them in the order the bank wrote them.
 */
import {
  DueBooking,
  DueStatus,
  OwnAccount,
  Pending,
  SimulatorState,
  accountKey,
  emptyState,
  encodeState,
  netMovement,
  outcomeFor,
  safeName,
  sequence,
  stateFromJson,
} from './bank-simulator-state.js';
import { Amount, BankAccount, Entry, OriginalMessageType, StatusReport } from './iso20022/messages.js';
import { readPain001, readPain008 } from './iso20022/index.js';
import { writeNotification, writeStatement, writeStatusReport } from './iso20022/index.js';
import { Iso20022Error, messageTypeOf } from './iso20022/xml.js';

export interface BankFile {
  name: string;
  xml: string;
}

/** One transfer or collection of an incoming file, seen from the bank's customer (the service). */
interface Instruction {
  type: OriginalMessageType;
  messageId: string;
  paymentInformationId: string;
  endToEndId: string;
  own: BankAccount;
  counterparty: BankAccount;
  booking: DueBooking;
}

/** What one `process` call collects before it writes its answers. */
interface Run {
  now: Date;
  reports: StatusReport[];
  bookings: Map<string, Entry[]>;
}

const DUPLICATE = 'DU01';
const INVALID_FILE = 'FF01';

export class BankSimulator {
  private constructor(private readonly state: SimulatorState) {}

  /** A bank with no history; `accounts` opens the service's accounts with a starting balance (minor units). */
  static create(accounts: { account: BankAccount; currency: string; balance?: bigint }[] = []): BankSimulator {
    const bank = new BankSimulator(emptyState());
    for (const a of accounts) bank.ownAccount(a.account, a.currency).balance = a.balance ?? 0n;
    return bank;
  }

  static fromJSON(json: unknown): BankSimulator {
    return new BankSimulator(stateFromJson(typeof json === 'string' ? JSON.parse(json) : json));
  }

  toJSON(): unknown {
    return encodeState(this.state);
  }

  balanceOf(account: BankAccount | string): bigint {
    return this.state.accounts[typeof account === 'string' ? account : accountKey(account)]?.balance ?? 0n;
  }

  /** A customer paying in: a CRDT entry on the service's account, booked and notified by the next `process`. */
  incomingCredit(input: {
    account: BankAccount;
    amount: Amount;
    remittanceInformation?: string;
    debtor: BankAccount;
  }): void {
    this.ownAccount(input.account, input.amount.currency);
    this.state.pending.push({
      booking: {
        accountKey: accountKey(input.account),
        amount: input.amount,
        creditDebit: 'CRDT',
        details: [{ remittanceInformation: input.remittanceInformation, counterparty: input.debtor }],
      },
    });
  }

  /** Takes the service's files; answers with pain.002 per file (and per earlier file with news) and camt.054. */
  process(input: { files: BankFile[]; now: Date }): BankFile[] {
    const run: Run = { now: input.now, reports: [], bookings: new Map() };
    const due = this.state.pending;
    this.state.pending = [];
    this.settleDue(run, due);
    for (const file of input.files) this.take(run, file);
    return [...run.reports.map((r) => this.statusFile(r)), ...this.notificationFiles(run)];
  }

  /** camt.053 of the day's booked entries on one account (the only one when not named). */
  endOfDay(date: string, account?: BankAccount | string): BankFile {
    const keys = Object.keys(this.state.accounts);
    const key = account === undefined ? keys[0] : typeof account === 'string' ? account : accountKey(account);
    if (account === undefined && keys.length !== 1)
      throw new Error(`the bank holds ${keys.length} accounts; name the one to state`);
    const own = this.state.accounts[key];
    if (!own) throw new Error(`the bank holds no account ${key}`);
    return this.statementFile(key, own, date);
  }

  /** camt.053 of the day for every account the bank holds. */
  endOfDayAll(date: string): BankFile[] {
    return Object.entries(this.state.accounts).map(([key, own]) => this.statementFile(key, own, date));
  }

  private next(): string {
    this.state.counter += 1;
    return sequence(this.state.counter);
  }

  private ownAccount(account: BankAccount, currency: string): OwnAccount {
    const key = accountKey(account);
    this.state.accounts[key] ??= { account: { ...account }, currency, balance: 0n };
    return this.state.accounts[key];
  }

  private settleDue(run: Run, due: Pending[]): void {
    const late = new Map<string, DueStatus[]>();
    for (const item of due) {
      if (item.booking) this.book(run, item.booking);
      if (item.status)
        late.set(item.status.originalMessageId, [...(late.get(item.status.originalMessageId) ?? []), item.status]);
    }
    for (const [originalMessageId, statuses] of late)
      run.reports.push({
        messageId: '',
        createdAt: run.now.toISOString(),
        originalMessageId,
        originalMessageType: statuses[0].originalMessageType,
        transactions: statuses.map((s) => ({
          endToEndId: s.endToEndId,
          status: s.status,
          reasonCode: s.reasonCode,
          paymentInformationId: s.paymentInformationId,
        })),
      });
  }

  private book(run: Run, b: DueBooking): void {
    const own = this.state.accounts[b.accountKey];
    const n = this.next();
    const day = run.now.toISOString().slice(0, 10);
    const entry: Entry = {
      entryReference: `E${n}`,
      amount: b.amount,
      creditDebit: b.creditDebit,
      status: 'BOOK',
      bookingDate: day,
      valueDate: day,
      bankReference: `SIMBANK-${n}`,
      bankTransactionCode: b.code,
      details: b.details,
    };
    own.balance += b.creditDebit === 'CRDT' ? b.amount.minor : -b.amount.minor;
    this.state.booked.push({ accountKey: b.accountKey, entry });
    run.bookings.set(b.accountKey, [...(run.bookings.get(b.accountKey) ?? []), entry]);
  }

  private take(run: Run, file: BankFile): void {
    const type = messageTypeOf(file.xml);
    let instructions: Instruction[];
    let messageId: string;
    try {
      ({ messageId, instructions } = readInstructions(file.xml));
    } catch (e) {
      if (!(e instanceof Iso20022Error)) throw e;
      const original = type === 'pain.008.001.08' ? type : 'pain.001.001.09';
      run.reports.push(groupReject(run, 'NOTPROVIDED', original, INVALID_FILE, `${file.name}: ${e.reason}`));
      return;
    }
    if (this.state.seenMessageIds.includes(messageId)) {
      run.reports.push(groupReject(run, messageId, instructions[0].type, DUPLICATE, 'Duplicate message id'));
      return;
    }
    this.state.seenMessageIds.push(messageId);
    const transactions = instructions.map((i) => this.decide(run, i));
    run.reports.push({
      messageId: '',
      createdAt: run.now.toISOString(),
      originalMessageId: messageId,
      originalMessageType: instructions[0].type,
      groupStatus: groupStatusOf(transactions.map((t) => t.status)),
      transactions,
    });
  }

  /** Applies the outcome table to one instruction; returns its status now and queues what comes next. */
  private decide(run: Run, i: Instruction): StatusReport['transactions'][number] {
    this.ownAccount(i.own, i.booking.amount.currency);
    const tx = { endToEndId: i.endToEndId, paymentInformationId: i.paymentInformationId };
    const later = (status: string, reasonCode?: string): DueStatus => ({
      originalMessageId: i.messageId,
      originalMessageType: i.type,
      ...tx,
      status,
      reasonCode,
    });
    switch (outcomeFor(i.counterparty)) {
      case 'reject-insufficient-funds':
        return { ...tx, status: 'RJCT', reasonCode: 'AM04', additionalInformation: 'Insufficient funds' };
      case 'reject-closed-account':
        return { ...tx, status: 'RJCT', reasonCode: 'AC04', additionalInformation: 'Closed account' };
      case 'reject-next-run':
        this.state.pending.push({ status: later('RJCT', 'AG01') });
        return { ...tx, status: 'ACSP' };
      case 'book-next-run':
        this.state.pending.push({ status: later('ACSC'), booking: i.booking });
        return { ...tx, status: 'ACSP' };
      case 'return-next-run':
        this.book(run, i.booking);
        this.state.pending.push({ booking: returnOf(i) });
        return { ...tx, status: 'ACSC' };
      case 'book':
        this.book(run, i.booking);
        return { ...tx, status: 'ACSC' };
    }
  }

  private statusFile(report: StatusReport): BankFile {
    const n = this.next();
    const xml = writeStatusReport({ ...report, messageId: `SIMBANK-PSR-${n}` });
    return { name: `bank-${n}.pain.002.${safeName(report.originalMessageId)}.xml`, xml };
  }

  private notificationFiles(run: Run): BankFile[] {
    return [...run.bookings].map(([key, entries]) => {
      const n = this.next();
      const own = this.state.accounts[key];
      const xml = writeNotification({
        messageId: `SIMBANK-NTF-${n}`,
        createdAt: run.now.toISOString(),
        notificationId: `SIMBANK-NTF-${n}`,
        account: { ...own.account, currency: own.currency },
        entries,
      });
      return { name: `bank-${n}.camt.054.${safeName(key)}.xml`, xml };
    });
  }

  private statementFile(key: string, own: OwnAccount, date: string): BankFile {
    const mine = this.state.booked.filter((b) => b.accountKey === key).map((b) => b.entry);
    const entries = mine.filter((e) => e.bookingDate === date);
    const closing = own.balance - netMovement(mine.filter((e) => e.bookingDate > date));
    const opening = closing - netMovement(entries);
    const balance = (minor: bigint) => ({
      amount: { minor: minor < 0n ? -minor : minor, currency: own.currency },
      creditDebit: minor < 0n ? ('DBIT' as const) : ('CRDT' as const),
    });
    const n = this.next();
    const xml = writeStatement({
      messageId: `SIMBANK-STM-${n}`,
      createdAt: `${date}T23:59:59Z`,
      statementId: `SIMBANK-STM-${n}`,
      account: { ...own.account, currency: own.currency },
      date,
      openingBalance: balance(opening),
      closingBalance: balance(closing),
      entries,
    });
    return { name: `bank-${n}.camt.053.${date}.${safeName(key)}.xml`, xml };
  }
}

function groupReject(run: Run, id: string, type: OriginalMessageType, code: string, info: string): StatusReport {
  const report = { messageId: '', createdAt: run.now.toISOString(), originalMessageId: id, originalMessageType: type };
  return { ...report, groupStatus: 'RJCT', groupReasonCode: code, groupAdditionalInformation: info, transactions: [] };
}

function groupStatusOf(statuses: string[]): string {
  if (statuses.every((s) => s === statuses[0])) return statuses[0];
  return statuses.includes('RJCT') ? 'PART' : 'ACCP';
}

/** The entry that gives back a booked instruction: the opposite direction, with the return reason AC06. */
function returnOf(i: Instruction): DueBooking {
  const payout = i.type === 'pain.001.001.09';
  return {
    ...i.booking,
    creditDebit: i.booking.creditDebit === 'CRDT' ? 'DBIT' : 'CRDT',
    code: { domain: 'PMNT', family: payout ? 'ICDT' : 'IDDT', subFamily: payout ? 'RRTN' : 'UPDD' },
    details: [{ endToEndId: i.endToEndId, returnReasonCode: 'AC06', counterparty: i.counterparty }],
  };
}

/** The transfers of a pain.001 or the collections of a pain.008, as instructions to the bank. */
function readInstructions(xml: string): { messageId: string; instructions: Instruction[] } {
  const type = messageTypeOf(xml);
  if (type === 'pain.008.001.08') {
    const m = readPain008(xml);
    const instructions = m.payments.flatMap((p) =>
      p.collections.map((c) => ({
        type,
        messageId: m.messageId,
        paymentInformationId: p.paymentInformationId,
        endToEndId: c.endToEndId,
        own: p.creditor,
        counterparty: c.debtor,
        booking: {
          accountKey: accountKey(p.creditor),
          amount: c.amount,
          creditDebit: 'CRDT' as const,
          code: { domain: 'PMNT', family: 'IDDT', subFamily: 'ESDD' },
          details: [
            { endToEndId: c.endToEndId, remittanceInformation: c.remittanceInformation, counterparty: c.debtor },
          ],
        },
      })),
    );
    return { messageId: m.messageId, instructions };
  }
  const m = readPain001(xml);
  const instructions = m.payments.flatMap((p) =>
    p.transfers.map((t) => ({
      type: 'pain.001.001.09' as const,
      messageId: m.messageId,
      paymentInformationId: p.paymentInformationId,
      endToEndId: t.endToEndId,
      own: p.debtor,
      counterparty: t.creditor,
      booking: {
        accountKey: accountKey(p.debtor),
        amount: t.amount,
        creditDebit: 'DBIT' as const,
        details: [
          { endToEndId: t.endToEndId, remittanceInformation: t.remittanceInformation, counterparty: t.creditor },
        ],
      },
    })),
  );
  return { messageId: m.messageId, instructions };
}
