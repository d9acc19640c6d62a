import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { DomainError } from '../errors.js';
import { agentDecider } from './agent.js';
import { replayAgentPolicy, summarizeBacktest, type BacktestOutcome } from './agent-backtest.js';
import { updatePolicy } from './agent-policy.js';
import type { AgentCommand, AgentEvent, AgentPolicy, AgentState } from './agent-types.js';
import { ACC, OTHER, T0, created, policy, requestAction } from './agent.fixtures.js';

const END = '2027-01-01T00:00:00.000Z';
type Step =
  | { kind: 'request'; amount: number; account: string; minutes: number }
  | { kind: 'approve' | 'reject' | 'complete' | 'fail'; pick: number; minutes: number };

const minutes = fc.oneof(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 600, max: 4 * 1440 }));
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('request' as const),
    amount: fc.integer({ min: 1, max: 1_500 }),
    account: fc.constantFrom(ACC, OTHER),
    minutes,
  }),
  fc.record({
    kind: fc.constantFrom(...(['approve', 'approve', 'reject', 'complete', 'complete', 'fail'] as const)),
    pick: fc.nat(),
    minutes,
  }),
);
const livePolicy: fc.Arbitrary<AgentPolicy> = fc
  .record({
    perTransactionLimit: fc.integer({ min: 200, max: 1_500 }),
    dailyLimit: fc.option(fc.integer({ min: 500, max: 5_000 }), { nil: null }),
    dailyTransactionLimit: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined }),
    monthlyLimit: fc.option(fc.integer({ min: 1_000, max: 20_000 }), { nil: null }),
    threshold: fc.option(fc.integer({ min: 100, max: 1_000 }), { nil: null, freq: 4 }),
  })
  .map(({ threshold, dailyTransactionLimit, ...limits }) =>
    policy({
      spendingLimits: { currency: 'USD', ...limits, ...(dailyTransactionLimit ? { dailyTransactionLimit } : {}) },
      approvalThresholds: threshold === null ? null : { currency: 'USD', amount: threshold },
    }),
  );

/** A stricter draft: lower limits and threshold, perhaps approval by default or one account only. */
const stricter = (p: AgentPolicy) =>
  fc
    .record({ cut: fc.integer({ min: 1, max: 50 }), approval: fc.boolean(), oneAccount: fc.boolean() })
    .map(({ cut, approval, oneAccount }) => {
      const less = (v: number | null | undefined) => (v == null ? Math.floor(3_000 * (1 - cut / 100)) : less2(v));
      const less2 = (v: number) => Math.floor((v * (100 - cut)) / 100);
      const l = p.spendingLimits;
      return updatePolicy(p, {
        spendingLimits: { perTransactionLimit: less2(l.perTransactionLimit), dailyLimit: less(l.dailyLimit) },
        ...(approval ? { defaultExecutionMode: 'APPROVAL_REQUIRED' as const } : {}),
        ...(oneAccount ? { accountRestrictions: { allowedAccountIds: [ACC] } } : {}),
        approvalThresholds: { currency: 'USD', amount: less2(p.approvalThresholds?.amount ?? 1_000) },
      });
    });

/** Runs a script of commands on an agent created with `p`: each command decided on the state its time. */
function history(p: AgentPolicy, steps: Step[]) {
  const events: AgentEvent[] = [...created(p)];
  let state = events.reduce(agentDecider.evolve, agentDecider.initialState());
  const accepted: AgentCommand[] = [];
  const outcomes = new Map<string, BacktestOutcome>();
  const ids: string[] = [];
  let t = Date.parse(T0);
  steps.forEach((s, i) => {
    t += s.minutes * 60_000;
    const now = new Date(t).toISOString();
    const cmd = command(s, i, now, candidates(s, state, ids));
    if (!cmd) return;
    let decided: AgentEvent[];
    try {
      decided = agentDecider.decide(cmd, state);
    } catch (error) {
      if (error instanceof DomainError) return;
      throw error;
    }
    if (!decided.length) return;
    if (cmd.type === 'RequestAction') {
      ids.push(cmd.request.actionId);
      const held = decided[0].type === 'AgentActionPendingApproval';
      outcomes.set(cmd.request.actionId, held ? 'APPROVAL_REQUIRED' : 'APPROVED');
    }
    accepted.push(cmd);
    events.push(...decided);
    state = decided.reduce(agentDecider.evolve, state);
  });
  return { events, accepted, outcomes };
}

/** The actions a step may target: pending ones to decide, reserved ones to complete or fail (else any). */
function candidates(s: Step, state: AgentState, ids: string[]): string[] {
  const pending = ids.filter((id) => state.actions.get(id)?.status === 'PENDING_APPROVAL');
  const reserved = ids.filter((id) => state.reservations.has(id));
  const fitting = s.kind === 'approve' || s.kind === 'reject' ? pending : reserved;
  return fitting.length ? fitting : ids;
}

function command(s: Step, i: number, now: string, ids: string[]): AgentCommand | undefined {
  if (s.kind === 'request') return requestAction(`r${i}`, s.amount, now, { accountId: s.account });
  if (!ids.length) return undefined;
  const actionId = ids[s.pick % ids.length];
  if (s.kind === 'approve') return { type: 'ApproveAction', actionId, now };
  if (s.kind === 'reject') return { type: 'RejectAction', actionId, reason: 'no', now };
  if (s.kind === 'complete') return { type: 'CompleteAction', actionId, transaction: { id: `Transaction:${i}` }, now };
  return { type: 'FailAction', actionId, reason: 'rail down', now };
}

/** The oracle: the accepted commands run again, directly, on an agent that had `draft` from its creation. */
function oracle(draft: AgentPolicy, accepted: AgentCommand[]): Map<string, BacktestOutcome> {
  let state: AgentState = created(draft).reduce(agentDecider.evolve, agentDecider.initialState());
  const outcomes = new Map<string, BacktestOutcome>();
  for (const cmd of accepted) {
    try {
      const decided = agentDecider.decide(cmd, state);
      state = decided.reduce(agentDecider.evolve, state);
      if (cmd.type === 'RequestAction') {
        const held = decided[0].type === 'AgentActionPendingApproval';
        outcomes.set(cmd.request.actionId, held ? 'APPROVAL_REQUIRED' : 'APPROVED');
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (cmd.type === 'RequestAction') outcomes.set(cmd.request.actionId, 'DECLINED');
    }
  }
  return outcomes;
}

const scripts = fc.array(step, { minLength: 1, maxLength: 60, size: 'max' });

describe('agent policy backtest (property)', () => {
  it('with the policy in force reproduces every actual decision: nothing changes', () => {
    fc.assert(
      fc.property(livePolicy, scripts, (p, steps) => {
        const { events, outcomes } = history(p, steps);
        const decisions = replayAgentPolicy(events, p, T0, END);
        expect(decisions.map((d) => [d.actionId, d.actualOutcome])).toEqual([...outcomes.entries()]);
        expect(decisions.filter((d) => d.draftOutcome !== d.actualOutcome)).toEqual([]);
        expect(summarizeBacktest(decisions, p).changed.count).toBe(0);
      }),
    );
  });

  it('with a stricter draft lists exactly the decisions the draft changes (a direct replay as the oracle)', () => {
    const cases = livePolicy.chain((p) => fc.tuple(fc.constant(p), stricter(p), scripts));
    fc.assert(
      fc.property(cases, ([p, draft, steps]) => {
        const { events, accepted, outcomes } = history(p, steps);
        const expected = oracle(draft, accepted);
        const changed = [...outcomes.entries()]
          .filter(([id, actual]) => expected.get(id) !== actual)
          .map(([id, actual]) => ({ actionId: id, actualOutcome: actual, draftOutcome: expected.get(id) }));
        const summary = summarizeBacktest(replayAgentPolicy(events, draft, T0, END), draft);
        const listed = summary.changed.actions.map(({ actionId, actualOutcome, draftOutcome }) => ({
          actionId,
          actualOutcome,
          draftOutcome,
        }));
        expect(listed).toEqual(changed);
        expect(summary.considered.count).toBe(outcomes.size);
        expect(summary.outcomes.reduce((n, o) => n + o.count, 0)).toBe(outcomes.size);
      }),
      { numRuns: 300 },
    );
  });
});

describe('agent policy backtest (examples)', () => {
  const at = (h: number) => new Date(Date.parse(T0) + h * 3_600_000).toISOString();
  const completed = (id: string, amount: number, now: string): AgentCommand[] => [
    requestAction(id, amount, now),
    { type: 'CompleteAction', actionId: `AgentAction:${id}`, transaction: { id: `Transaction:${id}` }, now },
  ];
  const live = policy();
  function stream(commands: AgentCommand[], p = live): AgentEvent[] {
    const events = [...created(p)];
    let state = events.reduce(agentDecider.evolve, agentDecider.initialState());
    for (const c of commands) {
      const decided = agentDecider.decide(c, state);
      events.push(...decided);
      state = decided.reduce(agentDecider.evolve, state);
    }
    return events;
  }

  it('counts usage from before the period as it was, lists only the period’s requests, with the limit', () => {
    const events = stream([
      ...completed('a', 900, at(1)),
      ...completed('b', 900, at(2)),
      ...completed('c', 900, at(3)),
    ]);
    const draft = updatePolicy(live, { spendingLimits: { dailyLimit: 2_000 } });
    const summary = summarizeBacktest(replayAgentPolicy(events, draft, at(2), END), draft);
    // a (900, before the period) counts; b brings the day to 1,800; c would pass 2,000.
    expect(summary.considered).toEqual({ count: 2, amount: 1_800 });
    expect(summary.changed.actions).toEqual([
      expect.objectContaining({ actionId: 'AgentAction:c', amount: 900, currency: 'USD', limit: 'dailyLimit' }),
    ]);
    expect(summary.outcomes).toEqual([
      { actualOutcome: 'APPROVED', draftOutcome: 'APPROVED', count: 1, amount: 900 },
      { actualOutcome: 'APPROVED', draftOutcome: 'DECLINED', count: 1, amount: 900 },
    ]);
  });

  it('a declined action does not count towards later usage; later policy updates do not replace the draft', () => {
    const raise: AgentCommand = {
      type: 'UpdateAgentPolicy',
      update: { spendingLimits: { perTransactionLimit: 5_000 } },
      now: at(3),
    };
    const events = stream([
      ...completed('a', 900, at(1)),
      ...completed('b', 500, at(2)),
      raise,
      ...completed('c', 900, at(4)),
    ]);
    const draft = updatePolicy(live, { spendingLimits: { perTransactionLimit: 800, dailyLimit: 1_000 } });
    const summary = summarizeBacktest(replayAgentPolicy(events, draft, T0, END), draft);
    // a is refused (per transaction), so b (500) fits the daily 1,000; c stays refused after the recorded update.
    expect(summary.changed.actions.map((x) => [x.actionId, x.draftOutcome, x.limit])).toEqual([
      ['AgentAction:a', 'DECLINED', 'perTransactionLimit'],
      ['AgentAction:c', 'DECLINED', 'perTransactionLimit'],
    ]);
    expect(summary.changed).toMatchObject({ count: 2, amount: 1_800 });
    const held = updatePolicy(live, { approvalThresholds: { currency: 'USD', amount: 100 } });
    const h = summarizeBacktest(replayAgentPolicy(events, held, T0, END), held);
    expect(h.outcomes).toEqual([
      { actualOutcome: 'APPROVED', draftOutcome: 'APPROVAL_REQUIRED', count: 3, amount: 2_300 },
    ]);
  });

  it('an action held for approval counts from the platform’s approval, if the draft approves it then too', () => {
    const approve = (id: string, now: string): AgentCommand[] => [
      { type: 'ApproveAction', actionId: `AgentAction:${id}`, now },
      { type: 'CompleteAction', actionId: `AgentAction:${id}`, transaction: { id: `Transaction:${id}` }, now },
    ];
    const holding = { approvalThresholds: { currency: 'USD', amount: 100 } };
    const events = stream(
      [requestAction('a', 900, at(1)), ...approve('a', at(2)), requestAction('b', 900, at(3))],
      updatePolicy(live, holding),
    );
    const draft = updatePolicy(live, { ...holding, spendingLimits: { dailyLimit: 1_500 } });
    const summary = summarizeBacktest(replayAgentPolicy(events, draft, T0, END), draft);
    expect(summary.changed.actions.map((x) => [x.actionId, x.actualOutcome, x.draftOutcome, x.limit])).toEqual([
      ['AgentAction:b', 'APPROVAL_REQUIRED', 'DECLINED', 'dailyLimit'],
    ]);
  });
});

describe('the backtest summary', () => {
  it('states sums past 2^53-1 exactly, as null with the decimal beside', () => {
    const big = 9_000_000_000_000_000n;
    const decision = (actionId: string) => ({
      actionId,
      type: 'TRANSFER_OUT' as const,
      at: T0,
      amount: Number(big),
      currency: 'USD',
      actualOutcome: 'APPROVED' as const,
      draftOutcome: 'APPROVED' as const,
      limitsAmount: big,
    });
    const summary = summarizeBacktest([decision('a'), decision('b')], policy());
    expect(summary.considered).toEqual({ count: 2, amount: null, exact: '18000000000000000' });
    expect(summary.outcomes[0]).toMatchObject({ count: 2, amount: null, exact: '18000000000000000' });
    expect(summary.changed).toMatchObject({ count: 0, amount: 0 });
  });
});
