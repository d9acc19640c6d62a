import { describe, expect, it } from '@jest/globals';
import { UMA_RAIL, networkRail } from '../rates/rate-table.js';
import { deciderSpec } from '../../testing/decider-spec.js';
import {
  currencyPreferences,
  lookupDecider,
  requireLookupSender,
  requireOtherReceiver,
  type LookupRecord,
} from './lookup.js';

const lookup: LookupRecord = {
  id: 'Lookup:11111111-2222-4333-8444-555555555555',
  platformId: 'Platform:11111111-2222-4333-8444-000000000000',
  kind: 'UMA_ADDRESS',
  receiverUmaAddress: '$success.EUR@uma.example.com',
  supportedCurrencies: ['EUR'],
  requiredPayerDataFields: ['FULL_NAME', 'BIRTH_DATE'],
  counterpartyInformation: {},
  senderCustomerId: 'Customer:11111111-2222-4333-8444-000000000001',
  createdAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-01T00:15:00.000Z',
};

describe('receiver lookups', () => {
  it('is created once', () => {
    const spec = deciderSpec(lookupDecider);
    spec
      .given([])
      .when({ type: 'CreateLookup', lookup })
      .then([{ type: 'LookupCreated', data: { platformId: lookup.platformId, lookup } }]);
    spec
      .given(spec.history({ type: 'CreateLookup', lookup }))
      .when({ type: 'CreateLookup', lookup })
      .thenFails({ kind: 'conflict', code: 'LOOKUP_EXISTS' });
  });

  it('prices each receiving currency from the sender’s currency within the rail’s limits', () => {
    const [eur] = currencyPreferences('USD', ['EUR'], UMA_RAIL);
    expect(eur.code).toBe('EUR');
    expect(eur.estimatedExchangeRate).toBeGreaterThan(0.8);
    expect(eur.estimatedExchangeRate).toBeLessThan(1);
    expect(BigInt(eur.min)).toBeGreaterThan(0n);
    expect(BigInt(eur.max)).toBeGreaterThan(BigInt(eur.min));
    const [same] = currencyPreferences('USD', ['USD'], networkRail('USD'));
    expect(same.estimatedExchangeRate).toBe(1);
    expect(BigInt(same.max)).toBeGreaterThan(BigInt(same.min));
  });

  it('refuses paying the sender’s own address', () => {
    expect(() => requireOtherReceiver('$Ada@x.com', [undefined, '$ada@x.com'])).toThrow(
      expect.objectContaining({ code: 'SELF_PAYMENT' }),
    );
    expect(() => requireOtherReceiver('$bob@x.com', ['$ada@x.com', undefined])).not.toThrow();
  });

  it('keeps a lookup made for a sender to that sender’s quotes', () => {
    expect(() => requireLookupSender(lookup, lookup.senderCustomerId!)).not.toThrow();
    expect(() => requireLookupSender(lookup, 'Customer:11111111-2222-4333-8444-000000000009')).toThrow(
      expect.objectContaining({ code: 'LOOKUP_MISMATCH' }),
    );
    expect(() => requireLookupSender({ ...lookup, senderCustomerId: undefined }, 'anyone')).not.toThrow();
  });
});
