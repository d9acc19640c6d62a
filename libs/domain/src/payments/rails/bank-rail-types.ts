import type { DirectDebitMandate } from '../../external-accounts/external-account.js';
import type { PaymentRef } from '../transactions/payment-plan.js';
import type { CounterpartyBankAccount } from './bank-rails.js';

/**
 * The values a bank rail's stream records and reads: the instructions sent, the files they went out in, the files
 * the bank sent back, and what the bank sends as the rail reads it (the ISO 20022 files parsed, amounts in the
 * smallest unit): status reports on the instructions sent (pain.002), notifications of bookings (camt.054) and
 * end-of-day statements (camt.053).
 */
export type InstructionKind = 'CREDIT_TRANSFER' | 'DIRECT_DEBIT';

/** What an instruction moves: a payment, or a credit held in suspense that an operator sends back to its payer. */
export type RailRef = PaymentRef | { kind: 'credit'; id: string };

export interface RailInstruction {
  /** The transaction's `reconciliationInstructions.reference`. */
  endToEndId: string;
  ref: RailRef;
  kind: InstructionKind;
  /** Smallest unit of `currency`. */
  amount: string;
  currency: string;
  counterparty: CounterpartyBankAccount;
  mandate?: DirectDebitMandate;
  /** YYYY-MM-DD on the platform's clock when queued. */
  requestedDate: string;
  queuedAt: string;
  /** The file it went out in. */
  messageId?: string;
}

export interface RailFile {
  messageId: string;
  kind: InstructionKind;
  fileName: string;
  endToEndIds: string[];
  createdAt: string;
  writtenAt?: string;
}

export interface InboxFile {
  sha256: string;
  fileName: string;
  receivedAt: string;
  messageType?: BankMessage['type'];
  messageId?: string;
  effects: RailEffect[];
  /** Money paid in that named no payment of the rail: to an account by its funding reference, or to suspense. */
  credits?: RailCredit[];
  problems: EntryProblem[];
  /** Set when nothing of the file was taken: why. */
  quarantineReason?: string;
  appliedAt?: string;
}

export interface BankRailState {
  instructions: Map<string, RailInstruction>;
  /** End-to-end ids of the instructions not yet in a file, in the order queued. */
  unfiled: Set<string>;
  /** Message ids of the files recorded and not yet written. */
  unwritten: Set<string>;
  files: Map<string, RailFile>;
  /** Inbox files by content hash (a second copy of one is quarantined, never applied again). */
  inbox: Map<string, InboxFile>;
  /** Copies of files already received, and files nothing could be taken from, in arrival order. */
  quarantine: InboxFile[];
  /** Keys of bank entries already applied: the same booking in another file is refused as a duplicate. */
  appliedEntries: Map<string, string>;
  /** Credits held in suspense, and those assigned since, by id. */
  exceptions: Map<string, RailException>;
  /** Quotes a credit named, by quote id: the credit's id. */
  fundedQuotes: Map<string, string>;
  /** Every movement booked on the bank account, in the order recorded. */
  movements: RailMovement[];
  /** The days reconciled, by date (a later statement of the same day replaces the earlier result). */
  reconciliations: Map<string, Reconciliation>;
  /** The first statement's opening balance and day: the ledger's view of the account starts from it. */
  baseline?: { date: string; balance: string };
}

export interface BankEntry {
  entryReference: string;
  /** Smallest unit of `currency`. */
  amount: string;
  currency: string;
  creditDebit: 'CRDT' | 'DBIT';
  status: 'BOOK' | 'PDNG';
  bookingDate: string;
  bankReference?: string;
  endToEndId?: string;
  remittanceInformation?: string;
  returnReasonCode?: string;
  /** The other party: the payer of a credit, the payee of a debit. */
  counterparty?: CounterpartyBankAccount;
}

export type BankMessage =
  | {
      type: 'STATUS_REPORT';
      messageId: string;
      originalMessageId: string;
      /** The whole original file's status: RJCT with DU01 for a file the bank had already received. */
      groupStatus?: string;
      groupReasonCode?: string;
      transactions: { endToEndId: string; status: string; reasonCode?: string }[];
    }
  | {
      type: 'NOTIFICATION';
      messageId: string;
      account: { iban?: string; accountNumber?: string; currency: string };
      entries: BankEntry[];
    }
  | {
      type: 'STATEMENT';
      messageId: string;
      statementId: string;
      account: { iban?: string; accountNumber?: string; currency: string };
      date: string;
      /** Smallest unit, negative for a debit balance. */
      openingBalance: string;
      closingBalance: string;
      entries: BankEntry[];
    };

/** What one answer from the bank does to one payment. */
export interface RailEffect {
  endToEndId: string;
  ref: RailRef;
  kind: RailInstruction['kind'];
  /** ACCEPT: recorded only; REJECT: the payment fails; BOOK: it completes; RETURN: the money comes back. */
  action: 'ACCEPT' | 'REJECT' | 'BOOK' | 'RETURN';
  reasonCode?: string;
  /** Identifies the bank's entry or status line: the same one in another file is a duplicate. */
  entryKey: string;
  /** For a booked entry: the money it moved on the rail's bank account (what the day's statement must show). */
  movement?: RailMovement;
}

/**
 * A credit to the rail's bank account that names no instruction of the rail (a customer paying in): credited to the
 * internal account whose funding reference its remittance information carries, or else held in the platform's
 * suspense account as an exception an operator assigns.
 */
export interface RailCredit {
  /** `BankCredit:<uuid>`, derived from the rail and the bank's entry. */
  id: string;
  entryKey: string;
  /** The bank's entry reference. */
  entryReference: string;
  /** Smallest unit. */
  amount: string;
  currency: string;
  bookingDate: string;
  remittanceInformation?: string;
  /** Who paid it, as the bank names them (where the money goes back to when it is returned). */
  payer?: CounterpartyBankAccount;
  /** The internal account it was credited to; absent while it waits in suspense. */
  accountId?: string;
  /** The real-time funded quote it pays for (started when the credit is applied). */
  quoteId?: string;
  movement: RailMovement;
}

/** A credit held in suspense, until an operator assigns it to an account. */
export interface RailException {
  credit: RailCredit;
  /** OPEN in suspense; ASSIGNED to an account; RETURNING to its payer, RETURNED once the bank booked that. */
  status: 'OPEN' | 'ASSIGNED' | 'RETURNING' | 'RETURNED';
  /** How many times it was sent back (a rejected return leaves it OPEN for another try). */
  returns?: number;
  returnedAt?: string;
  /** Why a credit that named a quote was held instead (the quote had expired, the amount differs). */
  reason?: string;
  receivedAt: string;
  fileName: string;
  assignedTo?: string;
  assignedAt?: string;
}

/** Money that moved on the rail's bank account, as the rail booked it into the ledger. */
export interface RailMovement {
  /** The payment's end-to-end id (or, for a credit that named none, the bank's entry reference). */
  reference: string;
  /** Smallest unit. */
  amount: string;
  creditDebit: 'CRDT' | 'DBIT';
  /** YYYY-MM-DD. */
  bookingDate: string;
}

/** A difference between a day's bank statement and the rail's ledger movements. */
export interface ReconciliationBreak {
  kind:
    | 'ENTRY_NOT_IN_LEDGER'
    | 'MOVEMENT_NOT_ON_STATEMENT'
    | 'AMOUNT_DIFFERS'
    | 'DATE_DIFFERS'
    | 'OPENING_BALANCE_DIFFERS'
    | 'CLOSING_BALANCE_DIFFERS';
  reference?: string;
  /** Smallest unit, as the statement says. */
  statementAmount?: string;
  /** Smallest unit, as the ledger says. */
  ledgerAmount?: string;
  detail: string;
}

/** One day's statement reconciled: closed when it has no break. */
export interface Reconciliation {
  date: string;
  statementId: string;
  messageId: string;
  fileName: string;
  /** Smallest unit, signed (negative: a debit balance). */
  openingBalance: string;
  closingBalance: string;
  expectedOpeningBalance: string;
  expectedClosingBalance: string;
  breaks: ReconciliationBreak[];
  closed: boolean;
  reconciledAt: string;
}

/** An entry of a file that was not taken, and why (shown to the operator). */
export interface EntryProblem {
  entry: string;
  reason: string;
}
