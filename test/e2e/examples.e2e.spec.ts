import { beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { useTestService } from '../support/fixture.js';

/**
 * Every script of `examples/` runs as an integrator runs it: the compiled file (`npm run build`) in a child
 * process against the service, configured only by PAYMENTS_API_URL, PAYMENTS_TOKEN_ID and
 * PAYMENTS_CLIENT_SECRET. It must exit 0, and what it did is checked through the API.
 */
const EXAMPLES = resolve('dist/examples');
const NAMES = ['onboard-customer', 'freeze-card', 'pay-external-account', 'agent-payment', 'webhook-receiver'];

interface Example {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first match of `pattern` in stdout; rejects if the process ends before it appears. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

function startExample(name: string, env: Record<string, string | undefined>): Example {
  const file = `${EXAMPLES}/${name}.js`;
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` first (npm test does)`);
  const child = spawn(process.execPath, [file], {
    env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (done) => child.once('close', (code, signal) => done({ code, signal, stdout, stderr })),
  );
  return {
    child,
    output: () => stdout + stderr,
    exited,
    waitFor: (pattern) =>
      new Promise((found, fail) => {
        const look = () => {
          const match = pattern.exec(stdout);
          if (!match) return false;
          child.stdout!.off('data', look);
          found(match);
          return true;
        };
        if (look()) return;
        child.stdout!.on('data', look);
        void exited.then(() => {
          if (!look()) fail(new Error(`${name} ended before printing ${pattern}:\n${stdout}${stderr}`));
        });
      }),
  };
}

describe('examples/ against the running service', () => {
  let env: Record<string, string>;

  const t = useTestService();
  const api = t.api;
  beforeAll(async () => {
    const { tokenId, clientSecret } = t.service.sandbox!;
    env = { PAYMENTS_API_URL: t.url, PAYMENTS_TOKEN_ID: tokenId, PAYMENTS_CLIENT_SECRET: clientSecret };
  });

  /** Runs a script to its end; expects exit 0 and returns the ids it printed as its last line. */
  async function runToEnd(name: string): Promise<Record<string, string>> {
    const { code, stdout, stderr } = await startExample(name, env).exited;
    expect({ name, code, stderr }).toEqual({ name, code: 0, stderr: '' });
    expect(stdout).toContain(`✓ ${name} done`);
    return JSON.parse(stdout.trim().split('\n').at(-1)!);
  }

  it('onboard-customer: a customer with an embedded wallet, a session, and a change stamped by its key', async () => {
    const result = await runToEnd('onboard-customer');
    expect((await api.get(`/customers/${result.customerId}`)).body).toMatchObject({ kycStatus: 'APPROVED' });
    expect((await api.get(`/internal-accounts/${result.accountId}`)).body).toMatchObject({
      type: 'EMBEDDED_WALLET',
      privateEnabled: true,
    });
    const sessions = await api.get(`/auth/sessions?accountId=${encodeURIComponent(result.accountId)}`);
    expect(sessions.body.data.map((s: any) => s.id)).toEqual([result.sessionId]);
  });

  it('freeze-card: the card was frozen and is ACTIVE again, each change by a signed retry', async () => {
    const result = await runToEnd('freeze-card');
    expect((await api.get(`/cards/${result.cardId}`)).body).toMatchObject({
      customerId: result.customerId,
      state: 'ACTIVE',
    });
    const history = (await api.get(`/audit/cards/${result.cardId}/history`)).body.data;
    const states = history.filter((e: any) => e.type === 'CardStateChanged').map((e: any) => e.changes.card.state);
    expect(states).toEqual(['ACTIVE', 'FROZEN', 'ACTIVE']);
    expect(history.filter((e: any) => e.type === 'SignedRequestApplied')).toHaveLength(2);
  });

  it('pay-external-account: the quote was executed and its transaction paid the external account', async () => {
    const result = await runToEnd('pay-external-account');
    const tx = (await api.get(`/transactions/${result.transactionId}`)).body;
    expect(tx).toMatchObject({
      status: 'COMPLETED',
      type: 'OUTGOING',
      quoteId: result.quoteId,
      customerId: result.customerId,
      destination: { accountId: result.externalAccountId },
      sentAmount: { amount: 12_500 },
    });
    expect((await api.get(`/quotes/${result.quoteId}`)).body.status).toBe('COMPLETED');
    expect((await api.get(`/internal-accounts/${result.accountId}`)).body.balance.amount).toBe(50_000 - 12_500);
  });

  it('agent-payment: the agent paid once within its policy; the refused payment moved nothing', async () => {
    const result = await runToEnd('agent-payment');
    expect((await api.get(`/transactions/${result.transactionId}`)).body).toMatchObject({
      status: 'COMPLETED',
      agentId: result.agentId,
      sentAmount: { amount: 2_000 },
    });
    expect((await api.get(`/agents/${result.agentId}`)).body).toMatchObject({
      isConnected: true,
      usage: { dailyTransactionCount: 1, dailySpend: 2_000 },
    });
    const transactions = await api.get(`/transactions?customerId=${encodeURIComponent(result.customerId)}`);
    expect(transactions.body.data.filter((x: any) => x.agentId === result.agentId)).toHaveLength(1);
  });

  it('webhook-receiver: registers itself, verifies both signatures, refuses a forgery, stops on SIGTERM', async () => {
    const receiver = startExample('webhook-receiver', { ...env, WEBHOOK_PORT: '0' });
    try {
      const [, url] = await receiver.waitFor(/endpoint\s+(http:\/\/\S+)/);
      await receiver.waitFor(/^ready:/m);
      expect((await api.get('/config')).body.webhookEndpoint).toBe(url);
      const tests = await api.get('/webhooks/deliveries?type=TEST');
      expect(tests.body.data).toEqual([expect.objectContaining({ status: 'DELIVERED', url })]);

      // A real event: funding an account is announced with its new balance.
      const customer = await api.post('/customers', {
        platformCustomerId: 'webhook-example',
        customerType: 'INDIVIDUAL',
        fullName: 'Ada Lovelace',
        currencies: ['USD'],
      });
      const account = (await api.get(`/customers/internal-accounts?customerId=${customer.body.id}`)).body.data[0].id;
      expect((await api.post(`/sandbox/internal-accounts/${account}/fund`, { amount: 1_000 })).status).toBe(200);
      await receiver.waitFor(new RegExp(`✓ verified INTERNAL_ACCOUNT\\.BALANCE_UPDATED Webhook:\\S+ ${account}`));

      // A delivery without valid signatures is refused (400) and reported.
      const forged = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-signature': '{"v":"1","s":"AAAA"}' },
        body: JSON.stringify({ id: 'Webhook:forged', type: 'TEST', timestamp: new Date().toISOString(), data: {} }),
      });
      expect(forged.status).toBe(400);
      await receiver.waitFor(/✗ rejected a delivery: X-Service-Signature does not match/);

      receiver.child.kill('SIGTERM');
      const { code, stderr } = await receiver.exited;
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(receiver.output()).not.toContain('verified TEST Webhook:forged');
    } finally {
      receiver.child.kill('SIGKILL');
      await receiver.exited;
      await api.patch('/config', { webhookEndpoint: null });
    }
  });

  it('every example exits 1 with the reason when the credentials are wrong or missing', async () => {
    for (const name of NAMES) {
      const wrong = await startExample(name, { ...env, PAYMENTS_CLIENT_SECRET: 'wrong', WEBHOOK_PORT: '0' }).exited;
      expect({ name, code: wrong.code }).toEqual({ name, code: 1 });
      expect(wrong.stderr).toContain(`✗ ${name} failed: 401 UNAUTHORIZED`);
      const missing = await startExample(name, { ...env, PAYMENTS_API_URL: '', WEBHOOK_PORT: '0' }).exited;
      expect({ name, code: missing.code }).toEqual({ name, code: 1 });
      expect(missing.stderr).toContain('set PAYMENTS_API_URL');
    }
  });
});
