import { describe, expect, it } from '@jest/globals';
import { deciderSpec } from '../testing/decider-spec.js';
import {
  KYC_LINK_TTL_MS,
  hashKycSecret,
  issuedLink,
  kycLinkDecider,
  kycLinkStatus,
  kycToken,
  parseKycToken,
  type KycLinkEvent,
} from './kyc-link.js';

const spec = deciderSpec(kycLinkDecider);
const linkId = '0f8a2c1e-5b7d-4e9a-8c3f-1a2b3c4d5e6f';
const secret = 'A'.repeat(43);
const now = '2026-03-16T08:00:00.000Z';
const issued: KycLinkEvent = {
  type: 'KycLinkIssued',
  data: {
    linkId,
    platformId: 'Platform:1',
    customerId: 'Customer:1',
    secretHash: hashKycSecret(secret),
    redirectUri: 'https://app.example.com/done',
    createdAt: now,
    expiresAt: new Date(Date.parse(now) + KYC_LINK_TTL_MS).toISOString(),
  },
};
const complete = (at: string, s = secret) => ({
  type: 'CompleteKycLink' as const,
  secretHash: hashKycSecret(s),
  now: at,
});

describe('KYC link decider', () => {
  it('issues a link that expires a day later on the given clock, once', () => {
    const issue = {
      type: 'IssueKycLink' as const,
      linkId,
      platformId: 'Platform:1',
      customerId: 'Customer:1',
      secretHash: hashKycSecret(secret),
      redirectUri: 'https://app.example.com/done',
      now,
    };
    spec.given([]).when(issue).then([issued]);
    spec.given([issued]).when(issue).then([]);
  });

  it('completes once with the right secret before it expires', () => {
    spec
      .given([issued])
      .when(complete('2026-03-16T09:00:00.000Z'))
      .then([
        {
          type: 'KycLinkCompleted',
          data: { linkId, platformId: 'Platform:1', customerId: 'Customer:1', completedAt: '2026-03-16T09:00:00.000Z' },
        },
      ]);
  });

  it('a wrong secret and an unknown link are the same: not found', () => {
    spec
      .given([issued])
      .when(complete(now, 'B'.repeat(43)))
      .thenFails({ kind: 'not_found', code: 'KYC_LINK_NOT_FOUND' });
    spec.given([]).when(complete(now)).thenFails({ kind: 'not_found', code: 'KYC_LINK_NOT_FOUND' });
  });

  it('refuses a used link and an expired one', () => {
    const used: KycLinkEvent = {
      type: 'KycLinkCompleted',
      data: { linkId, platformId: 'Platform:1', customerId: 'Customer:1', completedAt: now },
    };
    spec.given([issued, used]).when(complete(now)).thenFails({ kind: 'conflict', code: 'KYC_LINK_USED' });
    spec
      .given([issued])
      .when(complete(issued.data.expiresAt))
      .thenFails({ kind: 'conflict', code: 'KYC_LINK_EXPIRED' });
    const state = issuedLink(spec.fold([issued]));
    expect(kycLinkStatus(state, now)).toBe('ACTIVE');
    expect(kycLinkStatus(state, issued.data.expiresAt)).toBe('EXPIRED');
    expect(kycLinkStatus(issuedLink(spec.fold([issued, used])), now)).toBe('COMPLETED');
  });

  it('tokens carry the link id and a 256-bit secret; anything else does not parse', () => {
    expect(parseKycToken(kycToken(linkId, secret))).toEqual({ linkId, secret });
    expect(parseKycToken(`kyc_${linkId}_short`)).toBeUndefined();
    expect(parseKycToken(`kyc_not-a-uuid_${secret}`)).toBeUndefined();
    expect(parseKycToken(`${kycToken(linkId, secret)}/../x`)).toBeUndefined();
  });
});
