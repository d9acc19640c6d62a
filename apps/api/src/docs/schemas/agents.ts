import { dateTime, obj, ref, type Schema, str, idOf } from './kit.js';
const int = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra });
const nullable = (schema: Schema): Schema => ({ oneOf: [schema, { type: 'null' }] });
const PERMISSIONS = [
  'VIEW_TRANSACTIONS',
  'CREATE_TRANSFERS',
  'CREATE_QUOTES',
  'EXECUTE_QUOTES',
  'MANAGE_EXTERNAL_ACCOUNTS',
];
const MODES = ['AUTO', 'APPROVAL_REQUIRED'];
const BACKTEST_OUTCOMES = ['APPROVED', 'DECLINED', 'APPROVAL_REQUIRED'];
/** A sum of amounts: the JSON number where it fits, null past 2^53-1 with the exact decimal in `exact`. */
const summed = {
  amount: nullable(int({ description: 'Added up (smallest unit); null past 2^53-1, with `exact`.' })),
  exact: str({ description: 'The exact sum as a decimal string, when `amount` is null.' }),
};
const totals = (description: string): Schema => ({
  ...obj(['count', 'amount'], { count: int(), ...summed }),
  description,
});

/** Agents and their actions (the public API's Agent* schemas). */
export const agentSchemas: Record<string, Schema> = {
  AgentPolicy: obj(['permissions', 'defaultExecutionMode', 'spendingLimits'], {
    permissions: {
      type: 'array',
      items: str({ enum: PERMISSIONS }),
      description:
        'VIEW_TRANSACTIONS: transactions and balances; CREATE_TRANSFERS: transfer-in/out (same ' +
        'currency); CREATE_QUOTES; EXECUTE_QUOTES; MANAGE_EXTERNAL_ACCOUNTS.',
    },
    defaultExecutionMode: str({
      enum: MODES,
      description: 'APPROVAL_REQUIRED: every action needs explicit approval.',
    }),
    spendingLimits: {
      type: 'object',
      required: ['currency', 'perTransactionLimit'],
      description:
        'Smallest units of `currency`; amounts in other currencies are converted at the service rate when evaluated.',
      properties: {
        currency: str(),
        perTransactionLimit: int(),
        dailyLimit: nullable(int()),
        dailyTransactionLimit: int(),
        monthlyLimit: nullable(int()),
      },
    },
    accountRestrictions: {
      type: 'object',
      description: 'Absent when not set (null in an update removes them).',
      properties: {
        allowedAccountIds: nullable({
          type: 'array',
          items: str(),
          description: 'null: every internal account of the customer.',
        }),
        accountRules: {
          type: 'array',
          items: {
            type: 'object',
            required: ['accountId'],
            description: 'Takes precedence over the default policy.',
            properties: {
              accountId: str(),
              executionMode: str({ enum: MODES }),
              perTransactionLimit: nullable(int()),
            },
          },
        },
      },
    },
    approvalThresholds: {
      type: 'object',
      description:
        'A transaction above `amount` needs approval even in AUTO. Absent when not set (null in an update removes it).',
      properties: { currency: str(), amount: nullable(int()) },
    },
  }),
  AgentUsage: {
    type: 'object',
    required: ['dailyTransactionCount', 'dailySpend', 'monthlySpend', 'dailyResetDate', 'monthlyResetMonth'],
    description:
      'Executed spends, in spendingLimits.currency; reset at the UTC day and month boundaries of the platform clock.',
    properties: {
      dailyTransactionCount: int(),
      dailySpend: int(),
      monthlySpend: int(),
      dailyResetDate: str({ format: 'date', description: 'When the daily counters reset.' }),
      monthlyResetMonth: str({ pattern: '^\\d{4}-\\d{2}$', description: 'When the monthly counter resets.' }),
    },
  },
  Agent: obj(['id', 'name', 'customerId', 'isPaused', 'isConnected', 'policy', 'usage', 'createdAt', 'updatedAt'], {
    id: idOf('Agent'),
    name: str(),
    customerId: str(),
    isPaused: { type: 'boolean', description: 'A paused agent cannot initiate any actions.' },
    isConnected: { type: 'boolean', description: 'A device code was redeemed.' },
    policy: ref('AgentPolicy'),
    usage: ref('AgentUsage'),
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
  AgentPolicyBacktest: obj(['agentId', 'from', 'to', 'policy', 'currency', 'considered', 'changed', 'outcomes'], {
    agentId: idOf('Agent'),
    from: dateTime,
    to: dateTime,
    policy: { ...ref('AgentPolicy'), description: 'The draft: the update applied to the current policy.' },
    currency: str({ description: 'The draft’s limits currency: the amounts of considered, changed and outcomes.' }),
    considered: totals('The actions requested in the period.'),
    changed: obj(['count', 'amount', 'actions'], {
      count: int(),
      ...summed,
      actions: { type: 'array', items: ref('AgentPolicyBacktestChange') },
    }),
    outcomes: {
      type: 'array',
      description: 'Per pair of outcomes (actual, draft), unchanged pairs included.',
      items: obj(['actualOutcome', 'draftOutcome', 'count', 'amount'], {
        actualOutcome: str({ enum: BACKTEST_OUTCOMES }),
        draftOutcome: str({ enum: BACKTEST_OUTCOMES }),
        count: int(),
        ...summed,
      }),
    },
  }),
  AgentPolicyBacktestChange: obj(['actionId', 'type', 'at', 'amount', 'currency', 'actualOutcome', 'draftOutcome'], {
    actionId: idOf('AgentAction'),
    type: str({ enum: ['EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN'] }),
    at: { ...dateTime, description: 'When the action was requested.' },
    amount: int({ description: 'In the smallest unit of the action’s own currency.' }),
    currency: str(),
    actualOutcome: str({ enum: BACKTEST_OUTCOMES }),
    draftOutcome: str({ enum: BACKTEST_OUTCOMES }),
    limit: str({ description: 'DECLINED: the limit that refused it, or FORBIDDEN (a permission or an account).' }),
    reason: str({ description: 'DECLINED: the policy’s message.' }),
  }),
  AgentDeviceCode: obj(['agentId', 'expiresAt', 'redeemed'], {
    code: str({
      example: 'PAY-AGENT-X7K9-M2P4',
      description: 'Shown once: absent from a replay with the same Idempotency-Key (only its hash is kept).',
    }),
    agentId: str(),
    expiresAt: dateTime,
    redeemed: { type: 'boolean' },
  }),
  AgentCreateResponse: obj(['agent', 'deviceCode'], { agent: ref('Agent'), deviceCode: ref('AgentDeviceCode') }),
  AgentDeviceCodeStatus: obj(['code', 'redeemed'], { code: str(), redeemed: { type: 'boolean' } }),
  AgentDeviceCodeRedeemResponse: obj(['agentId', 'agentName', 'accessToken', 'policy'], {
    agentId: str(),
    agentName: str(),
    accessToken: str({
      pattern: '^gat_[0-9a-f]{40}$',
      description: 'Returned only once; it cannot be retrieved again.',
    }),
    policy: ref('AgentPolicy'),
  }),
  AgentAction: obj(['id', 'agentId', 'customerId', 'platformCustomerId', 'status', 'type', 'createdAt', 'updatedAt'], {
    id: idOf('AgentAction'),
    agentId: str(),
    customerId: str(),
    platformCustomerId: str(),
    status: str({
      enum: ['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED'],
      description:
        'APPROVED: execution in progress or completed; FAILED: approved but execution failed ' +
        '(quote expired, insufficient funds, limits now exceeded, agent paused).',
    }),
    type: str({ enum: ['EXECUTE_QUOTE', 'TRANSFER_OUT', 'TRANSFER_IN'] }),
    quote: { ...ref('Quote'), description: 'EXECUTE_QUOTE only: the quote as it was when the action was requested.' },
    transferDetails: {
      type: 'object',
      required: ['amount', 'currency', 'sourceAccountId', 'destinationAccountId'],
      properties: { amount: int(), currency: str(), sourceAccountId: str(), destinationAccountId: str() },
    },
    approvalReasons: {
      type: 'array',
      description:
        'Why the action needed approval, recorded when it was requested: the account’s rule ' +
        '(accountRules.executionMode) or the policy’s default mode (defaultExecutionMode) is APPROVAL_REQUIRED, ' +
        'or the amount is above the approval threshold (approvalThresholds.amount, with the threshold). ' +
        'Absent when the action needed none, and on actions requested before it was recorded.',
      items: obj(['rule'], {
        rule: str({ enum: ['accountRules.executionMode', 'defaultExecutionMode', 'approvalThresholds.amount'] }),
        threshold: obj(['amount', 'currency'], {
          amount: int({ description: 'Smallest unit of `currency`.' }),
          currency: str(),
        }),
      }),
    },
    transaction: { ...ref('Transaction'), description: 'Once approved and execution began.' },
    rejectionReason: str({ description: 'REJECTED only.' }),
    decision: {
      $ref: '#/components/schemas/PlatformDecisionRecord',
      description:
        'Set when the platform’s AGENT_ACTION.REQUEST endpoint (PLATFORM) or its default (DEFAULT) approved or ' +
        'rejected the action; absent when a person did, or while it waits.',
    },
    failureReason: str({ description: 'FAILED only: why execution failed.' }),
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
};
