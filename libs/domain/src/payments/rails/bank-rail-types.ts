import type { DirectDebitMandate } from '../../external-accounts/external-account.js';
import type { PaymentRef } from '../timers/timers.js';
import type { CounterpartyBankAccount } from './bank-rails.js';

/**
 * The values a bank rail's stream records and reads: the instructions sent, the files they went out in, the files
 * the bank sent back, and what the bank sends as the rail reads it (the ISO 20022 files parsed, amounts in the
 * smallest unit): status reports on the instructions sent (pain.002), notifications of bookings (camt.054) and
 * end-of-day statements (camt.053).
 */
export type InstructionKind = 'CREDIT_TRANSFER' | 'DIRECT_DEBIT';

export interface RailInstruction {
  /** The transaction's `reconciliationInstructions.reference`. */
  endToEndId: string;
  ref: PaymentRef;
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
  problems: EntryProblem[];
  /** Set when nothing of the file was taken: why. */
  quarantineReason?: string;
  appliedAt?: string;
}

export interface BankRailState {
  instructions: Map<string, RailInstruction>;
  files: Map<string, RailFile>;
  /** Inbox files by content hash (a second copy of one is quarantined, never applied again). */
  inbox: Map<string, InboxFile>;
  /** Copies of files already received, and files nothing could be taken from, in arrival order. */
  quarantine: InboxFile[];
  /** Keys of bank entries already applied: the same booking in another file is refused as a duplicate. */
  appliedEntries: Map<string, string>;
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
  ref: PaymentRef;
  kind: RailInstruction['kind'];
  /** ACCEPT: recorded only; REJECT: the payment fails; BOOK: it completes; RETURN: the money comes back. */
  action: 'ACCEPT' | 'REJECT' | 'BOOK' | 'RETURN';
  reasonCode?: string;
  /** Identifies the bank's entry or status line: the same one in another file is a duplicate. */
  entryKey: string;
}

/** An entry of a file that was not taken, and why (shown to the operator). */
export interface EntryProblem {
  entry: string;
  reason: string;
}
