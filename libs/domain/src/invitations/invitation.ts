import { createHash } from 'node:crypto';
import { latestSnapshotDecider, type Decider } from '../decider.js';
import { DomainError, conflict, invalid, notFound } from '../errors.js';
import { currency, toJsonNumber, type Currency } from '../primitives.js';

/**
 * An invitation lets a customer invite someone by link. Any platform whose user holds the link
 * may claim it (the receiving side calls claim); the inviter's platform learns of the claim from
 * the InvitationClaimed event and sends `amountToSend` itself: claiming moves no money.
 * EXPIRED is not an event: an unclaimed invitation is expired once the clock is past `expiresAt`.
 */
export type StoredInvitationStatus = 'PENDING' | 'CLAIMED' | 'CANCELLED';
export type InvitationStatus = StoredInvitationStatus | 'EXPIRED';

/** The invitation as events carry it: amounts as decimal strings in the smallest unit. */
export interface InvitationSnapshot {
  code: string;
  platformId: string;
  inviterCustomerId: string;
  inviterUma: string;
  url: string;
  status: StoredInvitationStatus;
  firstName?: string;
  amountToSend?: { amount: string; currency: string };
  createdAt: string;
  expiresAt: string;
  updatedAt: string;
  claimedAt?: string;
  inviteeUma?: string;
  /** The platform that claimed it (the invitee's). */
  claimedByPlatformId?: string;
  cancelledAt?: string;
}

export type ExistingInvitation = { exists: true; invitation: InvitationSnapshot };

export type InvitationState = { exists: false; invitation?: undefined } | ExistingInvitation;

/** What every invitation event carries: its code, its platform and the invitation as the event leaves it. */
type InvitationData = { code: string; platformId: string; invitation: InvitationSnapshot };

export type InvitationEvent =
  | { type: 'InvitationCreated'; data: InvitationData }
  | { type: 'InvitationCancelled'; data: InvitationData & { cancelledAt: string } }
  | { type: 'InvitationClaimed'; data: InvitationData & { claimedAt: string } };

export type InvitationCommand =
  | {
      type: 'CreateInvitation';
      code: string;
      platformId: string;
      inviterCustomerId: string;
      inviterUma: string;
      url: string;
      firstName?: string;
      amountToSend?: { amount: bigint; currency: string };
      expiresAt: string;
      now: string;
    }
  | { type: 'CancelInvitation'; now: string }
  | { type: 'ClaimInvitation'; inviteeUma: string; claimingPlatformId: string; now: string };

/** Expired means the clock is past `expiresAt` while still unclaimed and not cancelled. */
export function invitationStatus(invitation: InvitationSnapshot, now: Date): InvitationStatus {
  if (invitation.status === 'PENDING' && now.getTime() > Date.parse(invitation.expiresAt)) return 'EXPIRED';
  return invitation.status;
}

/**
 * Invitation codes: 10 characters of Crockford base32 (50 bits) from a hash of a fresh uuid, so
 * they cannot be guessed from other codes and stay deterministic under a test id generator.
 */
export function invitationCode(uuid: string): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let bits = BigInt('0x' + createHash('sha256').update(uuid).digest('hex').slice(0, 13)) >> 2n;
  let code = '';
  for (let i = 0; i < 10; i++) {
    code = alphabet[Number(bits & 31n)] + code;
    bits >>= 5n;
  }
  return code;
}

export const INVITATION_CODE = /^[0-9A-HJKMNP-TV-Z]{10}$/;

/** The API resource at a given time (EXPIRED derived from the clock). */
export function invitationResource(invitation: InvitationSnapshot, now: Date): Record<string, unknown> {
  const amount = invitation.amountToSend;
  const amountToSend: { amount: number; currency: Currency } | undefined = amount
    ? { amount: toJsonNumber(BigInt(amount.amount)), currency: currency(amount.currency) }
    : undefined;
  return {
    code: invitation.code,
    createdAt: invitation.createdAt,
    url: invitation.url,
    inviterUma: invitation.inviterUma,
    status: invitationStatus(invitation, now),
    ...(invitation.claimedAt ? { claimedAt: invitation.claimedAt } : {}),
    expiresAt: invitation.expiresAt,
    ...(invitation.inviteeUma ? { inviteeUma: invitation.inviteeUma } : {}),
    ...(invitation.firstName !== undefined ? { firstName: invitation.firstName } : {}),
    ...(amountToSend ? { amountToSend } : {}),
  };
}

function requirePending(state: InvitationState, now: string, action: string): InvitationSnapshot {
  if (!state.exists || !state.invitation) throw notFound('INVITATION', 'unknown');
  const status = invitationStatus(state.invitation, new Date(now));
  if (status !== 'PENDING')
    throw conflict('INVALID_STATE_TRANSITION', `the invitation is ${status} and cannot be ${action}`);
  return state.invitation;
}

function decide(cmd: InvitationCommand, state: InvitationState): InvitationEvent[] {
  switch (cmd.type) {
    case 'CreateInvitation': {
      if (state.exists) throw conflict('INVITATION_EXISTS', `invitation ${cmd.code} already exists`);
      if (Date.parse(cmd.expiresAt) <= Date.parse(cmd.now))
        throw invalid('INVALID_INPUT', 'expiresAt must be in the future', 'expiresAt');
      if (cmd.amountToSend && cmd.amountToSend.amount <= 0n)
        throw invalid('INVALID_INPUT', 'amountToSend must be greater than zero', 'amountToSend');
      const invitation: InvitationSnapshot = {
        code: cmd.code,
        platformId: cmd.platformId,
        inviterCustomerId: cmd.inviterCustomerId,
        inviterUma: cmd.inviterUma,
        url: cmd.url,
        status: 'PENDING',
        ...(cmd.firstName !== undefined ? { firstName: cmd.firstName } : {}),
        ...(cmd.amountToSend
          ? { amountToSend: { amount: cmd.amountToSend.amount.toString(), currency: cmd.amountToSend.currency } }
          : {}),
        createdAt: cmd.now,
        expiresAt: cmd.expiresAt,
        updatedAt: cmd.now,
      };
      return [{ type: 'InvitationCreated', data: { code: cmd.code, platformId: cmd.platformId, invitation } }];
    }
    case 'CancelInvitation': {
      const current = requirePending(state, cmd.now, 'cancelled');
      const invitation: InvitationSnapshot = {
        ...current,
        status: 'CANCELLED',
        cancelledAt: cmd.now,
        updatedAt: cmd.now,
      };
      return [
        {
          type: 'InvitationCancelled',
          data: { code: current.code, platformId: current.platformId, invitation, cancelledAt: cmd.now },
        },
      ];
    }
    case 'ClaimInvitation': {
      const current = requirePending(state, cmd.now, 'claimed');
      if (cmd.inviteeUma.toLowerCase() === current.inviterUma.toLowerCase()) {
        throw new DomainError('invalid', 'INVALID_INPUT', 'an invitation cannot be claimed by its inviter', {
          errors: [
            { field: 'inviteeUma', constraint: 'notInviter', message: 'inviteeUma must differ from inviterUma' },
          ],
        });
      }
      const invitation: InvitationSnapshot = {
        ...current,
        status: 'CLAIMED',
        claimedAt: cmd.now,
        inviteeUma: cmd.inviteeUma,
        claimedByPlatformId: cmd.claimingPlatformId,
        updatedAt: cmd.now,
      };
      return [
        {
          type: 'InvitationClaimed',
          data: { code: current.code, platformId: current.platformId, invitation, claimedAt: cmd.now },
        },
      ];
    }
  }
}

export const invitationDecider: Decider<InvitationState, InvitationCommand, InvitationEvent> = latestSnapshotDecider(
  (event) => ({ invitation: event.data.invitation }),
  decide,
);
