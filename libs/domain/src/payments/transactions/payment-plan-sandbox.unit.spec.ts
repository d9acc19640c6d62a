import { describe, expect, it } from '@jest/globals';
import { parseSandboxUmaAddress, requiredPayerDataFieldsFor } from '../lookups/lookup.js';
import {
  incomingPlan,
  quoteDestinationPlan,
  SANDBOX_DELAYS,
  sandboxSuffix,
  SUCCESS_PLAN,
  transferPlan,
  umaDestinationPlan,
} from './payment-plan.js';

/** Identifiers and the suffix that selects their outcome: the last three characters, before any domain part. */
const SUFFIXES: [identifier: string, suffix: string][] = [
  ['000123456002', '002'],
  ['user005@bank.example.com', '005'],
  ['DE89370400440532013007', '007'],
];

describe('sandbox outcome rules', () => {
  it.each(SUFFIXES)('reads %s as suffix %s', (identifier, suffix) => {
    expect(sandboxSuffix(identifier)).toBe(suffix);
  });

  it('maps transfer suffixes to their outcomes', () => {
    expect(transferPlan('x002')).toEqual({
      immediate: { type: 'FAIL', status: 'FAILED', failureDetail: 'INSUFFICIENT_FUNDS' },
    });
    expect(transferPlan('x003').immediate).toMatchObject({
      type: 'FAIL',
      failureDetail: 'ACCOUNT_CLOSED_OR_INVALID',
    });
    expect(transferPlan('x004').later).toMatchObject({ step: { type: 'FAIL', status: 'REJECTED' } });
    expect(transferPlan('x005').later).toEqual({
      afterMs: 30_000,
      step: { type: 'FAIL', status: 'FAILED', failureDetail: 'BANK_TIMEOUT' },
    });
    expect(transferPlan('x001')).toBe(SUCCESS_PLAN);
  });

  it('maps quote destination suffixes to their outcomes', () => {
    expect(quoteDestinationPlan('002').immediate).toMatchObject({
      type: 'FAIL',
      failureReason: 'QUOTE_EXECUTION_FAILED',
    });
    expect(quoteDestinationPlan('003')).toEqual({
      later: { afterMs: SANDBOX_DELAYS.slowCompletionMs, step: { type: 'COMPLETE' } },
    });
    expect(quoteDestinationPlan('004').later?.step).toMatchObject({
      type: 'FAIL',
      status: 'FAILED',
      failureReason: 'OFFRAMP_FAILED',
    });
    expect(quoteDestinationPlan('005')).toMatchObject({
      immediate: { type: 'COMPLETE' },
      later: { step: { type: 'RETURN', status: 'FAILED' } },
    });
    expect(quoteDestinationPlan('006').later?.step).toMatchObject({ type: 'FAIL', status: 'REFUNDED' });
    expect(quoteDestinationPlan('007').later?.step).toMatchObject({ type: 'LOSE' });
    expect(quoteDestinationPlan('008')).toBe(SUCCESS_PLAN);
  });

  it('parses sandbox UMA receivers and senders', () => {
    expect(parseSandboxUmaAddress('$success.MXN@sandbox.uma.local')).toEqual({
      outcome: 'SUCCESS',
      currency: 'MXN',
      domain: 'sandbox.uma.local',
    });
    expect(parseSandboxUmaAddress('$pending.long.EUR@a.b')?.outcome).toBe('PENDING_LONG');
    expect(parseSandboxUmaAddress('$fail.compliance.USD@a.b')?.outcome).toBe('FAIL_COMPLIANCE');
    for (const bad of ['$success.GBP@a.b', '$success@a.b', 'success.USD@a.b', '$success.USD@nodot'])
      expect(parseSandboxUmaAddress(bad)).toBeUndefined();
    expect(umaDestinationPlan('FAIL_COMPLIANCE').immediate).toMatchObject({ failureReason: 'PAY_REQUEST_FAILED' });
    expect(umaDestinationPlan('PENDING_LONG').later?.afterMs).toBe(3_600_000);
    expect(incomingPlan('$pending.long.USD@x.com').needsApproval).toBe(true);
    expect(incomingPlan('$fail.compliance.USD@x.com').plan.immediate).toMatchObject({ status: 'REJECTED' });
    expect(incomingPlan('$bob@x.com')).toEqual({ needsApproval: false, plan: SUCCESS_PLAN });
    expect(requiredPayerDataFieldsFor('USD')).toEqual(['FULL_NAME']);
  });
});
