import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { toolError } from './api-client.js';
import { loadMcpConfig } from './config.js';
import { createMcpServer } from './server.js';
import { agentTools } from './tools.js';

describe('MCP server configuration', () => {
  it('takes the base URL (trailing slash dropped) and the token from the environment', () => {
    expect(
      loadMcpConfig({ PAYMENTS_API_URL: 'https://pay.example.com/2025-10-13/', AGENT_ACCESS_TOKEN: 'gat_abc' }),
    ).toEqual({ baseUrl: 'https://pay.example.com/2025-10-13', accessToken: 'gat_abc' });
  });

  it('names every missing or invalid variable and never echoes the token', () => {
    expect(() => loadMcpConfig({})).toThrow(/PAYMENTS_API_URL is not set[\s\S]*AGENT_ACCESS_TOKEN is not set/);
    const ftp = { PAYMENTS_API_URL: 'ftp://x/2025-10-13', AGENT_ACCESS_TOKEN: 't' };
    expect(() => loadMcpConfig(ftp)).toThrow(/http\(s\) URL/);
    let message = '';
    try {
      loadMcpConfig({ PAYMENTS_API_URL: 'http://x', AGENT_ACCESS_TOKEN: 'gat_secret value' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('AGENT_ACCESS_TOKEN must not contain whitespace');
    expect(message).not.toContain('gat_secret');
  });
});

describe('MCP tools', () => {
  const tools = Object.fromEntries(agentTools().map((t) => [t.name, t]));

  it('money-moving POSTs always carry an Idempotency-Key: the given one, else a fresh one', () => {
    const args = { source: { accountId: 'a' }, destination: { accountId: 'b' }, amount: 5 };
    expect(tools.transfer_out.request({ ...args, idempotencyKey: 'k1' }, () => 'fresh')).toEqual({
      method: 'POST',
      path: '/agents/me/transfer-out',
      body: args,
      headers: { 'Idempotency-Key': 'k1' },
    });
    expect(tools.transfer_in.request(args, () => 'fresh').headers).toEqual({ 'Idempotency-Key': 'fresh' });
    expect(tools.execute_quote.request({ quoteId: 'Quote:1', walletSignature: 's' }, () => 'fresh')).toEqual({
      method: 'POST',
      path: '/agents/me/quotes/Quote%3A1/execute',
      headers: { 'Idempotency-Key': 'fresh', 'Service-Wallet-Signature': 's' },
    });
  });

  it('an API error becomes a tool error led by its code and reason', () => {
    const message = 'daily limit of 1500 USD exceeded';
    const r = toolError(403, { status: 403, code: 'VELOCITY_LIMIT_EXCEEDED', message });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toBe(`VELOCITY_LIMIT_EXCEEDED: ${message}`);
    const body = JSON.parse(r.content[1].text);
    expect(body).toEqual({ status: 403, code: 'VELOCITY_LIMIT_EXCEEDED', reason: message, message });
    expect(toolError(502, 'Bad Gateway').content[0].text).toBe('HTTP_502: Bad Gateway');
  });
});

describe('MCP server: the agent’s limits in the tools', () => {
  const USD = 'InternalAccount:00000000-0000-4000-8000-000000000001';
  const EUR = 'InternalAccount:00000000-0000-4000-8000-000000000002';
  const OTHER = 'InternalAccount:00000000-0000-4000-8000-000000000003';
  const restrictive = {
    id: 'Agent:1',
    isPaused: false,
    policy: {
      permissions: ['VIEW_TRANSACTIONS', 'CREATE_TRANSFERS', 'CREATE_QUOTES', 'EXECUTE_QUOTES'],
      defaultExecutionMode: 'AUTO',
      spendingLimits: { currency: 'USD', perTransactionLimit: 1_000, dailyLimit: 1_500, monthlyLimit: 10_000 },
      accountRestrictions: { allowedAccountIds: [USD], accountRules: [] },
      approvalThresholds: { currency: 'USD', amount: 500 },
    },
    usage: { dailyTransactionCount: 1, dailySpend: 800, monthlySpend: 800, dailyResetDate: '2026-11-30' },
  };
  const accountsPage = {
    data: [USD, EUR, OTHER].map((id, i) => ({
      id,
      balance: { amount: 5, currency: { code: i === 1 ? 'EUR' : 'USD' } },
    })),
    hasMore: false,
  };
  let calls: string[] = [];

  /** A server whose API answers GET /agents/me with `agent` and the accounts page; every request is recorded. */
  async function connect(agent: unknown) {
    calls = [];
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const url = String(input);
      calls.push(`${init?.method ?? 'GET'} ${url}`);
      const body = url.includes('/internal-accounts') ? accountsPage : url.endsWith('/agents/me') ? agent : {};
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    const [client, server] = InMemoryTransport.createLinkedPair();
    await createMcpServer({ baseUrl: 'http://api.test/v', accessToken: 'gat_x' }).connect(server);
    const mcp = new Client({ name: 'unit', version: '1' });
    await mcp.connect(client);
    return mcp;
  }
  afterEach(() => {
    jest.restoreAllMocks();
  });

  it('lists each money-moving tool with the caps of the agent’s own policy in its schema and description', async () => {
    const mcp = await connect(restrictive);
    const { tools } = await mcp.listTools();
    const byName = Object.fromEntries(tools.map((x) => [x.name, x as any]));
    const out = byName.transfer_out.inputSchema;
    // Only the USD account is allowed: the per-transaction 1,000 capped by the 700 left of the daily 1,500.
    expect(out.properties.amount).toMatchObject({ type: 'integer', minimum: 1, maximum: 700 });
    expect(out.properties.source.properties.accountId.enum).toEqual([USD]);
    expect(out.required).toEqual(expect.arrayContaining(['source', 'destination', 'amount']));
    expect(byName.transfer_in.inputSchema.properties.destination.properties.accountId.enum).toEqual([USD]);
    for (const name of ['transfer_out', 'transfer_in', 'create_quote', 'execute_quote']) {
      expect(byName[name].description).toContain('Policy caps in USD (smallest unit): per transaction 1_000;');
      expect(byName[name].description).toContain('daily 1_500 (700 left today, resets 2026-11-30)');
      expect(byName[name].description).toContain('monthly 10_000 (9_200 left this month)');
      expect(byName[name].description).toContain('Above 500 USD a person must approve.');
    }
    expect(byName.get_agent.description).not.toContain('Policy caps');
    expect(calls).toEqual([
      'GET http://api.test/v/agents/me',
      'GET http://api.test/v/agents/me/internal-accounts?limit=100',
    ]);
  });

  it('states a cap in another currency than an account’s in the description only: no cap as maximum', async () => {
    const open = { ...restrictive, policy: { ...restrictive.policy, accountRestrictions: null } };
    const { tools } = await (await connect(open)).listTools();
    const out = tools.find((x) => x.name === 'transfer_out')!.inputSchema as any;
    expect(out.properties.amount.maximum).toBe(Number.MAX_SAFE_INTEGER);
    expect(out.properties.amount.description).toContain('converted to USD at the service');
    expect(out.properties.source.properties.accountId.enum).toBeUndefined();
  });

  it('refuses a transfer without an amount itself: a tool error, and nothing reaches the API', async () => {
    const mcp = await connect(restrictive);
    calls = [];
    const args = { source: { accountId: USD }, destination: { accountId: 'ExternalAccount:x' } };
    for (const name of ['transfer_out', 'transfer_in']) {
      const r = (await mcp.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[] };
      expect(r.isError).toBe(true);
      expect(r.content[0].text).toBe(`INVALID_INPUT: ${name} needs an explicit amount; nothing was sent`);
      expect(JSON.parse(r.content[1].text)).toMatchObject({ status: 400, details: { errors: [{ field: 'amount' }] } });
    }
    expect(calls).toEqual([]);
    await mcp.callTool({ name: 'transfer_out', arguments: { ...args, amount: 5 } });
    expect(calls).toEqual(['POST http://api.test/v/agents/me/transfer-out']);
  });
});
