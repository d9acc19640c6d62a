import { describe, expect, it } from '@jest/globals';
import { customerDecider, type CustomerCommand, type CustomerEvent } from '../customers/customer.js';
import { deciderSpec } from '../testing/decider-spec.js';
import {
  PENDING_CLAIM_GRACE_MS,
  claimDecider,
  claimStream,
  externalAccountKey,
  passkeyCredentialKey,
  platformCardIdKey,
  platformCustomerIdKey,
  takeoverOf,
  umaAddressKey,
  type ClaimCommand,
  type ClaimEvent,
  type ClaimHolder,
} from './claim.js';
import { OTHER_PLATFORM as OTHER, PLATFORM, T0, testId } from '../testing/fixtures.js';

const spec = deciderSpec(claimDecider);
const A = testId('Customer', 'a');
const B = testId('Customer', 'b');
const T1 = '2026-01-01T00:00:01.000Z';
const key = umaAddressKey('$Ada@Sandbox.Example');
const holderA = { ownerId: A, platformId: PLATFORM, ownerStream: 'customer-a', claimedAt: T0 };

const claim = (ownerId: string, extra: Partial<Extract<ClaimCommand, { type: 'Claim' }>> = {}): ClaimCommand => ({
  type: 'Claim',
  key,
  ownerId,
  ownerStream: ownerId === A ? 'customer-a' : 'customer-b',
  platformId: ownerId === A ? PLATFORM : OTHER,
  now: T1,
  ...extra,
});
const claimedByA: ClaimEvent = { type: 'IdentityClaimed', data: { ...key, ...holderA } };
const releasedByA: ClaimEvent = { type: 'IdentityReleased', data: { ...key, ownerId: A, releasedAt: T1 } };

describe('claim keys', () => {
  it('normalizes what names the same identity, and keeps scopes apart', () => {
    expect(claimStream(umaAddressKey('$ADA@sandbox.example'))).toBe(claimStream(umaAddressKey('$ada@sandbox.example')));
    expect(claimStream(platformCustomerIdKey(PLATFORM, 'c-1'))).not.toBe(
      claimStream(platformCustomerIdKey(OTHER, 'c-1')),
    );
    expect(claimStream(platformCustomerIdKey(PLATFORM, 'c-1'))).not.toBe(
      claimStream(platformCardIdKey(PLATFORM, 'c-1')),
    );
    const iban = (id: string, customer?: string) =>
      claimStream(externalAccountKey(PLATFORM, customer, 'EUR_ACCOUNT', id));
    expect(iban('DE89 3704 0044 0532 0130 00', A)).toBe(iban('de89370400440532013000', A));
    expect(iban('DE89370400440532013000', A)).not.toBe(iban('DE89370400440532013000', B));
    expect(iban('DE89370400440532013000', A)).not.toBe(iban('DE89370400440532013000'));
    expect(claimStream(passkeyCredentialKey('cred-1'))).toMatch(
      /^claim-[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('claim decider', () => {
  it('claims a free key, recording its holder', () => {
    spec
      .given([])
      .when(claim(A, { now: T0 }))
      .then([claimedByA]);
  });

  it('refuses a key held by another with the public code: UMA_ADDRESS_EXISTS, CONFLICT for the rest', () => {
    spec.given([claimedByA]).when(claim(B)).thenFails({ kind: 'conflict', code: 'UMA_ADDRESS_EXISTS' });
    const pcid = platformCustomerIdKey(PLATFORM, 'c-1');
    const byA: ClaimEvent = { type: 'IdentityClaimed', data: { ...pcid, ...holderA } };
    spec
      .given([byA])
      .when(claim(B, { key: pcid }))
      .thenFails({ kind: 'conflict', code: 'CONFLICT' });
  });

  it('is idempotent for the holder: claiming again changes nothing', () => {
    spec.given([claimedByA]).when(claim(A)).then([]);
  });

  it('takes over only from the holder the caller found gone', () => {
    spec
      .given([claimedByA])
      .when(claim(B, { supersedes: A }))
      .then([
        {
          type: 'IdentityClaimed',
          data: { ...key, ownerId: B, platformId: OTHER, ownerStream: 'customer-b', claimedAt: T1, previousOwnerId: A },
        },
      ]);
    // The claim changed hands since it was looked at: superseding someone else is refused.
    spec
      .given([claimedByA])
      .when(claim(B, { supersedes: 'Customer:00000000-0000-4000-8000-00000000000c' }))
      .thenFails({ kind: 'conflict', code: 'UMA_ADDRESS_EXISTS' });
  });

  it('releases only for the holder; a released key can be claimed again', () => {
    spec.given([claimedByA]).when({ type: 'Release', key, ownerId: A, now: T1 }).then([releasedByA]);
    spec.given([claimedByA]).when({ type: 'Release', key, ownerId: B, now: T1 }).then([]);
    spec.given([claimedByA, releasedByA]).when({ type: 'Release', key, ownerId: A, now: T1 }).then([]);
    expect(spec.fold([claimedByA, releasedByA])).toEqual({});
    spec
      .given([claimedByA, releasedByA])
      .when(claim(B))
      .then([
        {
          type: 'IdentityClaimed',
          data: { ...key, ownerId: B, platformId: OTHER, ownerStream: 'customer-b', claimedAt: T1 },
        },
      ]);
  });
});

describe('taking over a claim', () => {
  const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
  const holder: ClaimHolder = holderA;

  it('refuses a live holder whatever the age', () => {
    expect(takeoverOf(holder, 'live', at(10 * PENDING_CLAIM_GRACE_MS))).toBe('refuse');
  });

  it('takes from a deleted or abandoned holder at once', () => {
    expect(takeoverOf(holder, 'gone', T0)).toBe('take');
  });

  it('leaves a young pending claim alone, so concurrent creates do not take from each other', () => {
    expect(takeoverOf(holder, 'absent', at(PENDING_CLAIM_GRACE_MS - 1))).toBe('refuse');
    expect(takeoverOf(holder, 'unused', at(PENDING_CLAIM_GRACE_MS - 1))).toBe('refuse');
  });

  it('takes an old pending claim; a holder never created is abandoned first', () => {
    expect(takeoverOf(holder, 'absent', at(PENDING_CLAIM_GRACE_MS))).toBe('abandon-then-take');
    expect(takeoverOf(holder, 'unused', at(PENDING_CLAIM_GRACE_MS))).toBe('take');
  });
});

describe('an abandoned resource', () => {
  it('can never be created under its id (the customer decider)', () => {
    const customers = deciderSpec(customerDecider);
    const abandoned: CustomerEvent = {
      type: 'ResourceAbandoned',
      data: { resourceId: A, claimStream: claimStream(key), abandonedAt: T1 },
    };
    const create: CustomerCommand = {
      type: 'CreateCustomer',
      customerId: A,
      platformId: PLATFORM,
      platformCustomerId: 'c-1',
      customerType: 'INDIVIDUAL',
      kycStatus: 'APPROVED',
      profile: { umaAddress: '$ada@sandbox.example' },
      accounts: [],
      now: T1,
    };
    customers.given([abandoned]).when(create).thenFails({ kind: 'conflict', code: 'CUSTOMER_EXISTS' });
    expect(customers.fold([abandoned]).exists).toBe(false);
  });
});
