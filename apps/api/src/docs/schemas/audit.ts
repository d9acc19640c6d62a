import { obj, ref, type Schema, str } from './kit.js';

const nullableStr: Schema = { type: ['string', 'null'] };
/** A log position: a decimal string (positions are 64-bit). */
const decimal = (description: string): Schema => str({ pattern: '^[0-9]+$', description });
/** A count (lists stop counting at 10,000). */
const count: Schema = { type: 'integer', minimum: 0 };

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
  OperationsOverview: obj(
    [
      'generatedAt',
      'eventLog',
      'projections',
      'queues',
      'counts',
      'webhookDeliveries',
      'settlementBalances',
      'recentEvents',
    ],
    {
      generatedAt: str({ format: 'date-time', description: "The platform's clock when the overview was made." }),
      eventLog: obj(['headPosition'], {
        headPosition: decimal(
          'Position of the platform’s newest event in the log (0 when it has none among the log’s latest 500).',
        ),
      }),
      projections: obj(['position', 'lag'], {
        position: decimal('Position of the platform’s newest event the read models have applied.'),
        lag: decimal('The platform’s events the read models have not applied yet.'),
      }),
      queues: {
        type: 'object',
        description: "The platform's jobs per queue (each count stops at 10,000).",
        additionalProperties: obj(['waiting', 'delayed', 'active', 'dead'], {
          waiting: count,
          delayed: count,
          active: count,
          dead: count,
        }),
      },
      counts: obj(['customers', 'internalAccounts', 'apiTokens', 'agents', 'pendingApprovals'], {
        customers: count,
        internalAccounts: count,
        apiTokens: count,
        agents: count,
        pendingApprovals: count,
      }),
      webhookDeliveries: obj(['PENDING', 'DELIVERED', 'FAILED', 'DEAD'], {
        PENDING: count,
        DELIVERED: count,
        FAILED: count,
        DEAD: count,
      }),
      settlementBalances: {
        type: 'array',
        items: obj(['accountId', 'currency', 'amount'], {
          accountId: str(),
          currency: str(),
          amount: { type: 'integer', description: 'Minor units.' },
        }),
      },
      recentEvents: {
        type: 'array',
        description: "The platform's newest events, newest first.",
        items: obj(['position', 'type', 'stream', 'actor', 'recordedAt'], {
          position: decimal('Position in the log.'),
          type: str(),
          stream: str(),
          actor: nullableStr,
          recordedAt: str({ format: 'date-time' }),
        }),
      },
    },
  ),
};
