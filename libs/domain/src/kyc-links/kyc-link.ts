import { createHash, timingSafeEqual } from 'node:crypto';
import type { Decider } from '../decider.js';
import { DomainError, conflict } from '../errors.js';

/**
 * A hosted KYC link: a customer opens it to complete what their verification lacks, on a page the service
 * serves. The link is a bearer secret (`kyc_<linkId>_<secret>`); only a SHA-256 hash of the secret is kept. It is
 * single-use and expires on the platform's clock; each request for a link issues a new one and earlier links
 * stay valid until used or expired, as in the public API.
 */
export const KYC_LINK_TTL_MS = 24 * 60 * 60 * 1000;

/** The provider value of links served by the service itself (the public API's enum names external providers). */
export const KYC_LINK_PROVIDER = 'HOSTED';

export type KycLinkStatus = 'ACTIVE' | 'COMPLETED' | 'EXPIRED';

/** What issuing a link records. */
export interface KycLinkIssue {
  linkId: string;
  platformId: string;
  customerId: string;
  secretHash: string;
  redirectUri?: string;
  createdAt: string;
  expiresAt: string;
}

/** A link issued (and maybe completed); before its first event the stream holds none. */
export interface IssuedKycLink extends KycLinkIssue {
  exists: true;
  completedAt?: string;
}

export type KycLinkState = { exists: false } | IssuedKycLink;

export type KycLinkEvent =
  | { type: 'KycLinkIssued'; data: KycLinkIssue }
  | { type: 'KycLinkCompleted'; data: { linkId: string; platformId: string; customerId: string; completedAt: string } };

export type KycLinkCommand =
  | {
      type: 'IssueKycLink';
      linkId: string;
      platformId: string;
      customerId: string;
      secretHash: string;
      redirectUri?: string;
      now: string;
    }
  | { type: 'CompleteKycLink'; secretHash: string; now: string };

export const hashKycSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** `kyc_<linkId>_<secret>`: the link id (a UUID) and the secret (base64url), or undefined when malformed. */
export function parseKycToken(token: string): { linkId: string; secret: string } | undefined {
  const match = /^kyc_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_([A-Za-z0-9_-]{43})$/.exec(token);
  return match ? { linkId: match[1], secret: match[2] } : undefined;
}

export const kycToken = (linkId: string, secret: string) => `kyc_${linkId}_${secret}`;

/** The link's status at `now` (expiry is not an event: a link is expired once the clock passed `expiresAt`). */
export function kycLinkStatus(state: IssuedKycLink, now: string): KycLinkStatus {
  if (state.completedAt) return 'COMPLETED';
  return Date.parse(now) >= Date.parse(state.expiresAt) ? 'EXPIRED' : 'ACTIVE';
}

/** A link that is unknown, or whose secret does not match, looks the same to the holder: not found. */
export const linkNotFound = () =>
  new DomainError('not_found', 'KYC_LINK_NOT_FOUND', 'this verification link is not valid');

/** The link the stream holds, or not found. */
export function issuedLink(state: KycLinkState): IssuedKycLink {
  if (!state.exists) throw linkNotFound();
  return state;
}

/** Whether `secretHash` is the link's (compared in constant time). */
export function kycSecretMatches(state: KycLinkState, secretHash: string): state is IssuedKycLink {
  if (!state.exists || !state.secretHash) return false;
  const a = Buffer.from(state.secretHash, 'hex');
  const b = Buffer.from(secretHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export const kycLinkDecider: Decider<KycLinkState, KycLinkCommand, KycLinkEvent> = {
  initialState: (): KycLinkState => ({ exists: false }),

  decide(command, state) {
    switch (command.type) {
      case 'IssueKycLink': {
        if (state.exists) return [];
        const expiresAt = new Date(Date.parse(command.now) + KYC_LINK_TTL_MS).toISOString();
        return [
          {
            type: 'KycLinkIssued',
            data: {
              linkId: command.linkId,
              platformId: command.platformId,
              customerId: command.customerId,
              secretHash: command.secretHash,
              ...(command.redirectUri ? { redirectUri: command.redirectUri } : {}),
              createdAt: command.now,
              expiresAt,
            },
          },
        ];
      }
      case 'CompleteKycLink': {
        if (!kycSecretMatches(state, command.secretHash)) throw linkNotFound();
        const status = kycLinkStatus(state, command.now);
        if (status === 'COMPLETED') {
          throw conflict('KYC_LINK_USED', 'this verification link was already used; ask for a new one');
        }
        if (status === 'EXPIRED') {
          throw conflict('KYC_LINK_EXPIRED', `this verification link expired at ${state.expiresAt}; ask for a new one`);
        }
        return [
          {
            type: 'KycLinkCompleted',
            data: {
              linkId: state.linkId,
              platformId: state.platformId,
              customerId: state.customerId,
              completedAt: command.now,
            },
          },
        ];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'KycLinkIssued':
        return { exists: true, ...event.data };
      case 'KycLinkCompleted':
        return state.exists ? { ...state, completedAt: event.data.completedAt } : state;
    }
  },
};
