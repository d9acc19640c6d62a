import { dateTime, obj, type Schema, str } from './kit.js';

const minor = (description: string): Schema => str({ pattern: '^-?[0-9]+$', description });
const BREAKS = [
  'ENTRY_NOT_IN_LEDGER',
  'MOVEMENT_NOT_ON_STATEMENT',
  'AMOUNT_DIFFERS',
  'DATE_DIFFERS',
  'OPENING_BALANCE_DIFFERS',
  'CLOSING_BALANCE_DIFFERS',
];

/** A production platform's bank rail as its operators review it (GET /bank-rails/{currency}/...). */
export const bankRailSchemas: Record<string, Schema> = {
  BankInboxFile: obj(['fileName', 'sha256', 'status', 'receivedAt', 'effects', 'problems'], {
    fileName: str(),
    sha256: str({ pattern: '^[0-9a-f]{64}$' }),
    messageType: str({ enum: ['STATUS_REPORT', 'NOTIFICATION', 'STATEMENT'] }),
    messageId: str(),
    status: str({ enum: ['RECEIVED', 'APPLIED', 'QUARANTINED'] }),
    quarantineReason: str({ description: 'Why nothing of the file was taken.' }),
    receivedAt: dateTime,
    appliedAt: dateTime,
    effects: {
      type: 'array',
      items: obj(['endToEndId', 'action'], {
        endToEndId: str({ description: 'The payment’s reconciliationInstructions.reference.' }),
        action: str({ enum: ['ACCEPT', 'REJECT', 'BOOK', 'RETURN'] }),
        reasonCode: str({ description: 'The ISO 20022 reason code of a rejection or return.' }),
      }),
    },
    problems: {
      type: 'array',
      description: 'Entries of the file that were not taken, each with its reason.',
      items: obj(['entry', 'reason'], { entry: str(), reason: str() }),
    },
  }),
  BankCreditException: obj(
    ['id', 'status', 'amount', 'currency', 'bookingDate', 'entryReference', 'fileName', 'receivedAt'],
    {
      id: str({ pattern: '^BankCredit:[0-9a-f-]{36}$' }),
      status: str({
        enum: ['OPEN', 'ASSIGNED', 'RETURNING', 'RETURNED'],
        description:
          'RETURNING: sent back to its payer, until the bank books the return (RETURNED) or rejects it (OPEN).',
      }),
      amount: minor('Smallest unit.'),
      currency: str(),
      bookingDate: str({ format: 'date' }),
      entryReference: str({ description: 'The bank’s reference of the entry.' }),
      remittanceInformation: str(),
      reason: str({ description: 'Why a credit that named a quote was held instead (expired, another amount).' }),
      fileName: str({ description: 'The notification the credit came in.' }),
      receivedAt: dateTime,
      assignedTo: str({ pattern: '^InternalAccount:[0-9a-f-]{36}$' }),
      assignedAt: dateTime,
      returnedAt: dateTime,
    },
  ),
  BankReconciliation: obj(
    [
      'date',
      'statementId',
      'messageId',
      'fileName',
      'openingBalance',
      'closingBalance',
      'expectedOpeningBalance',
      'expectedClosingBalance',
      'breaks',
      'closed',
      'reconciledAt',
    ],
    {
      date: str({ format: 'date' }),
      statementId: str(),
      messageId: str(),
      fileName: str(),
      openingBalance: minor('As the statement says, smallest unit.'),
      closingBalance: minor('As the statement says, smallest unit.'),
      expectedOpeningBalance: minor('As the ledger says, smallest unit.'),
      expectedClosingBalance: minor('As the ledger says, smallest unit.'),
      breaks: {
        type: 'array',
        items: obj(['kind', 'detail'], {
          kind: str({ enum: BREAKS }),
          reference: str({ description: 'The payment’s end-to-end id, or the bank’s entry reference.' }),
          statementAmount: minor('Smallest unit.'),
          ledgerAmount: minor('Smallest unit.'),
          detail: str(),
        }),
      },
      closed: { type: 'boolean', description: 'True when the day has no break.' },
      reconciledAt: dateTime,
    },
  ),
};
