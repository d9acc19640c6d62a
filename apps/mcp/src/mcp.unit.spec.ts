import { describe, expect, it } from '@jest/globals';
import { toolError } from './api-client.js';
import { loadMcpConfig } from './config.js';
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
