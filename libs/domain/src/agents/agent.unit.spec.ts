import { describe, expect, it } from '@jest/globals';
import { formatAmount } from '../primitives.js';
import { authorizeAccounts, convertAmount } from './agent-policy.js';
import { agentDecider, requireAgent } from './agent.js';
import { spec, ACC, OTHER, T0, policy, created, requestAction, run, executed, lastAction } from './agent.fixtures.js';

describe('agent policy: each field', () => {
  it('permissions: a spend needs its permission (403 FORBIDDEN)', () => {
    spec
      .given(created(policy({ permissions: ['CREATE_QUOTES'] })))
      .when(requestAction('1', 100))
      .thenFails({ kind: 'forbidden', code: 'FORBIDDEN' });
  });

  it('perTransactionLimit: above it is VELOCITY_LIMIT_EXCEEDED; at it executes', () => {
    spec
      .given(created())
      .when(requestAction('1', 1_001))
      .thenFails({ kind: 'forbidden', code: 'VELOCITY_LIMIT_EXCEEDED' });
    expect(lastAction(run(created(), [requestAction('1', 1_000)])).status).toBe('APPROVED');
  });

  it('dailyLimit: counts executed and reserved spends of the day', () => {
    const history = executed(created(), 4, 1_000);
    spec
      .given(run(history, [requestAction('r', 900)]))
      .when(requestAction('2', 101))
      .thenFails({ kind: 'forbidden', code: 'VELOCITY_LIMIT_EXCEEDED' });
    expect(lastAction(run(history, [requestAction('r', 900), requestAction('2', 100)])).status).toBe('APPROVED');
  });

  it('dailyLimit null: no daily amount limit', () => {
    const p = policy({ spendingLimits: { currency: 'USD', perTransactionLimit: 1_000, dailyLimit: null } });
    expect(lastAction(run(executed(created(p), 9, 1_000), [requestAction('n', 1_000)])).status).toBe('APPROVED');
  });

  it('no limits: the usage the API states never passes 2^53-1 (400 AMOUNT_OUT_OF_RANGE)', () => {
    const max = Number.MAX_SAFE_INTEGER;
    const limits = { currency: 'USD', perTransactionLimit: max, dailyLimit: null, monthlyLimit: null };
    const history = executed(created(policy({ spendingLimits: limits })), 1, max - 10);
    spec.given(history).when(requestAction('n', 11)).thenFails({ kind: 'invalid', code: 'AMOUNT_OUT_OF_RANGE' });
    expect(lastAction(run(history, [requestAction('n', 10)])).status).toBe('APPROVED');
  });

  it('dailyTransactionLimit: the count of the day, reservations included', () => {
    const p = policy({ spendingLimits: { currency: 'USD', perTransactionLimit: 1_000, dailyTransactionLimit: 2 } });
    spec
      .given(run(executed(created(p), 1, 10), [requestAction('r', 10)]))
      .when(requestAction('3', 10))
      .thenFails({ kind: 'forbidden', code: 'VELOCITY_LIMIT_EXCEEDED' });
  });

  it('monthlyLimit: spends of earlier days of the month count', () => {
    const p = policy({
      spendingLimits: { currency: 'USD', perTransactionLimit: 1_000, dailyLimit: 5_000, monthlyLimit: 2_500 },
    });
    const history = executed(created(p), 2, 1_000, '2026-04-09T10:00:00.000Z');
    spec.given(history).when(requestAction('m', 501)).thenFails({ kind: 'forbidden', code: 'VELOCITY_LIMIT_EXCEEDED' });
    expect(lastAction(run(history, [requestAction('m', 500)])).status).toBe('APPROVED');
  });

  it('spending limits in another currency: the amount is converted at the service rate', () => {
    // 1000 EUR cents are about 1081 USD cents: above a 1000 USD-cent limit.
    expect(convertAmount(1_000n, 'EUR', 'USD')).toBeGreaterThan(1_000n);
    spec
      .given(created())
      .when(requestAction('e', 1_000, T0, { currency: 'EUR' }))
      .thenFails({ kind: 'forbidden', code: 'VELOCITY_LIMIT_EXCEEDED' });
    expect(lastAction(run(created(), [requestAction('e', 900, T0, { currency: 'EUR' })])).status).toBe('APPROVED');
  });

  it('a refusal writes amounts as their currencies do: the converted spend, what was asked and the limit', () => {
    const refusal = (command: ReturnType<typeof requestAction>, history = created()) => {
      try {
        agentDecider.decide(command, spec.fold(history));
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refusal(requestAction('1', 1_001))).toBe('10.01 USD is above the per-transaction limit of 10.00 USD');
    const converted = formatAmount(convertAmount(1_000n, 'EUR', 'USD'), 'USD');
    expect(refusal(requestAction('e', 1_000, T0, { currency: 'EUR' }))).toBe(
      `${converted} (10.00 EUR) is above the per-transaction limit of 10.00 USD`,
    );
    expect(refusal(requestAction('2', 101), run(executed(created(), 4, 1_000), [requestAction('r', 900)]))).toBe(
      '1.01 USD passes the daily limit of 50.00 USD (49.00 USD used)',
    );
  });

  it('allowedAccountIds: another account of the customer is refused; null allows all', () => {
    const p = policy({ accountRestrictions: { allowedAccountIds: [OTHER] } });
    spec.given(created(p)).when(requestAction('1', 10)).thenFails({ kind: 'forbidden', code: 'FORBIDDEN' });
    expect(
      lastAction(run(created(policy({ accountRestrictions: { allowedAccountIds: null } })), [requestAction('1', 10)]))
        .status,
    ).toBe('APPROVED');
  });

  it('allowedAccountIds also holds for the other internal account of a payment between two of them', () => {
    const p = policy({ accountRestrictions: { allowedAccountIds: [ACC] } });
    spec
      .given(created(p))
      .when(requestAction('1', 10, T0, { otherAccountId: OTHER }))
      .thenFails({ kind: 'forbidden', code: 'FORBIDDEN' });
    const both = policy({ accountRestrictions: { allowedAccountIds: [ACC, OTHER] } });
    expect(lastAction(run(created(both), [requestAction('1', 10, T0, { otherAccountId: OTHER })])).status).toBe(
      'APPROVED',
    );
  });

  it('authorizeAccounts: any account not the customer’s is 404 as an unknown one; then allowedAccountIds', () => {
    const state = (p = policy()) => requireAgent(created(p).reduce(agentDecider.evolve, agentDecider.initialState()));
    const own = { id: ACC, kind: 'INTERNAL' as const, customerId: 'Customer:c' };
    const refusal = (fn: () => void) => {
      try {
        fn();
      } catch (e) {
        const { kind, code, message } = e as { kind: string; code: string; message: string };
        return { kind, code, message };
      }
      return undefined;
    };
    expect(
      refusal(() =>
        authorizeAccounts(state(), [own, { id: 'ExternalAccount:e', kind: 'EXTERNAL', customerId: 'Customer:c' }]),
      ),
    ).toBeUndefined();
    for (const [account, code] of [
      [{ id: OTHER, kind: 'INTERNAL', customerId: 'Customer:y' }, 'INTERNAL_ACCOUNT_NOT_FOUND'],
      [{ id: OTHER, kind: 'INTERNAL' }, 'INTERNAL_ACCOUNT_NOT_FOUND'],
      [{ id: 'ExternalAccount:e', kind: 'EXTERNAL', customerId: 'Customer:y' }, 'EXTERNAL_ACCOUNT_NOT_FOUND'],
      [{ id: 'ExternalAccount:e', kind: 'EXTERNAL' }, 'EXTERNAL_ACCOUNT_NOT_FOUND'],
    ] as const) {
      expect(refusal(() => authorizeAccounts(state(), [own, account]))).toEqual({
        kind: 'not_found',
        code,
        message: `${code === 'INTERNAL_ACCOUNT_NOT_FOUND' ? 'internal' : 'external'} account ${account.id} not found`,
      });
    }
    const restricted = state(policy({ accountRestrictions: { allowedAccountIds: [OTHER] } }));
    expect(refusal(() => authorizeAccounts(restricted, [own]))?.code).toBe('FORBIDDEN');
  });

  it('accountRules.perTransactionLimit takes precedence over the policy limit (both ways)', () => {
    const lower = policy({ accountRestrictions: { accountRules: [{ accountId: ACC, perTransactionLimit: 50 }] } });
    spec
      .given(created(lower))
      .when(requestAction('1', 51))
      .thenFails({ kind: 'forbidden', code: 'VELOCITY_LIMIT_EXCEEDED' });
    const higher = policy({ accountRestrictions: { accountRules: [{ accountId: ACC, perTransactionLimit: 2_000 }] } });
    expect(lastAction(run(created(higher), [requestAction('1', 1_500)])).status).toBe('APPROVED');
    const inherit = policy({ accountRestrictions: { accountRules: [{ accountId: ACC, perTransactionLimit: null }] } });
    spec
      .given(created(inherit))
      .when(requestAction('1', 1_001))
      .thenFails({ kind: 'forbidden', code: 'VELOCITY_LIMIT_EXCEEDED' });
  });

  it('accountRules.executionMode takes precedence over the default mode', () => {
    const ruleNeedsApproval = policy({
      accountRestrictions: { accountRules: [{ accountId: ACC, executionMode: 'APPROVAL_REQUIRED' }] },
    });
    expect(lastAction(run(created(ruleNeedsApproval), [requestAction('1', 10)])).status).toBe('PENDING_APPROVAL');
    const ruleAuto = policy({
      defaultExecutionMode: 'APPROVAL_REQUIRED',
      accountRestrictions: { accountRules: [{ accountId: ACC, executionMode: 'AUTO' }] },
    });
    expect(lastAction(run(created(ruleAuto), [requestAction('1', 10)])).status).toBe('APPROVED');
  });

  it('defaultExecutionMode APPROVAL_REQUIRED: every action waits for approval, nothing reserved', () => {
    const events = run(created(policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' })), [requestAction('1', 10)]);
    expect(events.at(-1)!.type).toBe('AgentActionPendingApproval');
    expect(spec.fold(events).reservations.size).toBe(0);
  });

  it('approvalThresholds: above the amount needs approval even in AUTO; at it executes', () => {
    const p = policy({ approvalThresholds: { currency: 'USD', amount: 500 } });
    expect(lastAction(run(created(p), [requestAction('1', 501)])).status).toBe('PENDING_APPROVAL');
    expect(lastAction(run(created(p), [requestAction('1', 500)])).status).toBe('APPROVED');
  });

  it('a paused agent cannot initiate actions', () => {
    spec
      .given(created(policy(), { isPaused: true }))
      .when(requestAction('1', 10))
      .thenFails({ kind: 'forbidden', code: 'FORBIDDEN' });
  });
});
