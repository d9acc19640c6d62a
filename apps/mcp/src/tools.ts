import {
  AgentCreateQuoteDto,
  AgentListActionsQuery,
  AgentListExternalAccountsQuery,
  AgentListInternalAccountsQuery,
  AgentListTransactionsQuery,
  AgentTransferInDto,
  AgentTransferOutDto,
} from '../../api/src/agents/agent-me.dto.js';
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

/**
 * The agent-side operations of the API as MCP tools. Input schemas come from the DTOs of
 * `apps/api/src/agents/agent-me.dto.ts`, so a tool accepts exactly what the endpoint validates.
 */
export function agentTools(): AgentTool[] {
  return [
    {
      name: 'get_agent',
      description:
        'This agent: its profile, policy (permissions, spending limits, execution modes) and usage so ' +
        'far today and this month.',
      inputSchema: noInput,
      request: () => ({ method: 'GET', path: '/agents/me' }),
    },
    {
      name: 'list_internal_accounts',
      description:
        'The customer’s internal accounts with their balances (amounts in the currency’s smallest ' +
        'unit). Needs VIEW_TRANSACTIONS.',
      inputSchema: dtoSchema(AgentListInternalAccountsQuery),
      request: (query) => ({ method: 'GET', path: '/agents/me/internal-accounts', query }),
    },
    {
      name: 'list_external_accounts',
      description:
        'The customer’s external (bank) accounts, e.g. as transfer-out destinations. Needs ' +
        'MANAGE_EXTERNAL_ACCOUNTS.',
      inputSchema: dtoSchema(AgentListExternalAccountsQuery),
      request: (query) => ({ method: 'GET', path: '/agents/me/external-accounts', query }),
    },
    {
      name: 'list_transactions',
      description:
        'The customer’s transactions, newest first unless sortOrder=asc; dates are inclusive. Needs ' +
        'VIEW_TRANSACTIONS.',
      inputSchema: dtoSchema(AgentListTransactionsQuery),
      request: (query) => ({ method: 'GET', path: '/agents/me/transactions', query }),
    },
    {
      name: 'get_transaction',
      description: 'One of the customer’s transactions. Needs VIEW_TRANSACTIONS.',
      inputSchema: withInputs(noInput, { transactionId: id('Transaction') }, ['transactionId']),
      request: (a) => ({ method: 'GET', path: `/agents/me/transactions/${enc(String(a.transactionId))}` }),
    },
    {
      name: 'create_quote',
      description:
        'Create a quote from one of the customer’s accounts (amounts in the smallest unit). Needs ' +
        'CREATE_QUOTES; with immediatelyExecute it is also evaluated by the policy like execute_quote.',
      inputSchema: withInputs(dtoSchema(AgentCreateQuoteDto), { idempotencyKey }),
      request: idempotentPost('/agents/me/quotes'),
    },
    {
      name: 'get_quote',
      description: 'A quote this agent created, with its status.',
      inputSchema: withInputs(noInput, { quoteId: id('Quote') }, ['quoteId']),
      request: (a) => ({ method: 'GET', path: `/agents/me/quotes/${enc(String(a.quoteId))}` }),
    },
    {
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
    },
    {
      name: 'transfer_in',
      description:
        'Move money from one of the customer’s external accounts into one of its internal accounts ' +
        '(same currency). Evaluated by the policy (CREATE_TRANSFERS); returns the agent action.',
      inputSchema: withInputs(dtoSchema(AgentTransferInDto), { idempotencyKey }),
      request: idempotentPost('/agents/me/transfer-in'),
    },
    {
      name: 'transfer_out',
      description:
        'Move money from one of the customer’s internal accounts to one of its external accounts (same ' +
        'currency). Evaluated by the policy (CREATE_TRANSFERS); returns the agent action.',
      inputSchema: withInputs(dtoSchema(AgentTransferOutDto), { idempotencyKey }),
      request: idempotentPost('/agents/me/transfer-out'),
    },
    {
      name: 'list_actions',
      description:
        'This agent’s actions (executions and transfers), newest first, with their status: ' +
        'PENDING_APPROVAL, APPROVED, REJECTED or FAILED.',
      inputSchema: dtoSchema(AgentListActionsQuery),
      request: (query) => ({ method: 'GET', path: '/agents/me/actions', query }),
    },
    {
      name: 'get_action',
      description: 'One of this agent’s actions: poll it for the platform’s decision on a PENDING_APPROVAL action.',
      inputSchema: withInputs(noInput, { actionId: id('AgentAction') }, ['actionId']),
      request: (a) => ({ method: 'GET', path: `/agents/me/actions/${enc(String(a.actionId))}` }),
    },
  ];
}
