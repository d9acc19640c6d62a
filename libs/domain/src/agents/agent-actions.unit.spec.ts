import { describe, expect, it } from '@jest/globals';
import { convertAmount, updatePolicy, usageResource } from './agent-policy.js';
import { hashDeviceCode } from './agent-claims.js';
import type { AgentCommand } from './agent-types.js';
import {
  ACC,
  spec,
  T0,
  base,
  policy,
  agentOf,
  created,
  requestAction,
  run,
  executed,
  lastAction,
} from './agent.fixtures.js';

describe('agent actions: every state', () => {
  const pending = () => run(created(policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' })), [requestAction('1', 800)]);
  const id = 'AgentAction:1';

  it('AUTO: APPROVED with a reservation, then the spend is committed with its transaction', () => {
    const reserved = run(created(), [requestAction('1', 800)]);
    expect(reserved.at(-1)!.type).toBe('AgentSpendReserved');
    const done = run(reserved, [
      { type: 'CompleteAction', actionId: id, transaction: { id: 'Transaction:t' }, now: T0 },
    ]);
    const state = spec.fold(done);
    expect(state.reservations.size).toBe(0);
    expect(state.actions.get(id)).toMatchObject({ status: 'APPROVED', transaction: { id: 'Transaction:t' } });
    expect(state.agent!.usage).toMatchObject({ dailyTransactionCount: 1, dailySpend: '800', monthlySpend: '800' });
  });

  it('execution fails: FAILED, the reservation released, usage unchanged', () => {
    const failed = run(created(), [
      requestAction('1', 800),
      { type: 'FailAction', actionId: id, reason: 'INSUFFICIENT_FUNDS', now: T0 },
    ]);
    const state = spec.fold(failed);
    expect(state.actions.get(id)).toMatchObject({ status: 'FAILED', failureReason: 'INSUFFICIENT_FUNDS' });
    expect(state.reservations.size).toBe(0);
    expect(state.agent!.usage.dailySpend).toBe('0');
  });

  it('a pending action records which rules asked for approval; an executed one records none', () => {
    const reasonsOf = (p: ReturnType<typeof policy>, amount: number) =>
      (run(created(p), [requestAction('1', amount)]).at(-1)!.data as { action: { approvalReasons?: unknown } }).action
        .approvalReasons;
    const threshold = { approvalThresholds: { currency: 'USD', amount: 500 } };
    expect(reasonsOf(policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }), 10)).toEqual([
      { rule: 'defaultExecutionMode' },
    ]);
    expect(reasonsOf(policy(threshold), 501)).toEqual([
      { rule: 'approvalThresholds.amount', threshold: { amount: 500, currency: 'USD' } },
    ]);
    expect(reasonsOf(policy(threshold), 500)).toBeUndefined();
    const ruled = policy({
      ...threshold,
      accountRestrictions: { accountRules: [{ accountId: ACC, executionMode: 'APPROVAL_REQUIRED' }] },
    });
    expect(reasonsOf(ruled, 800)).toEqual([
      { rule: 'accountRules.executionMode' },
      { rule: 'approvalThresholds.amount', threshold: { amount: 500, currency: 'USD' } },
    ]);
    // An account rule in AUTO overrides the policy's default mode.
    const auto = policy({
      defaultExecutionMode: 'APPROVAL_REQUIRED',
      accountRestrictions: { accountRules: [{ accountId: ACC, executionMode: 'AUTO' }] },
    });
    expect(reasonsOf(auto, 10)).toBeUndefined();
    // Approval keeps what was recorded.
    const approved = run(pending(), [{ type: 'ApproveAction', actionId: id, now: T0 }]);
    expect(spec.fold(approved).actions.get(id)!.approvalReasons).toEqual([{ rule: 'defaultExecutionMode' }]);
  });

  it('PENDING_APPROVAL -> approve -> APPROVED (reserved)', () => {
    spec
      .given(pending())
      .when({ type: 'ApproveAction', actionId: id, now: T0 })
      .then([
        {
          type: 'AgentSpendReserved',
          data: {
            ...base,
            action: expect.objectContaining({ status: 'APPROVED' }) as never,
            reservation: { amount: '800', currency: 'USD', day: '2026-04-10', month: '2026-04' },
          },
        },
      ]);
  });

  it('PENDING_APPROVAL -> reject -> REJECTED with the reason', () => {
    const events = run(pending(), [{ type: 'RejectAction', actionId: id, reason: 'not today', now: T0 }]);
    expect(lastAction(events)).toMatchObject({ status: 'REJECTED', rejectionReason: 'not today' });
  });

  it(
    'approve against the latest policy: limits now exceeded, paused, or a failure found by the ' + 'caller -> FAILED',
    () => {
      const lowered = run(pending(), [
        { type: 'UpdateAgentPolicy', update: { spendingLimits: { perTransactionLimit: 100 } }, now: T0 },
        { type: 'ApproveAction', actionId: id, now: T0 },
      ]);
      expect(lastAction(lowered)).toMatchObject({
        status: 'FAILED',
        failureReason: expect.stringMatching(/^VELOCITY_LIMIT_EXCEEDED/),
      });
      const paused = run(pending(), [
        { type: 'UpdateAgent', isPaused: true, now: T0 },
        { type: 'ApproveAction', actionId: id, now: T0 },
      ]);
      expect(lastAction(paused)).toMatchObject({
        status: 'FAILED',
        failureReason: expect.stringMatching(/^FORBIDDEN/),
      });
      const expired = run(pending(), [{ type: 'ApproveAction', actionId: id, now: T0, failure: 'QUOTE_EXPIRED' }]);
      expect(lastAction(expired)).toMatchObject({ status: 'FAILED', failureReason: 'QUOTE_EXPIRED' });
    },
  );

  it('approve or reject anything but PENDING_APPROVAL: 409', () => {
    const rejected = run(pending(), [{ type: 'RejectAction', actionId: id, now: T0 }]);
    spec
      .given(rejected)
      .when({ type: 'ApproveAction', actionId: id, now: T0 })
      .thenFails({ kind: 'conflict', code: 'INVALID_STATE_TRANSITION' });
    spec
      .given(run(created(), [requestAction('1', 10)]))
      .when({ type: 'RejectAction', actionId: id, now: T0 })
      .thenFails({ kind: 'conflict', code: 'INVALID_STATE_TRANSITION' });
    spec
      .given(created())
      .when({ type: 'ApproveAction', actionId: id, now: T0 })
      .thenFails({ kind: 'not_found', code: 'AGENT_ACTION_NOT_FOUND' });
  });

  it('completing twice or after failure changes nothing', () => {
    const done = run(created(), [
      requestAction('1', 10),
      { type: 'CompleteAction', actionId: id, transaction: { id: 't' }, now: T0 },
    ]);
    spec
      .given(done)
      .when({ type: 'CompleteAction', actionId: id, transaction: { id: 't' }, now: T0 })
      .then([]);
    spec.given(done).when({ type: 'FailAction', actionId: id, reason: 'x', now: T0 }).then([]);
  });
});

describe('agent usage and reservations', () => {
  it('concurrent spends decided in turn never overshoot the daily limit', () => {
    const p = policy({ spendingLimits: { currency: 'USD', perTransactionLimit: 1_000, dailyLimit: 5_000 } });
    let events = created(p);
    let accepted = 0;
    for (let i = 0; i < 50; i++) {
      try {
        events = run(events, [requestAction(`c${i}`, 300)]);
        accepted += 1;
      } catch {
        // refused: over the limit
      }
    }
    expect(accepted).toBe(16);
  });

  it('usage resets at the UTC day and month boundaries', () => {
    const history = executed(created(), 3, 1_000, '2026-04-30T23:00:00.000Z');
    const state = spec.fold(history);
    expect(usageResource(state.agent!.usage, '2026-04-30T23:59:59.999Z')).toEqual({
      dailyTransactionCount: 3,
      dailySpend: 3_000,
      monthlySpend: 3_000,
      dailyResetDate: '2026-05-01',
      monthlyResetMonth: '2026-05',
    });
    expect(usageResource(state.agent!.usage, '2026-05-01T00:00:00.000Z')).toEqual({
      dailyTransactionCount: 0,
      dailySpend: 0,
      monthlySpend: 0,
      dailyResetDate: '2026-05-02',
      monthlyResetMonth: '2026-06',
    });
    // Same month, next day: the daily counters start again, the monthly one keeps counting.
    const april = executed(created(), 2, 1_000, '2026-04-10T23:00:00.000Z');
    expect(usageResource(spec.fold(april).agent!.usage, '2026-04-11T01:00:00.000Z')).toMatchObject({
      dailyTransactionCount: 0,
      dailySpend: 0,
      monthlySpend: 2_000,
    });
    const next = executed(april, 5, 1_000, '2026-04-11T01:00:00.000Z');
    expect(spec.fold(next).agent!.usage).toMatchObject({
      day: '2026-04-11',
      dailyTransactionCount: 5,
      dailySpend: '5000',
      monthlySpend: '7000',
    });
  });
});

describe('agent lifecycle and device codes', () => {
  const redeem = (code = 'PAY-AGENT-AAAA-BBBB', now = T0): AgentCommand => ({
    type: 'RedeemDeviceCode',
    codeHash: hashDeviceCode(code),
    tokenHash: 'h',
    now,
  });

  it('redeems once: connected, token hash kept; a second redeem is 400', () => {
    // created() issues its code as events from before hashing did (the plain code): it is redeemable by its hash.
    const events = run(created(), [redeem()]);
    expect(JSON.stringify(events.slice(2))).not.toContain('PAY-AGENT-AAAA-BBBB');
    const state = spec.fold(events);
    expect(state.agent!.isConnected).toBe(true);
    expect(state.tokenHash).toBe('h');
    spec.given(events).when(redeem()).thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
  });

  it('an expired code is 400 (24 h on the platform clock)', () => {
    spec
      .given(created())
      .when(redeem('PAY-AGENT-AAAA-BBBB', '2026-04-11T12:00:00.000Z'))
      .thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
  });

  it('a new code replaces the earlier one; none while connected (409)', () => {
    const reissued = run(created(), [
      {
        type: 'IssueDeviceCode',
        deviceCode: {
          codeHash: hashDeviceCode('PAY-AGENT-CCCC-DDDD'),
          expiresAt: '2026-04-11T13:00:00.000Z',
          redeemed: false,
        },
        now: T0,
      },
    ]);
    spec.given(reissued).when(redeem()).thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
    expect(spec.fold(run(reissued, [redeem('PAY-AGENT-CCCC-DDDD')])).agent!.isConnected).toBe(true);
    spec
      .given(run(created(), [redeem()]))
      .when({ type: 'IssueDeviceCode', deviceCode: { codeHash: 'x', expiresAt: T0, redeemed: false }, now: T0 })
      .thenFails({ kind: 'conflict', code: 'CONFLICT' });
  });

  it('a deleted agent is gone: token dropped, every command 404', () => {
    const events = run(created(), [redeem(), { type: 'DeleteAgent', now: T0 }]);
    expect(spec.fold(events).tokenHash).toBeUndefined();
    spec.given(events).when(requestAction('1', 10)).thenFails({ kind: 'not_found', code: 'AGENT_NOT_FOUND' });
  });

  it('pause and rename', () => {
    spec
      .given(created())
      .when({ type: 'UpdateAgent', name: 'b2', isPaused: true, now: T0 })
      .then([{ type: 'AgentUpdated', data: { ...base, agent: agentOf(policy(), { name: 'b2', isPaused: true }) } }]);
  });
});

describe('policy update', () => {
  it('is partial: omitted fields kept, null removes a daily or monthly limit, permissions replaced', () => {
    const next = updatePolicy(policy(), { permissions: ['VIEW_TRANSACTIONS'], spendingLimits: { dailyLimit: null } });
    expect(next.permissions).toEqual(['VIEW_TRANSACTIONS']);
    expect(next.spendingLimits).toEqual({
      currency: 'USD',
      perTransactionLimit: 1_000,
      dailyLimit: null,
      dailyTransactionLimit: 10,
      monthlyLimit: 20_000,
    });
    expect(next.defaultExecutionMode).toBe('AUTO');
  });

  it('a new currency recasts the limits not given', () => {
    const next = updatePolicy(policy(), { spendingLimits: { currency: 'EUR', perTransactionLimit: 700 } });
    expect(next.spendingLimits.perTransactionLimit).toBe(700);
    expect(next.spendingLimits.dailyLimit).toBe(Number(convertAmount(5_000n, 'USD', 'EUR')));
  });
});
