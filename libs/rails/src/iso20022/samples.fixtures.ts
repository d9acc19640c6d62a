/** Representative messages for the codec tests: IBAN + BIC accounts and US account + routing accounts. */
import { Amount, BankAccount, Entry, Notification, Pain001, Pain008, Statement, StatusReport } from './messages.js';

/** The day the samples are booked on. */
const DAY = '2026-11-28';

const eur = (minor: bigint): Amount => ({ minor, currency: 'EUR' });

/** A transaction status of a pain.002; a rejection with its reason code and text. */
export function txStatus(
  endToEndId: string,
  status: string,
  paymentInformationId: string,
  reason?: [code: string, information: string],
): StatusReport['transactions'][number] {
  const rejection = reason && { reasonCode: reason[0], additionalInformation: reason[1] };
  return { endToEndId, status, ...rejection, paymentInformationId };
}

/** An entry booked on the sample day unless `more` says otherwise. */
function entry(
  entryReference: string,
  amount: Amount,
  creditDebit: Entry['creditDebit'],
  more: Partial<Entry> & Pick<Entry, 'details'>,
): Entry {
  return { entryReference, amount, creditDebit, status: 'BOOK', bookingDate: DAY, ...more };
}

export const ourEur: BankAccount = {
  name: 'Payments Platform GmbH',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
};
export const ourUsd: BankAccount = {
  name: 'Payments Platform Inc',
  accountNumber: '000123456789',
  routingNumber: '021000021',
};
export const supplierFr: BankAccount = {
  name: 'Fournisseur & Fils SARL',
  iban: 'FR1420041010050500013M02606',
  bic: 'PSSTFRPPXXX',
};
export const payeeUs: BankAccount = { name: 'Jane Q. Payee', accountNumber: '987654321', routingNumber: '026009593' };
export const payeeNl: BankAccount = { name: 'Jan de Vries', iban: 'NL91ABNA0417164300' };

export const pain001: Pain001 = {
  messageId: 'PO-20261128-0001',
  createdAt: '2026-11-28T09:30:00Z',
  initiatingPartyName: 'Payments Platform',
  payments: [
    {
      paymentInformationId: 'PI-EUR-1',
      requestedExecutionDate: '2026-11-30',
      debtor: ourEur,
      transfers: [
        {
          endToEndId: 'E2E-EUR-1',
          amount: { minor: 123456n, currency: 'EUR' },
          creditor: supplierFr,
          remittanceInformation: 'Invoice 2026-0042 <paid>',
        },
        { endToEndId: 'E2E-EUR-2', amount: { minor: 1n, currency: 'EUR' }, creditor: payeeNl },
      ],
    },
    {
      paymentInformationId: 'PI-USD-1',
      requestedExecutionDate: '2026-11-30',
      debtor: ourUsd,
      transfers: [
        {
          endToEndId: 'E2E-USD-1',
          amount: { minor: 100000000n, currency: 'USD' },
          creditor: payeeUs,
          remittanceInformation: 'Payout 77',
        },
      ],
    },
  ],
};

export const pain008: Pain008 = {
  messageId: 'DD-20261128-0001',
  createdAt: '2026-11-28T09:45:00Z',
  initiatingPartyName: 'Payments Platform',
  payments: [
    {
      paymentInformationId: 'DDI-EUR-1',
      requestedCollectionDate: '2026-12-02',
      creditor: ourEur,
      creditorSchemeId: 'DE98ZZZ09999999999',
      collections: [
        {
          endToEndId: 'COL-1',
          amount: { minor: 4999n, currency: 'EUR' },
          debtor: supplierFr,
          mandate: { id: 'MANDATE-1', signedOn: '2026-01-15' },
          remittanceInformation: 'Subscription November',
        },
        {
          endToEndId: 'COL-2',
          amount: { minor: 250000n, currency: 'EUR' },
          debtor: payeeNl,
          mandate: { id: 'MANDATE-2', signedOn: '2025-06-01' },
        },
      ],
    },
    {
      paymentInformationId: 'DDI-USD-1',
      requestedCollectionDate: '2026-12-02',
      creditor: ourUsd,
      collections: [
        {
          endToEndId: 'COL-3',
          amount: { minor: 1099n, currency: 'USD' },
          debtor: payeeUs,
          mandate: { id: 'ACH-AUTH-9', signedOn: '2026-03-03' },
        },
      ],
    },
  ],
};

/** A status report on the sample pain.001 that accepts part of it (PART). */
export function partlyAccepted(
  messageId: string,
  createdAt: string,
  transactions: StatusReport['transactions'],
): StatusReport {
  const original = { originalMessageId: pain001.messageId, originalMessageType: 'pain.001.001.09' } as const;
  return { messageId, createdAt, ...original, groupStatus: 'PART', transactions };
}

export const statusReport = partlyAccepted('PSR-1', '2026-11-28T10:00:00Z', [
  txStatus('E2E-EUR-1', 'ACSC', 'PI-EUR-1'),
  txStatus('E2E-EUR-2', 'RJCT', 'PI-EUR-1', ['AC04', 'Account closed']),
  txStatus('E2E-USD-1', 'ACSP', 'PI-USD-1'),
]);

export const notification: Notification = {
  messageId: 'NTF-1',
  createdAt: '2026-11-28T11:00:00Z',
  notificationId: 'NTF-1-1',
  account: { ...ourEur, currency: 'EUR' },
  entries: [
    entry('N1', eur(123456n), 'DBIT', {
      valueDate: DAY,
      bankReference: 'BREF-1',
      details: [{ endToEndId: 'E2E-EUR-1', remittanceInformation: 'Invoice 2026-0042', counterparty: supplierFr }],
    }),
    entry('N2', eur(1n), 'CRDT', {
      bankTransactionCode: { domain: 'PMNT', family: 'ICDT', subFamily: 'RRTN' },
      details: [{ endToEndId: 'E2E-EUR-2', returnReasonCode: 'AC06', counterparty: payeeNl }],
    }),
    entry('N3', eur(50000n), 'CRDT', {
      status: 'PDNG',
      details: [{ remittanceInformation: 'Top-up wallet 42', counterparty: payeeNl }],
    }),
  ],
};

export const statement: Statement = {
  messageId: 'STM-1',
  createdAt: '2026-11-28T23:59:00Z',
  statementId: 'STM-1-1',
  account: { ...ourUsd, currency: 'USD' },
  date: DAY,
  openingBalance: { amount: { minor: 5000n, currency: 'USD' }, creditDebit: 'DBIT' },
  closingBalance: { amount: { minor: 99995000n, currency: 'USD' }, creditDebit: 'CRDT' },
  entries: [
    entry('S1', { minor: 100000000n, currency: 'USD' }, 'CRDT', {
      details: [{ endToEndId: 'COL-3', counterparty: payeeUs }],
    }),
  ],
};
