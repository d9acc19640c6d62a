import { describe, expect, it } from '@jest/globals';
import { parseSandboxUmaAddress, requiredPayerDataFieldsFor } from '../lookups/lookup.js';
import { SUCCESS_PLAN } from '../transactions/payment-plan.js';
import { derivedUuid, legTransferId, legsOf } from '../transfers/payment-legs.js';
import {
  SANDBOX_DELAYS,
  incomingPlan,
  quoteDestinationPlan,
  sandboxSuffix,
  transferPlan,
  umaDestinationPlan,
} from './sandbox-rail.js';
import { isPublicId } from '../../ids.js';
import type { TransactionRecord } from '../transactions/transaction.js';

describe('sandbox outcome rules', () => {
  it('reads the last three characters of the identifier, before any domain part', () => {
    expect(sandboxSuffix('000123456002')).toBe('002');
    expect(sandboxSuffix('user005@bank.example.com')).toBe('005');
    expect(sandboxSuffix('DE89370400440532013007')).toBe('007');
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

describe('payment legs', () => {
  it('derives stable, distinct transfer ids per transaction and leg', () => {
    const a = legTransferId('Transaction:1', 'hold');
    expect(a).toBe(legTransferId('Transaction:1', 'hold'));
    expect(isPublicId('Transfer', a)).toBe(true);
    expect(
      new Set(['hold', 'post', 'void', 'credit', 'refund'].map((l) => legTransferId('Transaction:1', l as 'hold')))
        .size,
    ).toBe(5);
    expect(legTransferId('Transaction:2', 'hold')).not.toBe(a);
    expect(derivedUuid('x')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('holds internal sources and credits internal destinations only', () => {
    const internal = 'InternalAccount:00000000-0000-4000-8000-000000000001';
    const external = 'ExternalAccount:00000000-0000-4000-8000-000000000002';
    const legs = (source: string, destination: string) =>
      legsOf({
        source: { sourceType: 'ACCOUNT', accountId: source, currency: 'USD' },
        destination: { destinationType: 'ACCOUNT', accountId: destination, currency: 'USD' },
      } as TransactionRecord);
    expect(legs(internal, external)).toEqual({ holdsSource: true, creditsDestination: false });
    expect(legs(external, internal)).toEqual({ holdsSource: false, creditsDestination: true });
  });
});
