/** OpenAPI prose of the agents routes (the descriptions the controllers' decorators name). */

/** Descriptions of the routes of agent-me.controller.ts, by handler. */
export const AGENT_ME_TEXT = {
  me: 'Profile, policy and usage (as of the platform clock).',
  listActions: 'Newest first. Poll an action for the platform’s decision.',
  internalAccounts: 'With balances. Needs VIEW_TRANSACTIONS.',
  transactions:
    'Newest first unless sortOrder=asc; dates are inclusive; a customer filter is not accepted. ' +
    'Needs VIEW_TRANSACTIONS.',
  transaction: 'Another customer’s answers 404. Needs VIEW_TRANSACTIONS.',
  createQuote:
    'From one of the customer’s accounts to another of its accounts or a UMA address (any account not ' +
    'the customer’s, as source or destination: 404), or REALTIME_FUNDING: the customer pays ' +
    'in by the quote’s paymentInstructions and the quote starts when the funds arrive (source.customerId, ' +
    'if given, must be the agent’s customer). Needs CREATE_QUOTES (and EXECUTE_QUOTES with ' +
    'immediatelyExecute, which for an account source is then evaluated like an execute). 403 for a paused ' +
    'agent or an account the policy does not allow.',
  quote: 'Any other quote answers 404.',
  execute:
    'Evaluated by the policy (EXECUTE_QUOTES): APPROVED with its transaction, PENDING_APPROVAL ' +
    'without one, or 403. An EMBEDDED_WALLET source needs Service-Wallet-Signature over the ' +
    'quote’s payloadToSign (401 without it). 409 when expired or no longer pending.',
  listExternalAccounts: 'Needs MANAGE_EXTERNAL_ACCOUNTS.',
  createExternalAccount: 'For the agent’s customer. Needs MANAGE_EXTERNAL_ACCOUNTS; 403 for a paused agent.',
  externalAccount: 'Another customer’s answers 404. Needs MANAGE_EXTERNAL_ACCOUNTS.',
  deleteExternalAccount: 'Needs MANAGE_EXTERNAL_ACCOUNTS; 403 for a paused agent.',
  transferIn:
    'From one of the customer’s external accounts into one of its internal accounts. Evaluated by ' +
    'the policy (CREATE_TRANSFERS). amount is optional in the schema, as in the public API, but a pull ' +
    'needs it: 400 INVALID_AMOUNT without it.',
  transferOut:
    'From one of the customer’s internal accounts to one of its external accounts. Evaluated by ' +
    'the policy (CREATE_TRANSFERS); 400 INSUFFICIENT_FUNDS when the balance does not cover it. Without ' +
    'amount the account’s whole available balance is sent, and the policy judges that amount (400 ' +
    'INVALID_AMOUNT when the balance is empty).',
};

export const POLICY_TEXT =
  'Policy evaluation, at the moment of each action: every account the agent names (source or ' +
  'destination, internal or external) must be its customer’s, any other answers 404 as an unknown ' +
  'account; a paused agent, a missing permission or an internal account (at either end) outside ' +
  'allowedAccountIds answer 403 FORBIDDEN; ' +
  'an amount (converted into spendingLimits.currency at the service rate) above the per-transaction ' +
  'limit (an account rule’s takes precedence), or past the daily count, ' +
  'daily amount or monthly amount (executed spends plus spends in flight, UTC day and month of the ' +
  'platform clock) answers 403 VELOCITY_LIMIT_EXCEEDED; ' +
  'APPROVAL_REQUIRED (the account rule’s mode, else the default) or an amount above ' +
  'approvalThresholds makes the action PENDING_APPROVAL.';

export const DEVICE_CODE_LIMIT =
  'Redemptions and status reads together are limited per client address (`RATE_LIMIT_DEVICE_CODES` per ' +
  '`RATE_LIMIT_DEVICE_CODE_WINDOW_SECONDS`, 30 a minute by default): 429 RATE_LIMITED with Retry-After past that.';

/** Descriptions of the routes of agents.controller.ts, by handler. */
export const AGENTS_TEXT = {
  create:
    `Creates an agent for a customer with a policy and returns its first device code ` +
    `(valid 24 hours on the platform clock; shown once: a replay with the same Idempotency-Key answers without ` +
    `deviceCode.code, issue a new one if it was lost). ${POLICY_TEXT}`,
  list: 'Newest first; date filters are inclusive.',
  approvals: 'Agent actions in PENDING_APPROVAL, newest first unless sortOrder=asc; dates (createdAt) are inclusive.',
  deviceCodeStatus: `Poll until \`redeemed\` is true. ${DEVICE_CODE_LIMIT}`,
  redeem:
    'No authentication. Returns the agent’s access token once (only its hash is kept; it cannot ' +
    'be retrieved again) and marks the agent connected. 400 when the code was already redeemed, ' +
    `replaced by a newer one or expired; 404 when unknown. ${DEVICE_CODE_LIMIT}`,
  redeemResponse200: 'The access token and the agent’s policy',
  get: 'Usage counters as of the platform clock.',
  update: 'A paused agent cannot initiate actions (403) until unpaused; its configuration is kept.',
  delete: 'Permanent: its access token stops working at once (401).',
  updatePolicy:
    `Partial and effective immediately. Omitted fields are kept; permissions, ` +
    `accountRestrictions and approvalThresholds replace (null removes); spendingLimits merges ` +
    `field by field (null removes the daily or monthly limit; a new currency recasts the limits ` +
    `not given). ${POLICY_TEXT}`,
  backtestPolicy:
    'What a draft policy would have decided on the agent’s past actions. `policy` is a policy update, validated ' +
    'and applied to the current policy exactly as PATCH /agents/{id}/policy would; nothing is changed or written. ' +
    'The agent’s history is replayed from its event stream: from `from` on the draft is in force (the usage at ' +
    '`from` as it was, recast into the draft’s currency as an update would), and each action requested in ' +
    '[from, to) is decided again by the same policy evaluation as a live request, on the usage and reservations ' +
    'the draft’s own decisions left: an action the draft declines never counts; one it holds for approval counts ' +
    'only once the platform approved it in fact and the draft agrees then. Policy updates recorded after `from` ' +
    'are ignored. Requests refused at the time left no trace, so every actual outcome is APPROVED or ' +
    'APPROVAL_REQUIRED. The answer lists the changed decisions (a DECLINED one with the `limit` that refused it: ' +
    'perTransactionLimit, accountRules.perTransactionLimit, dailyLimit, dailyTransactionLimit, monthlyLimit, or ' +
    'FORBIDDEN for a permission or an account) and counts and amounts per pair of outcomes; amounts there are in ' +
    'the smallest unit of the draft’s limits currency. 400 when to is not after from or the period is over 366 ' +
    'days.',
  issueDeviceCode:
    'Earlier unredeemed codes stop working. 409 while the agent is connected. The code is shown once: a replay ' +
    'with the same Idempotency-Key answers without it.',
  approve:
    'Executes against the latest policy, usage and balances: APPROVED with its transaction, or ' +
    'FAILED (quote expired, funds short, limits now exceeded, agent paused). 409 unless PENDING_APPROVAL.',
  reject: 'REJECTED; nothing is executed. `reason` is stored as rejectionReason. 409 unless PENDING_APPROVAL.',
};
