import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CommandRunner } from '#application/command-runner.js';
import type { PlatformClocks } from '#application/command-context.js';
import { generateWebhookKeys } from '#application/webhooks/webhook-keys.js';
import { SecretBox } from '#crypto/secret-box.js';
import { ManualClock } from '#domain/clock.js';
import { streams } from '#domain/primitives.js';
import { MAX_DECISION_DEADLINE_MS, type DecisionEndpoint } from '#domain/webhooks/decision-endpoints.js';
import type { ConfiguredWebhooks } from '#domain/webhooks/webhook-config.js';
import { parseAllowedHosts } from '#net/address-policy.js';
import { HttpPlatformDecisions } from './http-platform-decisions.js';

const CARDS = 'CARD_AUTHORIZATION.REQUEST';
const box = new SecretBox(randomBytes(32));
const [P1, P2, P3] = [1, 2, 3].map((n) => `Platform:00000000-0000-4000-8000-00000000000${n}`);

/** A receiver answering by path: `/hang` never, `/approve` at once, `/status-503` with 503. */
let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === '/hang') return;
      if (req.url === '/status-503') return void res.writeHead(503).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"decision":"APPROVE","approvedAmount":40}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The adapter over platforms whose configurations are given (no event store), on a stepped monotonic clock. */
function adapter(endpoints: Record<string, DecisionEndpoint[]>, monotonic?: () => number) {
  const states = new Map(
    Object.entries(endpoints).map(([platformId, decisionEndpoints]) => {
      const state: ConfiguredWebhooks = {
        configured: true,
        platformId,
        webhookEndpoint: null,
        keys: generateWebhookKeys(box, platformId),
        decisionEndpoints,
        createdAt: '2026-06-01T00:00:00.000Z',
        updatedAt: '2026-06-01T00:00:00.000Z',
      };
      return [streams.webhooks(platformId), state];
    }),
  );
  const runner = {
    load: async (stream: string) => ({ state: states.get(stream) ?? { configured: false, webhookEndpoint: null } }),
  } as unknown as CommandRunner;
  const wallClock = new ManualClock(Date.UTC(2026, 5, 1));
  const clocks = { now: async () => wallClock.now() } as unknown as PlatformClocks;
  return new HttpPlatformDecisions({
    runner,
    box,
    clocks,
    wallClock,
    allowedHosts: parseAllowedHosts(['127.0.0.1']),
    ...(monotonic ? { monotonic } : {}),
  });
}

/**
 * An endpoint of the receiver. The deadline is a real timer: where the test expects an answer other than TIMEOUT, it
 * is the longest the API allows, so that a loaded machine (signing waits for the thread pool) cannot turn it into one.
 */
const endpoint = (
  path: string,
  deadlineMs = MAX_DECISION_DEADLINE_MS,
  defaultDecision = 'DECLINE',
): DecisionEndpoint => ({
  type: CARDS,
  url: `${base}${path}`,
  deadlineMs,
  defaultDecision,
});
const request = { requestId: 'Webhook:1', data: { amount: 100 }, requestedAmount: 100n };

describe('HttpPlatformDecisions', () => {
  it('answers nothing for a platform without an endpoint of the kind', async () => {
    const decisions = adapter({ [P1]: [] });
    expect(await decisions.decide(P1, CARDS, request)).toBeUndefined();
    expect(await decisions.decide(P2, CARDS, request)).toBeUndefined();
  });

  it('takes the endpoint’s answer, with the elapsed time on the injected monotonic clock', async () => {
    let t = 1_000;
    const decisions = adapter({ [P1]: [endpoint('/approve')] }, () => (t += 7));
    expect(await decisions.decide(P1, CARDS, { ...request, startedAt: 1_000 })).toEqual({
      approved: true,
      decision: 'APPROVE',
      approvedAmount: 40n,
      decidedBy: 'PLATFORM',
      elapsedMs: 14,
    });
  });

  it('falls back to the default: BAD_STATUS, CONNECTION_ERROR, TIMEOUT', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = { ...endpoint(''), url: `http://127.0.0.1:${port}/x` };
    const cases: [DecisionEndpoint, string][] = [
      [endpoint('/status-503', MAX_DECISION_DEADLINE_MS, 'APPROVE'), 'BAD_STATUS'],
      [{ ...refused, defaultDecision: 'APPROVE' }, 'CONNECTION_ERROR'],
      [endpoint('/hang', 100, 'APPROVE'), 'TIMEOUT'],
    ];
    for (const [e, fallback] of cases) {
      const answer = await adapter({ [P1]: [e] }).decide(P1, CARDS, request);
      expect(answer).toMatchObject({ approved: true, decision: 'APPROVE', decidedBy: 'DEFAULT', fallback });
    }
  });

  it('one platform’s hanging endpoint does not hold up another’s answer', async () => {
    const [slowId, fastId] = [P2, P3];
    const decisions = adapter({ [slowId]: [endpoint('/hang')], [fastId]: [endpoint('/approve')] });
    const order: string[] = [];
    const slow = decisions.decide(slowId, CARDS, request).then((a) => order.push(`slow:${a?.fallback}`));
    const fast = decisions.decide(fastId, CARDS, request).then((a) => order.push(`fast:${a?.decidedBy}`));
    await fast;
    expect(order).toEqual(['fast:PLATFORM']);
    // The hanging request ends only when its connection does: the answer came while it was still waiting.
    server.closeAllConnections();
    await slow;
    expect(order).toEqual(['fast:PLATFORM', 'slow:CONNECTION_ERROR']);
  });
});
