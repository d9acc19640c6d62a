import { describe, expect, it } from '@jest/globals';
import { deciderSpec } from '../testing/decider-spec.js';
import {
  INVITATION_CODE,
  invitationCode,
  invitationDecider,
  invitationResource,
  invitationStatus,
  type InvitationCommand,
  type InvitationEvent,
  type InvitationSnapshot,
} from './invitation.js';
import { CUSTOMER, OTHER_PLATFORM as OTHER, PLATFORM, T0, T1 } from '../testing/fixtures.js';

const spec = deciderSpec(invitationDecider);
const CODE = 'ABCDEFGH12';
const EXPIRES = '2026-01-31T00:00:00.000Z';
const AFTER = '2026-01-31T00:00:00.001Z';

const create: InvitationCommand = {
  type: 'CreateInvitation',
  code: CODE,
  platformId: PLATFORM,
  inviterCustomerId: CUSTOMER,
  inviterUma: '$ada@sandbox.example',
  url: `https://sandbox.example/invite/${CODE}`,
  firstName: 'Ada',
  amountToSend: { amount: 5000n, currency: 'MXN' },
  expiresAt: EXPIRES,
  now: T0,
};
const pending: InvitationSnapshot = {
  code: CODE,
  platformId: PLATFORM,
  inviterCustomerId: CUSTOMER,
  inviterUma: '$ada@sandbox.example',
  url: `https://sandbox.example/invite/${CODE}`,
  status: 'PENDING',
  firstName: 'Ada',
  amountToSend: { amount: '5000', currency: 'MXN' },
  createdAt: T0,
  expiresAt: EXPIRES,
  updatedAt: T0,
};
const created: InvitationEvent = {
  type: 'InvitationCreated',
  data: { code: CODE, platformId: PLATFORM, invitation: pending },
};
const claim = (now = T1, inviteeUma = '$grace@other.example'): InvitationCommand => ({
  type: 'ClaimInvitation',
  inviteeUma,
  claimingPlatformId: OTHER,
  now,
});
const claimedSnapshot: InvitationSnapshot = {
  ...pending,
  status: 'CLAIMED',
  claimedAt: T1,
  inviteeUma: '$grace@other.example',
  claimedByPlatformId: OTHER,
  updatedAt: T1,
};
const claimed: InvitationEvent = {
  type: 'InvitationClaimed',
  data: { code: CODE, platformId: PLATFORM, invitation: claimedSnapshot, claimedAt: T1 },
};
const cancelled: InvitationEvent = {
  type: 'InvitationCancelled',
  data: {
    code: CODE,
    platformId: PLATFORM,
    invitation: { ...pending, status: 'CANCELLED', cancelledAt: T1, updatedAt: T1 },
    cancelledAt: T1,
  },
};

describe('invitation decider', () => {
  it('creates a PENDING invitation with the amount as a decimal string', () => {
    spec.given([]).when(create).then([created]);
    spec.given([created]).when(create).thenFails({ kind: 'conflict', code: 'INVITATION_EXISTS' });
  });

  it('refuses an expiry that is not in the future and amounts that are not positive', () => {
    spec
      .given([])
      .when({ ...create, expiresAt: T0 })
      .thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
    spec
      .given([])
      .when({ ...create, amountToSend: { amount: 0n, currency: 'MXN' } })
      .thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
  });

  it('is claimed once by any platform, with the full snapshot in the event', () => {
    spec.given([created]).when(claim()).then([claimed]);
    spec.given([created, claimed]).when(claim()).thenFails({ kind: 'conflict', code: 'INVALID_STATE_TRANSITION' });
    spec
      .given([created, claimed])
      .when({ type: 'CancelInvitation', now: T1 })
      .thenFails({ kind: 'conflict', code: 'INVALID_STATE_TRANSITION' });
  });

  it('cannot be claimed by its inviter (UMA addresses compare case-insensitively)', () => {
    spec.given([created]).when(claim(T1, '$ADA@sandbox.example')).thenFails({ kind: 'invalid', code: 'INVALID_INPUT' });
  });

  it('is cancelled only while PENDING', () => {
    spec.given([created]).when({ type: 'CancelInvitation', now: T1 }).then([cancelled]);
    spec
      .given([created, cancelled])
      .when({ type: 'CancelInvitation', now: T1 })
      .thenFails({ kind: 'conflict', code: 'INVALID_STATE_TRANSITION' });
    spec.given([created, cancelled]).when(claim()).thenFails({ kind: 'conflict', code: 'INVALID_STATE_TRANSITION' });
  });

  it('expires once the clock is past expiresAt, not before', () => {
    spec
      .given([created])
      .when(claim(EXPIRES))
      .then([
        {
          ...claimed,
          data: {
            ...claimed.data,
            claimedAt: EXPIRES,
            invitation: { ...claimedSnapshot, claimedAt: EXPIRES, updatedAt: EXPIRES },
          },
        },
      ]);
    spec.given([created]).when(claim(AFTER)).thenFails({ kind: 'conflict', code: 'INVALID_STATE_TRANSITION' });
    spec
      .given([created])
      .when({ type: 'CancelInvitation', now: AFTER })
      .thenFails({ kind: 'conflict', code: 'INVALID_STATE_TRANSITION' });
  });

  it('answers not found for a code never issued', () => {
    spec.given([]).when(claim()).thenFails({ kind: 'not_found', code: 'INVITATION_NOT_FOUND' });
  });
});

describe('invitation views', () => {
  it('derives EXPIRED from the clock only for PENDING invitations', () => {
    expect(invitationStatus(pending, new Date(EXPIRES))).toBe('PENDING');
    expect(invitationStatus(pending, new Date(AFTER))).toBe('EXPIRED');
    expect(invitationStatus(claimedSnapshot, new Date(AFTER))).toBe('CLAIMED');
  });

  it('shows the resource with the amount as a number and a currency object', () => {
    expect(invitationResource(claimedSnapshot, new Date(T1))).toEqual({
      code: CODE,
      createdAt: T0,
      url: `https://sandbox.example/invite/${CODE}`,
      inviterUma: '$ada@sandbox.example',
      status: 'CLAIMED',
      claimedAt: T1,
      expiresAt: EXPIRES,
      inviteeUma: '$grace@other.example',
      firstName: 'Ada',
      amountToSend: { amount: 5000, currency: { code: 'MXN', name: 'Mexican Peso', symbol: '$', decimals: 2 } },
    });
  });

  it('makes 10-character base32 codes that differ for sequential uuids', () => {
    const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
    const codes = Array.from({ length: 1000 }, (_, i) => invitationCode(uuid(i + 1)));
    for (const c of codes) expect(c).toMatch(INVITATION_CODE);
    expect(new Set(codes).size).toBe(1000);
    expect(invitationCode(uuid(1))).toBe(invitationCode(uuid(1)));
  });
});
