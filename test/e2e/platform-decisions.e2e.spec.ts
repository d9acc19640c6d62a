import { describe, expect, it } from '@jest/globals';
import { performance } from 'node:perf_hooks';
import type { Client } from '../support/service.js';
import { walletHolder } from '../support/wallet-session.js';
import { agents, policy } from './agents-support.js';
import { cardsHarness } from './cards-support.js';
import {
  CARDS,
  platformVerifier,
  registerCardEndpoint,
  registerDecisionEndpoints,
  useDecisionReceivers,
} from './decisions-support.js';

const AGENTS = 'AGENT_ACTION.REQUEST';
const merchant = { descriptor: 'CORNER COFFEE', mcc: '5814', country: 'US' };

describe('decisions in the loop: the platform decides card authorizations and agent actions', () => {
  const h = cardsHarness(Date.UTC(2026, 5, 1, 9));
  const receiver = useDecisionReceivers();

  /** A funded holder of `api`'s platform and its active card, on its USD account. */
  async function fundedCard(api: Client, funds = 10_000) {
    const holder = await walletHolder(api, { fullName: 'Grace Hopper' });
    expect((await api.post(`/sandbox/internal-accounts/${holder.usd}/fund`, { amount: funds })).status).toBe(200);
    const created = await api.post('/cards', {
      customerId: holder.customerId,
      form: 'VIRTUAL',
      fundingSources: [holder.usd],
    });
    expect(created.status).toBe(201);
    const card = await h.provision(created.body.id);
    if (card.state !== 'ACTIVE') {
      // Another platform's card: the provisioning timer ran; read it with its own platform's token.
      await h.until(
        async () => (await api.get(`/cards/${created.body.id}`)).body,
        (c) => c.state === 'ACTIVE',
        'the card to be ACTIVE',
      );
    }
    return { holder, cardId: created.body.id as string };
  }

  const authorize = (api: Client, cardId: string, amount: number) =>
    api.post(`/sandbox/cards/${cardId}/simulate/authorization`, { amount, currency: { code: 'USD' }, merchant });

  /** Answers the authorization's HTTP call and how long it took (real time). */
  async function timedAuthorization(api: Client, cardId: string, amount: number) {
    const start = performance.now();
    const res = await authorize(api, cardId, amount);
    return { res, ms: performance.now() - start };
  }

  it('registers one endpoint per type, shown in GET /config with its defaults; bad ones are refused', async () => {
    const r = await receiver();
    await registerCardEndpoint(h.api, r);
    const config = (await h.api.get('/config')).body;
    expect(config.decisionEndpoints).toEqual([
      { type: CARDS, url: r.url, deadlineMs: 2000, defaultDecision: 'DECLINE' },
    ]);
    const refused = [
      [{ type: CARDS, url: r.url, deadlineMs: 2001 }],
      [{ type: CARDS, url: 'http://10.0.0.7/decide' }],
      [{ type: CARDS, url: r.url, defaultDecision: 'WAIT' }],
      [{ type: 'CARD.SOMETHING', url: r.url }],
      [
        { type: AGENTS, url: r.url },
        { type: AGENTS, url: r.url },
      ],
    ];
    for (const decisionEndpoints of refused) {
      const res = await h.api.patch('/config', { decisionEndpoints });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'INVALID_INPUT' });
    }
    expect((await h.api.get('/config')).body.decisionEndpoints).toEqual(config.decisionEndpoints);
  });

  it('a decline by the endpoint declines with PLATFORM_DECLINED and its reason; the request verifies', async () => {
    const r = await receiver();
    await registerCardEndpoint(h.api, r);
    r.answer({ body: { decision: 'DECLINE', reason: 'merchant not allowed for this card' } });
    const { cardId } = await fundedCard(h.api);
    const res = await authorize(h.api, cardId, 1_250);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'PLATFORM_DECLINED',
      details: {
        declineReason: 'PLATFORM_DECLINED',
        decision: { decidedBy: 'PLATFORM', reason: 'merchant not allowed for this card' },
      },
    });
    const seen = r.requests.at(-1)!;
    const verified = (await platformVerifier(h.api)).verify(seen.body, seen.headers as Record<string, string>);
    expect(verified).toMatchObject({
      type: CARDS,
      id: expect.stringMatching(/^Webhook:/),
      data: { cardId, amount: 1_250, currency: 'USD', merchant, id: res.body.details.authorizationId },
    });
    const history = (await h.api.get(`/audit/cards/${cardId}/history`)).body;
    const recorded = JSON.stringify(history);
    expect(recorded).toContain('PLATFORM_DECLINED');
    expect(recorded).toContain('merchant not allowed for this card');
  });

  it('a partial approval holds the approved amount', async () => {
    const r = await receiver();
    await registerCardEndpoint(h.api, r);
    r.answer({ body: { decision: 'APPROVE', approvedAmount: 600 } });
    const { cardId } = await fundedCard(h.api);
    const res = await authorize(h.api, cardId, 1_000);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      authorizedAmount: { amount: 600 },
      pullSummary: { count: 1, totalAmount: 600 },
      decision: { decidedBy: 'PLATFORM', elapsedMs: expect.any(Number) },
    });
    const listed = (await h.api.get(`/cards/${cardId}/transactions`)).body.data;
    expect(listed).toEqual([expect.objectContaining({ id: res.body.id, decision: res.body.decision })]);
    // The hold is of the approved amount: the rest of the funds can still be authorized.
    r.answer({ body: { decision: 'APPROVE' } });
    expect((await authorize(h.api, cardId, 9_400)).status).toBe(200);
  });

  it('an endpoint slower than the deadline: the default answers within the deadline plus 100 ms', async () => {
    const r = await receiver();
    await registerCardEndpoint(h.api, r, { deadlineMs: 500, defaultDecision: 'APPROVE' });
    r.answer({ body: { decision: 'DECLINE' }, delayMs: 3000 });
    const { cardId } = await fundedCard(h.api);
    await authorize(h.api, cardId, 10); // warm: connections, caches
    const { res, ms } = await timedAuthorization(h.api, cardId, 1_000);
    expect(res.status).toBe(200);
    expect(res.body.decision).toEqual({ decidedBy: 'DEFAULT', fallback: 'TIMEOUT', elapsedMs: expect.any(Number) });
    // Timers fire on whole milliseconds: the elapsed time may round a little below the deadline.
    expect(res.body.decision.elapsedMs).toBeGreaterThanOrEqual(490);
    expect(res.body.decision.elapsedMs).toBeLessThan(600);
    console.log(`timed-out decision answered ${Math.round(ms - 500)} ms after the 500 ms deadline`);
    expect(ms - 500).toBeLessThanOrEqual(100);
    const history = JSON.stringify((await h.api.get(`/audit/cards/${cardId}/history`)).body);
    expect(history).toContain('"fallback":"TIMEOUT"');
  });

  it('a 500 or an unusable answer: the default decides (BAD_STATUS, MALFORMED_ANSWER)', async () => {
    const r = await receiver();
    await registerCardEndpoint(h.api, r);
    const { cardId } = await fundedCard(h.api);
    const cases: [unknown, number | undefined, string][] = [
      [{ decision: 'APPROVE' }, 500, 'BAD_STATUS'],
      ['not json at all', 200, 'MALFORMED_ANSWER'],
      [{ decision: 'MAYBE' }, 200, 'MALFORMED_ANSWER'],
      [{ decision: 'APPROVE', approvedAmount: 5_000 }, 200, 'MALFORMED_ANSWER'],
      [{ decision: 'APPROVE', approvedAmount: 10.5 }, 200, 'MALFORMED_ANSWER'],
    ];
    for (const [body, status, fallback] of cases) {
      r.answer({ body, status });
      const res = await authorize(h.api, cardId, 1_000);
      expect({ status: res.status, code: res.body.code, decision: res.body.details?.decision }).toEqual({
        status: 400,
        code: 'PLATFORM_DECLINED',
        decision: { decidedBy: 'DEFAULT', fallback, elapsedMs: expect.any(Number) },
      });
    }
  });

  it("another platform's slow endpoint does not delay this platform's authorization", async () => {
    const other = await h.t.otherPlatform();
    const slow = await receiver();
    slow.answer({ body: { decision: 'APPROVE' }, delayMs: 3000 });
    await registerCardEndpoint(other.api, slow, { deadlineMs: 2000, defaultDecision: 'APPROVE' });
    const theirs = await fundedCard(other.api);
    const fast = await receiver();
    fast.answer({ body: { decision: 'APPROVE' } });
    await registerCardEndpoint(h.api, fast, { deadlineMs: 2000 });
    const ours = await fundedCard(h.api);
    const asked = slow.requests.length;
    const pending = timedAuthorization(other.api, theirs.cardId, 100);
    await h.until(
      async () => slow.requests.length,
      (n) => n > asked,
      'the other platform’s endpoint to be asked',
    );
    const { res, ms } = await timedAuthorization(h.api, ours.cardId, 100);
    expect(res.status).toBe(200);
    expect(res.body.decision).toMatchObject({ decidedBy: 'PLATFORM' });
    expect(ms).toBeLessThan(1000);
    const slowAnswer = await pending;
    expect(slowAnswer.res.body.decision).toMatchObject({ decidedBy: 'DEFAULT', fallback: 'TIMEOUT' });
  });

  describe('agent actions that need approval', () => {
    const a = agents(h.t);
    const approvalRequired = () => policy({ approvalThresholds: { currency: 'USD', amount: 500 } });

    it('APPROVE approves and executes it, REJECT rejects it with the reason, a timeout leaves it waiting', async () => {
      const r = await receiver();
      await registerDecisionEndpoints(h.api, [{ type: AGENTS, url: r.url }]);
      const agent = await a.connected(approvalRequired(), 10_000);

      r.answer({ body: { decision: 'APPROVE' } });
      const approved = await a.transferOut(agent, 800);
      expect(approved.status).toBe(201);
      expect(approved.body).toMatchObject({
        status: 'APPROVED',
        transaction: { status: 'COMPLETED' },
        decision: { decidedBy: 'PLATFORM', elapsedMs: expect.any(Number) },
      });
      const seen = r.requests.at(-1)!;
      const verified = (await platformVerifier(h.api)).verify(seen.body, seen.headers as Record<string, string>);
      expect(verified).toMatchObject({ type: AGENTS, data: { id: approved.body.id, status: 'PENDING_APPROVAL' } });

      r.answer({ body: { decision: 'REJECT', reason: 'not during the freeze' } });
      const rejected = await a.transferOut(agent, 700);
      expect(rejected.body).toMatchObject({
        status: 'REJECTED',
        rejectionReason: 'not during the freeze',
        decision: { decidedBy: 'PLATFORM', reason: 'not during the freeze' },
      });

      r.answer({ body: { decision: 'APPROVE' }, delayMs: 3000 });
      const waiting = await a.transferOut(agent, 600);
      expect(waiting.body).toMatchObject({ status: 'PENDING_APPROVAL' });
      expect(waiting.body).not.toHaveProperty('decision');
      const approvals = await h.api.get(`/agents/approvals?agentId=${agent.id}`);
      expect(approvals.body.data.map((x: { id: string }) => x.id)).toEqual([waiting.body.id]);
    });
  });
});
