import { describe, expect, it } from '@jest/globals';
import { walletSession } from '../support/wallet-session.js';
import { useAgents, policy } from './agents-support.js';

describe('agents: quotes, embedded wallets and idempotency keys', () => {
  const { t, api, a } = useAgents();

  it(
    'an EMBEDDED_WALLET source needs the wallet signature over the quote’s payloadToSign, as for ' + 'platforms',
    async () => {
      const customer = await a.m.customer(['USD'], { email: 'agent-wallet@example.com' });
      const wallet = await walletSession(api, customer.id, 'USD');
      await a.m.fund(wallet.accountId, 10_000);
      const external = await a.m.external(customer.id, 'USD', '888');
      const { deviceCode } = await a.create(customer.id, policy({}, { perTransactionLimit: 5_000 }));
      const me = a.bearer((await a.redeem(deviceCode.code)).body.accessToken);
      const quote = await me.post('/agents/me/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: wallet.accountId },
        destination: { destinationType: 'ACCOUNT', accountId: external },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 2_000,
      });
      expect(quote.status).toBe(201);
      const payload = quote.body.paymentInstructions[0].accountOrWalletInfo.payloadToSign;
      const unsigned = await me.post(`/agents/me/quotes/${quote.body.id}/execute`);
      expect({ status: unsigned.status, code: unsigned.body.code }).toEqual({
        status: 401,
        code: 'WALLET_SIGNATURE_MISSING',
      });
      const otherKey = await walletSession(
        api,
        (await a.m.customer(['USD'], { email: 'someone@example.com' })).id,
        'USD',
      );
      expect(
        (
          await me.post(`/agents/me/quotes/${quote.body.id}/execute`, undefined, {
            'service-wallet-signature': await otherKey.stamp(payload),
          })
        ).status,
      ).toBe(401);
      expect(await a.m.balance(wallet.accountId)).toBe(10_000);
      const signed = await me.post(`/agents/me/quotes/${quote.body.id}/execute`, undefined, {
        'service-wallet-signature': await wallet.stamp(payload),
      });
      expect(signed.status).toBe(200);
      expect(signed.body).toMatchObject({
        status: 'APPROVED',
        type: 'EXECUTE_QUOTE',
        transaction: { agentId: (await me.get('/agents/me')).body.id },
      });
      expect(await a.m.balance(wallet.accountId)).toBe(10_000 - quote.body.totalSendingAmount);
    },
  );

  it(
    'quote limits: execute above the per-transaction limit is 403 and leaves the quote PENDING; ' +
      'immediatelyExecute goes through the policy',
    async () => {
      const agent = await a.connected(policy({}, { perTransactionLimit: 1_000 }), 10_000);
      const body = (amount: number, extra: Record<string, unknown> = {}) => ({
        source: { sourceType: 'ACCOUNT', accountId: agent.customer.accounts.USD },
        destination: { destinationType: 'ACCOUNT', accountId: agent.external },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: amount,
        ...extra,
      });
      const big = (await agent.me.post('/agents/me/quotes', body(1_500))).body;
      const refused = await agent.me.post(`/agents/me/quotes/${big.id}/execute`);
      expect({ status: refused.status, code: refused.body.code }).toEqual({
        status: 403,
        code: 'VELOCITY_LIMIT_EXCEEDED',
      });
      expect((await agent.me.get(`/agents/me/quotes/${big.id}`)).body.status).toBe('PENDING');
      const now = await agent.me.post('/agents/me/quotes', body(500, { immediatelyExecute: true }));
      expect(now.status).toBe(201);
      expect(now.body.status).not.toBe('PENDING');
      expect(now.body.agentId).toBe(agent.id);
      const tooBig = await agent.me.post('/agents/me/quotes', body(1_500, { immediatelyExecute: true }));
      expect(tooBig.status).toBe(403);
      expect(await a.m.balance(agent.customer.accounts.USD)).toBe(10_000 - now.body.totalSendingAmount);
      expect((await agent.me.get('/agents/me')).body.usage.dailyTransactionCount).toBe(1);
    },
  );

  it('Idempotency-Key replays the first answer for the same agent and is scoped per agent', async () => {
    const one = await a.connected(policy(), 10_000);
    const two = await a.connected(policy(), 10_000);
    const key = { 'idempotency-key': 'agent-key-1' };
    const first = await a.transferOut(one, 100, key);
    const again = await a.transferOut(one, 100, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await a.transferOut(one, 101, key)).status).toBe(422);
    // Another agent with the same key runs its own request.
    const other = await a.transferOut(two, 100, key);
    expect(other.status).toBe(201);
    expect(other.body.id).not.toBe(first.body.id);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(await a.m.balance(one.customer.accounts.USD)).toBe(9_900);
    expect(await a.m.balance(two.customer.accounts.USD)).toBe(9_900);
    expect((await a.usage(one)).dailyTransactionCount).toBe(1);
  });

  it(
    'the OpenAPI document declares the bearer scheme on the agent routes and Basic on the platform ' + 'routes',
    async () => {
      const doc = (await t.anonymous.get('/openapi.json')).body;
      expect(doc.components.securitySchemes.agentBearer).toMatchObject({ type: 'http', scheme: 'bearer' });
      const agentPaths = Object.keys(doc.paths).filter((p) => p.includes('/agents'));
      expect(agentPaths.length).toBeGreaterThanOrEqual(17);
      for (const path of agentPaths) {
        for (const [verb, op] of Object.entries<any>(doc.paths[path])) {
          const expected = path.includes('/agents/me')
            ? [{ agentBearer: [] }]
            : path.endsWith('/redeem')
              ? []
              : [{ platformBasic: [] }];
          expect({ path, verb, security: op.security }).toEqual({ path, verb, security: expected });
        }
      }
      // The agent-side bodies have schemas of their own (agent tooling derives its inputs from them).
      for (const [path, dto] of [
        ['/agents/me/quotes', 'AgentCreateQuoteDto'],
        ['/agents/me/transfer-in', 'AgentTransferInDto'],
        ['/agents/me/transfer-out', 'AgentTransferOutDto'],
        ['/agents/me/external-accounts', 'AgentCreateExternalAccountDto'],
      ]) {
        expect(doc.paths[path].post.requestBody.content['application/json'].schema).toEqual({
          $ref: `#/components/schemas/${dto}`,
        });
        expect(doc.components.schemas[dto].required.length).toBeGreaterThan(1);
      }
      expect(doc.components.schemas.AgentAction.required).toEqual(
        expect.arrayContaining(['id', 'agentId', 'status', 'type']),
      );
    },
  );
});
