import { describe, expect, it } from '@jest/globals';
import { DomainError } from '../errors.js';
import { parseDecisionAnswer } from './decision-endpoints.js';
import { webhookConfigDecider, type WebhookConfigEvent } from './webhook-config.js';

const T0 = '2026-06-01T09:00:00.000Z';
const keys = { publicKeyPem: 'pem', sealedPrivateKey: 'sealed-key', sealedSecret: 'sealed-secret' };
const publicHosts = { refuses: (url: URL) => url.hostname === '10.0.0.7' };
const CARDS = 'CARD_AUTHORIZATION.REQUEST';
const AGENTS = 'AGENT_ACTION.REQUEST';

function decide(decisionEndpoints: Record<string, unknown>[], history: WebhookConfigEvent[] = [], sandbox = true) {
  const state = history.reduce(webhookConfigDecider.evolve, webhookConfigDecider.initialState());
  return webhookConfigDecider.decide(
    {
      type: 'SetDecisionEndpoints',
      platformId: 'Platform:1',
      decisionEndpoints: decisionEndpoints as never,
      sandbox,
      hosts: publicHosts,
      ...(state.keys ? {} : { newKeys: keys }),
      now: T0,
    },
    state,
  );
}

const fieldOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return (error.details as { errors: { field: string }[] }).errors[0].field;
    throw error;
  }
  throw new Error('not refused');
};

describe('decision endpoints in the webhook configuration', () => {
  it('set with the webhook endpoint, both change in one decision; a refused one leaves the endpoint as it was', () => {
    const state = webhookConfigDecider.initialState();
    const setBoth = (url: string) =>
      webhookConfigDecider.decide(
        {
          type: 'SetWebhookEndpoint',
          platformId: 'Platform:1',
          webhookEndpoint: 'https://hooks.example.com/in',
          decisionEndpoints: [{ type: CARDS, url }] as never,
          sandbox: false,
          hosts: publicHosts,
          newKeys: keys,
          now: T0,
        },
        state,
      );
    expect(setBoth('https://decide.example.com/cards').map((e) => e.type)).toEqual([
      'WebhookSigningKeyGenerated',
      'WebhookEndpointChanged',
      'DecisionEndpointsChanged',
    ]);
    expect(fieldOf(() => setBoth('http://10.0.0.7/cards'))).toBe('decisionEndpoints[0].url');
  });

  it('the first ones generate the signing material; defaults fill what is not given', () => {
    const events = decide([
      { type: CARDS, url: 'https://decide.example.com/cards' },
      { type: AGENTS, url: 'https://decide.example.com/a', deadlineMs: 300 },
    ]);
    expect(events.map((e) => e.type)).toEqual(['WebhookSigningKeyGenerated', 'DecisionEndpointsChanged']);
    expect(events[1].data).toMatchObject({
      decisionEndpoints: [
        { type: CARDS, url: 'https://decide.example.com/cards', deadlineMs: 2000, defaultDecision: 'DECLINE' },
        { type: AGENTS, url: 'https://decide.example.com/a', deadlineMs: 300, defaultDecision: 'WAIT' },
      ],
    });
    const state = events.reduce(webhookConfigDecider.evolve, webhookConfigDecider.initialState());
    expect(state.decisionEndpoints).toHaveLength(2);
    expect(state.webhookEndpoint).toBeNull();
    // The same list again changes nothing; [] removes them.
    expect(
      decide(
        [
          { type: CARDS, url: 'https://decide.example.com/cards' },
          { type: AGENTS, url: 'https://decide.example.com/a', deadlineMs: 300 },
        ],
        events,
      ),
    ).toEqual([]);
    expect(decide([], events)).toEqual([
      { type: 'DecisionEndpointsChanged', data: { platformId: 'Platform:1', decisionEndpoints: [], updatedAt: T0 } },
    ]);
  });

  it('refuses what a webhook endpoint refuses, deadlines past 2000 ms, unknown defaults and duplicates', () => {
    expect(fieldOf(() => decide([{ type: CARDS, url: 'http://10.0.0.7/x' }]))).toBe('decisionEndpoints[0].url');
    expect(fieldOf(() => decide([{ type: CARDS, url: 'http://decide.example.com/x' }], [], false))).toBe(
      'decisionEndpoints[0].url',
    );
    expect(fieldOf(() => decide([{ type: CARDS, url: 'https://d.example.com', deadlineMs: 2001 }]))).toBe(
      'decisionEndpoints[0].deadlineMs',
    );
    expect(fieldOf(() => decide([{ type: CARDS, url: 'https://d.example.com', defaultDecision: 'WAIT' }]))).toBe(
      'decisionEndpoints[0].defaultDecision',
    );
    expect(fieldOf(() => decide([{ type: 'OTHER', url: 'https://d.example.com' }]))).toBe('decisionEndpoints[0].type');
    const twice = [
      { type: AGENTS, url: 'https://d.example.com' },
      { type: AGENTS, url: 'https://d.example.com' },
    ];
    expect(fieldOf(() => decide(twice))).toBe('decisionEndpoints[1].type');
  });
});

describe('a decision endpoint’s answer', () => {
  it('is used when it is one of the kind’s decisions, with a reason and a partial amount at most the request', () => {
    expect(parseDecisionAnswer(CARDS, '{"decision":"DECLINE","reason":"blocked"}', 100n)).toEqual({
      decision: 'DECLINE',
      reason: 'blocked',
    });
    expect(parseDecisionAnswer(CARDS, '{"decision":"APPROVE","approvedAmount":60}', 100n)).toEqual({
      decision: 'APPROVE',
      approvedAmount: 60n,
    });
    expect(parseDecisionAnswer(AGENTS, '{"decision":"REJECT","reason":"no"}')).toEqual({
      decision: 'REJECT',
      reason: 'no',
    });
  });

  it('is malformed otherwise', () => {
    for (const body of [
      undefined,
      'garbage',
      '[]',
      '{"decision":"MAYBE"}',
      '{"decision":"APPROVE","approvedAmount":101}',
      '{"decision":"APPROVE","approvedAmount":1.5}',
      '{"decision":"APPROVE","approvedAmount":"50"}',
      '{"decision":"APPROVE","approvedAmount":0}',
      '{"decision":"APPROVE","reason":7}',
    ])
      expect(parseDecisionAnswer(CARDS, body, 100n)).toBeUndefined();
    expect(parseDecisionAnswer(AGENTS, '{"decision":"DECLINE"}')).toBeUndefined();
    expect(parseDecisionAnswer(CARDS, '{"decision":"REJECT"}', 100n)).toBeUndefined();
  });
});
