import { obj, ref, type Schema, str } from './kit.js';

const nullableStr: Schema = { type: ['string', 'null'] };
/** A log position: a decimal string (positions are 64-bit). */
const decimal = (description: string): Schema => str({ pattern: '^[0-9]+$', description });
/** A count (lists stop counting at 10,000). */
const count: Schema = { type: 'integer', minimum: 0 };
/** An amount read back from the log: null past 2^53-1 (recorded before balances were kept in range), see `exact`. */
const recorded = (description: string): Schema => ({
  type: ['integer', 'null'],
  description:
    `${description} Null when it is past 2^53-1 (recorded before every balance was kept within range); ` +
    'the exact decimal is then beside it.',
});
const exact = str({ pattern: '^-?[0-9]+$', description: 'The exact amount as a decimal, when the number is null.' });

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
        amount: recorded('Minor units.'),
        amountExact: exact,
        kind: str({ enum: ['SETTLED', 'PENDING', 'POSTED', 'VOIDED'] }),
        pendingTransferId: str(),
        code: str(),
        reference: str(),
      },
    },
    balance: recorded('Posted balance of the account right after this posting, minor units.'),
    balanceExact: exact,
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
        amount: recorded('Minor units; 0 for a void.'),
        amountExact: exact,
        currency: str(),
        kind: str({ enum: ['SETTLED', 'PENDING', 'POSTED', 'VOIDED'] }),
        pendingTransferId: str(),
        code: str(),
      },
    },
  }),
  AuditSetAsideEvent: obj(
    ['processor', 'position', 'eventId', 'eventType', 'stream', 'error', 'attempts', 'recordedAt', 'setAsideAt'],
    {
      processor: str({
        description: 'What set it aside: webhook-dispatcher, reactor:cards or projection:<name>.',
      }),
      position: decimal('Position of the event in the log.'),
      eventId: str(),
      eventType: str({ description: 'Event type, e.g. TransferCreated.' }),
      stream: str(),
      error: str({ description: 'The kind and message of the failure (no event data).' }),
      attempts: { type: 'integer', minimum: 1, description: 'How often it was tried before it was set aside.' },
      recordedAt: str({ format: 'date-time', description: 'When the event store recorded the event.' }),
      setAsideAt: str({ format: 'date-time' }),
    },
  ),
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
