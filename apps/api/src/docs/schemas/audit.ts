import { obj, ref, type Schema, str } from './kit.js';

const nullableStr: Schema = { type: ['string', 'null'] };

const entryProperties: Record<string, Schema> = {
  revision: { type: 'integer', description: 'Position of the event in its stream; histories are in this order.' },
  type: str({ description: 'Event type, e.g. CardStateChanged.' }),
  recordedAt: str({ format: 'date-time', description: 'When the event store recorded the event.' }),
  occurredAt: str({
    format: 'date-time',
    description: 'The business time the event carries (the platform clock), when it carries one.',
  }),
  actor: nullableStr,
  correlationId: nullableStr,
  changes: {
    type: 'object',
    description: 'The event data; secret material, hashes of secrets, OTPs and keys are [REDACTED].',
  },
};

export const auditSchemas: Record<string, Schema> = {
  AuditHistoryEntry: {
    type: 'object',
    required: ['revision', 'type', 'recordedAt', 'actor', 'correlationId', 'changes'],
    properties: entryProperties,
  },
  AuditPosting: obj(['revision', 'type', 'recordedAt', 'actor', 'correlationId', 'changes', 'posting', 'balance'], {
    ...entryProperties,
    posting: {
      type: 'object',
      required: ['transferId', 'direction', 'amount', 'kind', 'code'],
      properties: {
        transferId: str(),
        direction: str({ enum: ['DEBIT', 'CREDIT'] }),
        amount: { type: 'integer', description: 'Minor units.' },
        kind: str({ enum: ['SETTLED', 'PENDING', 'POSTED', 'VOIDED'] }),
        pendingTransferId: str(),
        code: str(),
        reference: str(),
      },
    },
    balance: { type: 'integer', description: 'Posted balance of the account right after this posting, minor units.' },
  }),
  AuditLedgerLeg: obj(['revision', 'type', 'recordedAt', 'actor', 'correlationId', 'changes', 'leg'], {
    ...entryProperties,
    leg: {
      type: 'object',
      required: ['transferId', 'debitAccountId', 'creditAccountId', 'amount', 'currency', 'kind', 'code'],
      properties: {
        transferId: str(),
        debitAccountId: str(),
        creditAccountId: str(),
        amount: { type: 'integer', description: 'Minor units; 0 for a void.' },
        currency: str(),
        kind: str({ enum: ['SETTLED', 'PENDING', 'POSTED', 'VOIDED'] }),
        pendingTransferId: str(),
        code: str(),
      },
    },
  }),
  AuditState: { oneOf: [ref('Card'), ref('Transaction'), ref('InternalAccount'), ref('Customer')] },
};
