import { access, mkdir, readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { BankFileUnreadable, type BankFiles, type InboxItem } from '#application/payments/rails/bank-files.js';
import type { BankEntry, BankMessage } from '#domain/payments/rails/bank-messages.js';
import type { RailFile, RailInstruction } from '#domain/payments/rails/bank-rail-stream.js';
import type { BankRailConfig } from '#domain/payments/rails/bank-rails.js';
import { listInbox, moveTo, writeFileAtomically } from './file-exchange.js';
import {
  Iso20022Error,
  decimalText,
  decimalsOf,
  messageTypeOf,
  readNotification,
  readStatement,
  readStatusReport,
  writePain001,
  writePain008,
  type BankAccount,
  type Entry,
} from './iso20022/index.js';

/** Rails folders are `<platform uuid>/<currency>`. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CURRENCY = /^[A-Z]{3}$/;

function account(a: BankRailConfig['account'] | RailInstruction['counterparty']): BankAccount {
  return { ...a };
}

/** What an instruction's entry in an initiation file says: its end-to-end id (its remittance text too) and amount. */
const instructed = (i: RailInstruction) => ({
  endToEndId: i.endToEndId,
  amount: { minor: BigInt(i.amount), currency: i.currency },
  remittanceInformation: i.endToEndId,
});

/** Groups by requested date: one payment information block per date (the debtor and currency are the rail's). */
function byDate(instructions: RailInstruction[]): [string, RailInstruction[]][] {
  const groups = new Map<string, RailInstruction[]>();
  for (const i of instructions) groups.set(i.requestedDate, [...(groups.get(i.requestedDate) ?? []), i]);
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
}

function entryOf(entry: Entry): BankEntry[] {
  const details = entry.details.length > 0 ? entry.details : [{}];
  // A batch booking names several payments: each is taken as an entry of its own amount only when there is one.
  return details.map((d) => ({
    entryReference: entry.entryReference,
    amount: entry.amount.minor.toString(),
    currency: entry.amount.currency,
    creditDebit: entry.creditDebit,
    status: entry.status,
    bookingDate: entry.bookingDate,
    ...(entry.bankReference ? { bankReference: entry.bankReference } : {}),
    ...(d.endToEndId ? { endToEndId: d.endToEndId } : {}),
    ...(d.remittanceInformation ? { remittanceInformation: d.remittanceInformation } : {}),
    ...(d.counterparty ? { counterparty: { ...d.counterparty } } : {}),
    ...(d.returnReasonCode ? { returnReasonCode: d.returnReasonCode } : {}),
  }));
}

/**
 * The bank rail's files as ISO 20022 messages (fast-xml-parser underneath; see iso20022/) in exchange folders below
 * one directory: `<dir>/<platform>/<currency>/outbox/` for what the service writes, `…/inbox/` for what the bank
 * drops, with `inbox/processed/` and `inbox/quarantine/` for files taken.
 */
export class IsoBankFiles implements BankFiles {
  constructor(private readonly dir: string) {}

  render(file: RailFile, instructions: RailInstruction[], rail: BankRailConfig, initiatingParty: string): string {
    const header = { messageId: file.messageId, createdAt: file.createdAt, initiatingPartyName: initiatingParty };
    const own = account(rail.account);
    /** The message: one payment information block per requested date, numbered after the file's message id. */
    const blocks = <P>(block: (date: string, list: RailInstruction[]) => P) => ({
      ...header,
      payments: byDate(instructions).map(([date, list], n) => ({
        paymentInformationId: `${file.messageId}-${n + 1}`,
        ...block(date, list),
      })),
    });
    if (file.kind === 'CREDIT_TRANSFER') {
      return writePain001(
        blocks((date, list) => ({
          requestedExecutionDate: date,
          debtor: own,
          transfers: list.map((i) => ({ ...instructed(i), creditor: account(i.counterparty) })),
        })),
      );
    }
    return writePain008(
      blocks((date, list) => ({
        requestedCollectionDate: date,
        creditor: own,
        ...(rail.creditorSchemeId ? { creditorSchemeId: rail.creditorSchemeId } : {}),
        collections: list.map((i) => ({
          ...instructed(i),
          debtor: account(i.counterparty),
          mandate: { id: i.mandate?.mandateId ?? '', signedOn: i.mandate?.signedOn ?? '' },
        })),
      })),
    );
  }

  read(content: string, currency: string): BankMessage {
    try {
      return this.parse(content, currency);
    } catch (error) {
      if (error instanceof Iso20022Error) throw new BankFileUnreadable(error.message);
      throw error;
    }
  }

  private parse(content: string, currency: string): BankMessage {
    const type = messageTypeOf(content);
    switch (type) {
      case 'pain.002.001.10': {
        const report = readStatusReport(content);
        return {
          type: 'STATUS_REPORT',
          messageId: report.messageId,
          originalMessageId: report.originalMessageId,
          ...(report.groupStatus ? { groupStatus: report.groupStatus } : {}),
          ...(report.groupReasonCode ? { groupReasonCode: report.groupReasonCode } : {}),
          transactions: report.transactions.map((t) => ({
            endToEndId: t.endToEndId,
            status: t.status,
            ...(t.reasonCode ? { reasonCode: t.reasonCode } : {}),
          })),
        };
      }
      case 'camt.054.001.08':
      case 'camt.053.001.08': {
        const message = type === 'camt.054.001.08' ? readNotification(content) : readStatement(content);
        if (message.account.currency !== currency)
          throw new BankFileUnreadable(
            `the file reports a ${message.account.currency} account; this rail is ${currency}`,
          );
        checkSummary(content, message.entries, currency);
        const base = {
          messageId: message.messageId,
          account: {
            currency: message.account.currency,
            ...(message.account.iban ? { iban: message.account.iban } : {}),
            ...(message.account.accountNumber ? { accountNumber: message.account.accountNumber } : {}),
          },
          entries: message.entries.flatMap(entryOf),
        };
        if ('statementId' in message) {
          return {
            type: 'STATEMENT',
            ...base,
            statementId: message.statementId,
            date: message.date,
            openingBalance: signed(message.openingBalance),
            closingBalance: signed(message.closingBalance),
          };
        }
        return { type: 'NOTIFICATION', ...base };
      }
      default:
        throw new BankFileUnreadable(
          type
            ? `a ${type} file is not one the bank sends to this service`
            : 'not an ISO 20022 document this rail reads',
        );
    }
  }

  async ensureFolders(folder: string): Promise<{ outbox: string; inbox: string }> {
    const outbox = join(this.dir, folder, 'outbox');
    const inbox = join(this.dir, folder, 'inbox');
    await mkdir(outbox, { recursive: true });
    await mkdir(inbox, { recursive: true });
    return { outbox, inbox };
  }

  writeOutbox(folder: string, name: string, content: string): Promise<void> {
    return writeFileAtomically(join(this.dir, folder, 'outbox'), name, content);
  }

  async listInbox(folder: string): Promise<InboxItem[]> {
    const dir = join(this.dir, folder, 'inbox');
    const items: InboxItem[] = [];
    for (const file of await listInbox(dir).catch(() => [])) {
      const content = await readFile(file.path, 'utf8').catch(() => undefined);
      if (content !== undefined) items.push({ name: file.name, sha256: file.sha256, content });
    }
    return items;
  }

  async archive(folder: string, name: string, to: 'processed' | 'quarantine'): Promise<void> {
    const inbox = join(this.dir, folder, 'inbox');
    await moveTo(join(inbox, name), join(inbox, to)).catch((error: NodeJS.ErrnoException) => {
      // Another worker took it first.
      if (error.code !== 'ENOENT') throw error;
    });
  }

  async isArchived(folder: string, name: string, to: 'processed' | 'quarantine'): Promise<boolean> {
    return access(join(this.dir, folder, 'inbox', to, name)).then(
      () => true,
      () => false,
    );
  }

  async railFolders(): Promise<string[]> {
    const folders: string[] = [];
    for (const platform of await readdir(this.dir).catch(() => [])) {
      if (!UUID.test(platform)) continue;
      for (const currency of await readdir(join(this.dir, platform)).catch(() => []))
        if (CURRENCY.test(currency)) folders.push(`${platform}/${currency}`);
    }
    return folders.sort();
  }
}

/** Exact minor units of a decimal text at `decimals` places; undefined when it is not one. */
function minorOf(text: string, decimals: number): bigint | undefined {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m || (m[2] ?? '').replace(/0+$/, '').length > decimals) return undefined;
  return BigInt(m[1] + (m[2] ?? '').padEnd(decimals, '0').slice(0, decimals));
}

/**
 * The totals a notification or statement states of its entries (TxsSummry/TtlNtries), which the readers leave aside:
 * a file whose stated count or sum disagrees with the entries it holds is corrupt, and refused whole.
 */
function checkSummary(content: string, entries: Entry[], currency: string): void {
  const summary = /<(?:[\w.-]+:)?TtlNtries\b[^>]*>([\s\S]*?)<\/(?:[\w.-]+:)?TtlNtries>/.exec(content)?.[1];
  if (summary === undefined) return;
  const field = (name: string) => new RegExp(`<(?:[\\w.-]+:)?${name}>\\s*([^<]*?)\\s*<`).exec(summary)?.[1];
  const count = field('NbOfNtries');
  if (count !== undefined && (!/^\d{1,15}$/.test(count) || Number(count) !== entries.length))
    throw new BankFileUnreadable(
      `TxsSummry/TtlNtries/NbOfNtries is ${count} but the file holds ${entries.length} entries`,
    );
  const sum = field('Sum');
  const decimals = decimalsOf(currency);
  const total = entries.reduce((n, e) => n + e.amount.minor, 0n);
  if (sum !== undefined && minorOf(sum, decimals) !== total)
    throw new BankFileUnreadable(
      `TxsSummry/TtlNtries/Sum is ${sum} but the entries add up to ${decimalText(total, decimals)}`,
    );
}

function signed(balance: { amount: { minor: bigint }; creditDebit: 'CRDT' | 'DBIT' }): string {
  return (balance.creditDebit === 'DBIT' ? -balance.amount.minor : balance.amount.minor).toString();
}
