import { describe, expect, it } from '@jest/globals';
import { isPublicId } from '../../primitives.js';
import type { TransactionRecord } from './transaction.js';
import { derivedUuid, legTransferId, legsOf } from './payment-plan.js';

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
