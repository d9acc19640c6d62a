import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawnSync } from 'node:child_process';
import { useAgents, policy, type ConnectedAgent } from './agents-support.js';

const SERVER = 'dist/apps/mcp/src/main.js';

type ToolResult = { isError?: boolean; content: { type: string; text: string }[] };
/** The tool's JSON answer (the last text block; an error's first block is `CODE: reason`). */
const json = (r: ToolResult) => JSON.parse(r.content[r.content.length - 1].text);

describe('agents: the MCP server, driven by the SDK client over stdio', () => {
  const { t, a } = useAgents();
  let agent: ConnectedAgent;
  let mcp: Client;
  let stderr = '';

  // Every test drives an agent of its own (its limits and usage start fresh) through a server of its own.
  beforeEach(async () => {
    agent = await a.connected(policy({}, { perTransactionLimit: 1_000, dailyLimit: 1_500 }));
    stderr = '';
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVER],
      env: { PAYMENTS_API_URL: t.url, AGENT_ACCESS_TOKEN: agent.token },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    mcp = new Client({ name: 'e2e-assistant', version: '1.0.0' });
    await mcp.connect(transport);
  }, 60_000);
  afterEach(async () => mcp?.close());

  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await mcp.callTool({ name, arguments: args })) as ToolResult;
  const quoteArgs = (amount: number) => ({
    source: { sourceType: 'ACCOUNT', accountId: agent.customer.accounts.USD },
    destination: { destinationType: 'ACCOUNT', accountId: agent.external },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: amount,
  });
  const transferArgs = (amount: number) => ({
    source: { accountId: agent.customer.accounts.USD },
    destination: { accountId: agent.external },
    amount,
  });

  it('lists the agent tools, with input schemas generated from the agent DTOs', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual([
      'create_quote',
      'execute_quote',
      'get_action',
      'get_agent',
      'get_quote',
      'get_transaction',
      'list_actions',
      'list_external_accounts',
      'list_internal_accounts',
      'list_transactions',
      'transfer_in',
      'transfer_out',
    ]);
    const byName = Object.fromEntries(tools.map((x) => [x.name, x.inputSchema as any]));
    // From CreateQuoteDto's decorators, nested DTOs inlined, plus the Idempotency-Key input.
    const quoteRequired = ['source', 'destination', 'lockedCurrencySide', 'lockedCurrencyAmount'];
    expect(byName.create_quote.required).toEqual(quoteRequired);
    expect(byName.create_quote.properties.lockedCurrencySide.enum).toEqual(['SENDING', 'RECEIVING']);
    expect(byName.create_quote.properties.source.properties.sourceType).toBeDefined();
    expect(byName.create_quote.properties.idempotencyKey).toMatchObject({ type: 'string', maxLength: 255 });
    expect(byName.transfer_out.properties.source.properties.accountId).toBeDefined();
    expect(byName.list_actions.properties.status.enum).toEqual(['PENDING_APPROVAL', 'APPROVED', 'REJECTED', 'FAILED']);
    expect(byName.execute_quote.required).toEqual(['quoteId']);
    // The agent's own caps (its one USD account, per transaction 1,000 of a daily 1,500); the amount is required.
    expect(byName.transfer_out.properties.amount.maximum).toBe(1_000);
    expect(byName.transfer_out.required).toContain('amount');
    expect(tools.find((x) => x.name === 'transfer_out')!.description).toContain('daily 1_500 (1_500 left today');
    expect(JSON.stringify(tools)).not.toContain('$ref');
  });

  it('reads the agent, its accounts and balances', async () => {
    const me = await call('get_agent');
    expect(me.isError).toBeFalsy();
    const limits = { dailyLimit: 1_500 };
    expect(json(me)).toMatchObject({ id: agent.id, customerId: agent.customer.id, policy: { spendingLimits: limits } });
    const accounts = json(await call('list_internal_accounts', { currency: 'USD' }));
    const balance = expect.objectContaining({ amount: 1_000_000 });
    expect(accounts.data).toEqual([expect.objectContaining({ id: agent.customer.accounts.USD, balance })]);
  });

  it('creates and executes a quote within the policy: the action ends APPROVED with its transaction', async () => {
    const created = await call('create_quote', { ...quoteArgs(800), idempotencyKey: 'mcp-quote-1' });
    expect(created.isError).toBeFalsy();
    const quote = json(created);
    expect(quote).toMatchObject({ id: expect.stringMatching(/^Quote:/), status: 'PENDING' });
    // The same Idempotency-Key replays the same quote.
    expect(json(await call('create_quote', { ...quoteArgs(800), idempotencyKey: 'mcp-quote-1' })).id).toBe(quote.id);
    expect(json(await call('get_quote', { quoteId: quote.id })).id).toBe(quote.id);

    const executed = await call('execute_quote', { quoteId: quote.id });
    expect(executed.isError).toBeFalsy();
    const action = json(executed);
    expect(action).toMatchObject({
      status: 'APPROVED',
      type: 'EXECUTE_QUOTE',
      quote: { id: quote.id },
      transaction: { id: expect.stringMatching(/^Transaction:/), agentId: agent.id },
    });
    const polled = json(await call('get_action', { actionId: action.id }));
    expect(polled).toMatchObject({ id: action.id, status: 'APPROVED' });
    const tx = json(await call('get_transaction', { transactionId: action.transaction.id }));
    expect(tx).toMatchObject({ id: action.transaction.id, agentId: agent.id });
    expect(await a.m.balance(agent.customer.accounts.USD)).toBe(1_000_000 - quote.totalSendingAmount);
    const usage = json(await call('get_agent')).usage;
    expect(usage).toMatchObject({ dailyTransactionCount: 1, dailySpend: quote.totalSendingAmount });
  });

  it('past the policy’s limits a tool call is a tool error with VELOCITY_LIMIT_EXCEEDED; nothing moves', async () => {
    // 800 of the daily 1,500 spent first, through the same tools.
    const spent = await call('execute_quote', { quoteId: json(await call('create_quote', quoteArgs(800))).id });
    expect(json(spent)).toMatchObject({ status: 'APPROVED' });
    const before = await a.m.balance(agent.customer.accounts.USD);
    // Over the per-transaction limit.
    const tooBig = await call('transfer_out', transferArgs(5_000));
    expect(tooBig.isError).toBe(true);
    expect(tooBig.content[0].text).toMatch(/^VELOCITY_LIMIT_EXCEEDED: /);
    expect(json(tooBig)).toMatchObject({ status: 403, code: 'VELOCITY_LIMIT_EXCEEDED', reason: expect.any(String) });
    // Within the per-transaction limit but past the daily one (800 already spent of 1,500).
    const quote = json(await call('create_quote', quoteArgs(900)));
    const overDaily = await call('execute_quote', { quoteId: quote.id });
    expect(overDaily.isError).toBe(true);
    expect(json(overDaily)).toMatchObject({ status: 403, code: 'VELOCITY_LIMIT_EXCEEDED' });
    expect(await a.m.balance(agent.customer.accounts.USD)).toBe(before);
    expect(json(await call('list_actions', { status: 'APPROVED' })).data).toHaveLength(1);
  });

  it('invalid input is the API’s 400 as a tool error; the token never reaches the server’s output', async () => {
    const bad = await call('transfer_out', transferArgs(-1));
    expect(bad.isError).toBe(true);
    const errors = expect.arrayContaining([expect.objectContaining({ field: 'amount' })]);
    expect(json(bad)).toMatchObject({ status: 400, code: 'INVALID_INPUT', details: { errors } });
    expect(stderr).toContain('payments MCP server ready');
    expect(stderr).not.toContain(agent.token);
  });

  it('refuses a transfer_out without an amount before calling the API: no action is recorded', async () => {
    const { amount: _amount, ...noAmount } = transferArgs(1);
    const r = await call('transfer_out', noAmount);
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toBe('INVALID_INPUT: transfer_out needs an explicit amount; nothing was sent');
    expect(json(await call('list_actions')).data).toEqual([]);
  });

  it('refuses to start without its configuration, naming what is missing', () => {
    const env = { PATH: process.env.PATH, PAYMENTS_API_URL: 'not a url' };
    const res = spawnSync(process.execPath, [SERVER], { env, encoding: 'utf8' });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('PAYMENTS_API_URL is not a valid URL');
    expect(res.stderr).toContain('AGENT_ACCESS_TOKEN is not set');
    expect(res.stdout).toBe('');
  });
});
