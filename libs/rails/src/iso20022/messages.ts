/**
 * The ISO 20022 messages the service exchanges with its bank over the host-to-host file interface, as plain
 * data. Amounts are bigint minor units (the currency's smallest unit); the codecs turn them into exact decimal
 * text and back. Optional fields beyond the core set carry what a bank sends or needs and default sensibly.
 */

/** An account at a bank: IBAN (+ BIC) abroad, or account number + routing number (ABA) in the US. */
export interface BankAccount {
  name: string;
  iban?: string;
  accountNumber?: string;
  routingNumber?: string;
  bic?: string;
}

/** Smallest unit; 2 decimals for fiat unless the currency says otherwise. */
export interface Amount {
  minor: bigint;
  currency: string;
}

export interface CreditTransfer {
  endToEndId: string;
  amount: Amount;
  creditor: BankAccount;
  remittanceInformation?: string;
  /** PmtId/InstrId; the end-to-end id when absent. */
  instructionId?: string;
}

/** pain.001.001.09: customer credit transfer initiation (payouts). */
export interface Pain001 {
  messageId: string;
  /** ISO date-time. */
  createdAt: string;
  initiatingPartyName: string;
  payments: {
    paymentInformationId: string;
    /** YYYY-MM-DD */
    requestedExecutionDate: string;
    debtor: BankAccount;
    transfers: CreditTransfer[];
  }[];
}

export interface DirectDebit {
  endToEndId: string;
  amount: Amount;
  debtor: BankAccount;
  /** signedOn: YYYY-MM-DD */
  mandate: { id: string; signedOn: string };
  remittanceInformation?: string;
  /** PmtId/InstrId; the end-to-end id when absent. */
  instructionId?: string;
}

/** pain.008.001.08: customer direct debit initiation (collections). */
export interface Pain008 {
  messageId: string;
  createdAt: string;
  initiatingPartyName: string;
  payments: {
    paymentInformationId: string;
    requestedCollectionDate: string;
    creditor: BankAccount;
    creditorSchemeId?: string;
    collections: DirectDebit[];
  }[];
}

export type OriginalMessageType = 'pain.001.001.09' | 'pain.008.001.08';

/** pain.002.001.10: customer payment status report. */
export interface StatusReport {
  messageId: string;
  createdAt: string;
  originalMessageId: string;
  originalMessageType: OriginalMessageType;
  /** Status of the whole original message (ACCP, PART, RJCT...), e.g. RJCT with DU01 for a duplicate file. */
  groupStatus?: string;
  groupReasonCode?: string;
  groupAdditionalInformation?: string;
  transactions: {
    endToEndId: string;
    /** ACTC, ACCP, ACSP, ACSC, RJCT, PDNG... */
    status: string;
    reasonCode?: string;
    additionalInformation?: string;
    /** OrgnlPmtInfId of the payment information block the transaction was in; absent when not provided. */
    paymentInformationId?: string;
  }[];
}

/** BkTxCd/Domn: domain (PMNT), family (ICDT, RCDT, RDDT, IDDT...), sub-family (DMCT, ESDD, RRTN...). */
export interface BankTransactionCode {
  domain: string;
  family: string;
  subFamily: string;
}

export interface EntryDetail {
  endToEndId?: string;
  remittanceInformation?: string;
  returnReasonCode?: string;
  /** The other side: the debtor of a credit entry, the creditor of a debit entry. */
  counterparty?: BankAccount;
}

export interface Entry {
  entryReference: string;
  amount: Amount;
  creditDebit: 'CRDT' | 'DBIT';
  status: 'BOOK' | 'PDNG';
  /** YYYY-MM-DD */
  bookingDate: string;
  valueDate?: string;
  bankReference?: string;
  reversal?: boolean;
  /** Written as PMNT/RCDT/DMCT (credit) or PMNT/ICDT/DMCT (debit) when absent. */
  bankTransactionCode?: BankTransactionCode;
  details: EntryDetail[];
}

/** camt.054.001.08: bank to customer debit/credit notification. */
export interface Notification {
  messageId: string;
  createdAt: string;
  notificationId: string;
  account: BankAccount & { currency: string };
  entries: Entry[];
}

export interface Balance {
  amount: Amount;
  creditDebit: 'CRDT' | 'DBIT';
}

/** camt.053.001.08: bank to customer statement. */
export interface Statement {
  messageId: string;
  createdAt: string;
  statementId: string;
  account: BankAccount & { currency: string };
  /** YYYY-MM-DD, the day */
  date: string;
  openingBalance: Balance;
  closingBalance: Balance;
  entries: Entry[];
}

export const NAMESPACES = {
  'pain.001.001.09': 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.09',
  'pain.008.001.08': 'urn:iso:std:iso:20022:tech:xsd:pain.008.001.08',
  'pain.002.001.10': 'urn:iso:std:iso:20022:tech:xsd:pain.002.001.10',
  'camt.054.001.08': 'urn:iso:std:iso:20022:tech:xsd:camt.054.001.08',
  'camt.053.001.08': 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.08',
} as const;

export type MessageType = keyof typeof NAMESPACES;
