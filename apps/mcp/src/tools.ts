import * as dto from '../../api/src/agents/agent-me.dto.js';
import { dtoSchema, withInputs, type JsonSchema } from './tool-schemas.js';

/** One HTTP request of the agent API, built from a tool's arguments. */
export interface ApiRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, unknown>;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export interface AgentTool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /** Inputs the tool refuses to go without, though the API has a default for them (no API call is made). */
  explicit?: string[];
  request(args: Record<string, unknown>, newKey: () => string): ApiRequest;
}

const id = (kind: string): JsonSchema => ({
  type: 'string',
  pattern: `^${kind}:[0-9a-f-]{36}$`,
  description: `The ${kind} id (${kind}:<uuid>).`,
});
const idempotencyKey: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  description: 'Idempotency-Key header. Reuse the same key to retry safely; a fresh one is generated when omitted.',
};
const noInput: JsonSchema = { type: 'object', properties: {} };

/** Splits tool-only inputs off the DTO body. */
function split(args: Record<string, unknown>, ...keys: string[]): [Record<string, unknown>, Record<string, unknown>] {
  const own: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) (keys.includes(k) ? own : rest)[k] = v;
  return [own, rest];
}

const enc = encodeURIComponent;

/** A POST that moves money or creates a quote: always sent with an Idempotency-Key. */
const idempotentPost =
  (path: string) =>
  (args: Record<string, unknown>, newKey: () => string): ApiRequest => {
    const [own, body] = split(args, 'idempotencyKey');
    return { method: 'POST', path, body, headers: { 'Idempotency-Key': String(own.idempotencyKey ?? newKey()) } };
  };

type Dto = Parameters<typeof dtoSchema>[0];

/** A tool listing a collection: GET `path` with the query DTO's fields as its inputs. */
const listTool = (name: string, description: string, path: string, query: Dto): AgentTool => ({
  name,
  description,
  inputSchema: dtoSchema(query),
  request: (args) => ({ method: 'GET', path, query: args }),
});

/** A tool reading one resource: GET `<path>/<id>`, the id in the input `param`, of the resource `kind`. */
const getTool = (name: string, description: string, path: string, param: string, kind: string): AgentTool => ({
  name,
  description,
  inputSchema: withInputs(noInput, { [param]: id(kind) }, [param]),
  request: (args) => ({ method: 'GET', path: `${path}/${enc(String(args[param]))}` }),
});

/** A tool sending the body DTO's fields in an idempotent POST to `path` (see `idempotentPost`). */
const postTool = (name: string, description: string, path: string, body: Dto): AgentTool => ({
  name,
  description,
  inputSchema: withInputs(dtoSchema(body), { idempotencyKey }),
  request: idempotentPost(path),
});

/** The DTO's `amount`, required, with what it means. */
function explicitAmount(schema: JsonSchema): JsonSchema {
  const props = schema.properties as Record<string, JsonSchema>;
  const description =
    'In the smallest unit of the accounts’ currency. Required here: this tool never sends a whole balance.';
  const amount = { ...props.amount, description };
  return withInputs({ ...schema, properties: { ...props, amount } }, {}, ['amount']);
}

/**
 * A transfer: `postTool` with `amount` required, in its schema and by the tool itself, although the API reads an
 * absent amount as the account's whole available balance (transfer-out) for its direct callers.
 */
const transferTool = (name: string, description: string, path: string, body: Dto): AgentTool => ({
  ...postTool(name, description, path, body),
  inputSchema: explicitAmount(withInputs(dtoSchema(body), { idempotencyKey })),
  explicit: ['amount'],
});

/** The agent itself: GET /agents/me. */
const getAgentTool = (): AgentTool => ({
  name: 'get_agent',
  description:
    'This agent: its profile, policy (permissions, spending limits, execution modes) and usage so ' +
    'far today and this month.',
  inputSchema: noInput,
  request: () => ({ method: 'GET', path: '/agents/me' }),
});

/** Executing a quote: an idempotent POST, with the wallet signature in a header for an EMBEDDED_WALLET source. */
const executeQuoteTool = (): AgentTool => ({
  name: 'execute_quote',
  description:
    'Execute a quote. The policy decides: an action APPROVED with its transaction, PENDING_APPROVAL' +
    ' (poll get_action), or an error such as VELOCITY_LIMIT_EXCEEDED. Needs EXECUTE_QUOTES.',
  inputSchema: withInputs(
    noInput,
    {
      quoteId: id('Quote'),
      idempotencyKey,
      walletSignature: {
        type: 'string',
        minLength: 1,
        description: 'Service-Wallet-Signature over the quote’s payloadToSign; only for an EMBEDDED_WALLET source.',
      },
    },
    ['quoteId'],
  ),
  request: (a, newKey) => ({
    method: 'POST',
    path: `/agents/me/quotes/${enc(String(a.quoteId))}/execute`,
    headers: {
      'Idempotency-Key': String(a.idempotencyKey ?? newKey()),
      ...(a.walletSignature ? { 'Service-Wallet-Signature': String(a.walletSignature) } : {}),
    },
  }),
});

/**
 * The agent-side operations of the API as MCP tools. Input schemas come from the DTOs of
 * `apps/api/src/agents/agent-me.dto.ts`, so a tool accepts exactly what the endpoint validates.
 */
export function agentTools(): AgentTool[] {
  return [
    getAgentTool(),
    listTool(
      'list_internal_accounts',
      'The customer’s internal accounts with their balances (amounts in the currency’s smallest ' +
        'unit). Needs VIEW_TRANSACTIONS.',
      '/agents/me/internal-accounts',
      dto.AgentListInternalAccountsQuery,
    ),
    listTool(
      'list_external_accounts',
      'The customer’s external (bank) accounts, e.g. as transfer-out destinations. Needs ' +
        'MANAGE_EXTERNAL_ACCOUNTS.',
      '/agents/me/external-accounts',
      dto.AgentListExternalAccountsQuery,
    ),
    listTool(
      'list_transactions',
      'The customer’s transactions, newest first unless sortOrder=asc; dates are inclusive. Needs ' +
        'VIEW_TRANSACTIONS.',
      '/agents/me/transactions',
      dto.AgentListTransactionsQuery,
    ),
    getTool(
      'get_transaction',
      'One of the customer’s transactions. Needs VIEW_TRANSACTIONS.',
      '/agents/me/transactions',
      'transactionId',
      'Transaction',
    ),
    postTool(
      'create_quote',
      'Create a quote from one of the customer’s accounts (amounts in the smallest unit). Needs ' +
        'CREATE_QUOTES; with immediatelyExecute it is also evaluated by the policy like execute_quote.',
      '/agents/me/quotes',
      dto.AgentCreateQuoteDto,
    ),
    getTool('get_quote', 'A quote this agent created, with its status.', '/agents/me/quotes', 'quoteId', 'Quote'),
    executeQuoteTool(),
    transferTool(
      'transfer_in',
      'Move money from one of the customer’s external accounts into one of its internal accounts ' +
        '(same currency). Evaluated by the policy (CREATE_TRANSFERS); returns the agent action.',
      '/agents/me/transfer-in',
      dto.AgentTransferInDto,
    ),
    transferTool(
      'transfer_out',
      'Move money from one of the customer’s internal accounts to one of its external accounts (same ' +
        'currency). Evaluated by the policy (CREATE_TRANSFERS); returns the agent action.',
      '/agents/me/transfer-out',
      dto.AgentTransferOutDto,
    ),
    listTool(
      'list_actions',
      'This agent’s actions (executions and transfers), newest first, with their status: ' +
        'PENDING_APPROVAL, APPROVED, REJECTED or FAILED.',
      '/agents/me/actions',
      dto.AgentListActionsQuery,
    ),
    getTool(
      'get_action',
      'One of this agent’s actions: poll it for the platform’s decision on a PENDING_APPROVAL action.',
      '/agents/me/actions',
      'actionId',
      'AgentAction',
    ),
  ];
}
