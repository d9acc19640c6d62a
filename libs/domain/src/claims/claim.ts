import { createHash } from 'node:crypto';
import type { Decider } from '../decider.js';
import { conflict, invalid, DomainError } from '../errors.js';

/**
 * Unique identities. Each key (an UMA address, a platform's customer or card id, an external
 * account of one owner, a passkey credential id) has its own reservation stream; the first append
 * to it uses expected revision "no stream", so of two concurrent creates only one can hold the
 * key. The claim records the id of the resource that holds it; releasing is an event on the same
 * stream, after which the key can be claimed again at the stream's current revision.
 */
export type ClaimKind =
  'UMA_ADDRESS' | 'PLATFORM_CUSTOMER_ID' | 'PLATFORM_CARD_ID' | 'EXTERNAL_ACCOUNT' | 'PASSKEY_CREDENTIAL';

export interface ClaimKey {
  kind: ClaimKind;
  /** `*` for installation-wide keys, else the platform (and owner) the key is unique within. */
  scope: string;
  /** The normalized value: equal values mean the same identity. */
  value: string;
}

/** UMA addresses are case-insensitive and global: one address, one owner in the installation. */
export const umaAddressKey = (address: string): ClaimKey => ({
  kind: 'UMA_ADDRESS',
  scope: '*',
  value: address.trim().toLowerCase(),
});
export const platformCustomerIdKey = (platformId: string, id: string): ClaimKey => ({
  kind: 'PLATFORM_CUSTOMER_ID',
  scope: platformId,
  value: id,
});
export const platformCardIdKey = (platformId: string, id: string): ClaimKey => ({
  kind: 'PLATFORM_CARD_ID',
  scope: platformId,
  value: id,
});
export const passkeyCredentialKey = (credentialId: string): ClaimKey => ({
  kind: 'PASSKEY_CREDENTIAL',
  scope: '*',
  value: credentialId,
});

/**
 * An external account is identified within its owner (a customer, or the platform itself) by its
 * account type and the primary identifier of its accountInfo (IBAN, account number, CLABE, VPA,
 * PIX key, wallet address), compared without spaces or case: `DE89 3704…` and `de893704…` are one
 * account. The same bank account may belong to several customers.
 */
export function externalAccountKey(
  platformId: string,
  customerId: string | undefined,
  accountType: string,
  primaryIdentifier: string,
): ClaimKey {
  const identifier = primaryIdentifier.replace(/\s+/g, '').toUpperCase();
  const scope = `${platformId}/${customerId ?? 'platform'}`;
  return { kind: 'EXTERNAL_ACCOUNT', scope, value: `${accountType}:${identifier}` };
}

/** `claim-<uuid-shaped sha256 of kind, scope and value>`: streams keep the `<aggregate>-<uuid>` form. */
export function claimStream(key: ClaimKey): string {
  const h = createHash('sha256').update(`${key.kind}\n${key.scope}\n${key.value}`).digest('hex');
  return `claim-${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The public API's code for a key that is taken: UMA addresses have their own. */
export function identityTaken(key: ClaimKey): DomainError {
  switch (key.kind) {
    case 'UMA_ADDRESS':
      return conflict('UMA_ADDRESS_EXISTS', `the UMA address ${key.value} is already taken`);
    case 'PLATFORM_CUSTOMER_ID':
      return conflict('CONFLICT', `a customer with platformCustomerId ${key.value} already exists`);
    case 'PLATFORM_CARD_ID':
      return conflict('CONFLICT', `a card with platformCardId ${key.value} already exists`);
    case 'EXTERNAL_ACCOUNT':
      return conflict('CONFLICT', 'this account is already registered for this owner');
    case 'PASSKEY_CREDENTIAL':
      // The code (and 400) passkeys have always answered with.
      return invalid(
        'PASSKEY_CREDENTIAL_ALREADY_EXISTS',
        'this passkey credentialId is already registered',
        'attestation.credentialId',
      );
  }
}

/**
 * A claim whose holder was never created (its process died between the claim and the create,
 * or is still between them) may be taken over once it is this old. Earlier it is treated as
 * taken, so concurrent creates do not take the key from one another; later, the taker first closes
 * the holder's stream (see ResourceAbandoned), so even a creator that stalled longer than this can
 * no longer create the resource: at most one resource ever holds the key.
 */
export const PENDING_CLAIM_GRACE_MS = 60_000;

/**
 * Appended to a resource's stream, with expected revision "no stream", by whoever takes over a
 * claim the resource never came to hold: the resource can then never be created under that id.
 * Every aggregate whose id holds claims folds it and refuses its create afterwards.
 */
export interface ResourceAbandoned {
  type: 'ResourceAbandoned';
  data: { resourceId: string; claimStream: string; abandonedAt: string };
}

export interface ClaimHolder {
  ownerId: string;
  /** The platform of the holder (an UMA address may be held by another platform than the claimant's). */
  platformId: string;
  /** The stream of the holder (the resource stream, or the wallet stream of a credential). */
  ownerStream: string;
  claimedAt: string;
}

export interface ClaimState {
  holder?: ClaimHolder;
}

export type ClaimEvent =
  | { type: 'IdentityClaimed'; data: ClaimKey & ClaimHolder & { previousOwnerId?: string } }
  | { type: 'IdentityReleased'; data: ClaimKey & { ownerId: string; releasedAt: string } };

export type ClaimCommand =
  /**
   * `supersedes` names a holder the caller found gone (deleted, abandoned, or no longer using
   * the key): only that holder is replaced, so a claim changed since it was looked at is refused.
   */
  | {
      type: 'Claim';
      key: ClaimKey;
      ownerId: string;
      ownerStream: string;
      platformId: string;
      supersedes?: string;
      now: string;
    }
  | { type: 'Release'; key: ClaimKey; ownerId: string; now: string };

function decide(cmd: ClaimCommand, state: ClaimState): ClaimEvent[] {
  const { kind, scope, value } = cmd.key;
  if (cmd.type === 'Release') {
    // Releasing is idempotent, and never frees a key someone else holds by now.
    if (state.holder?.ownerId !== cmd.ownerId) return [];
    return [{ type: 'IdentityReleased', data: { kind, scope, value, ownerId: cmd.ownerId, releasedAt: cmd.now } }];
  }
  // The same intended owner claiming again (a retry) already holds it.
  if (state.holder?.ownerId === cmd.ownerId) return [];
  if (state.holder && state.holder.ownerId !== cmd.supersedes) throw identityTaken(cmd.key);
  const previous = state.holder ? { previousOwnerId: state.holder.ownerId } : {};
  return [
    {
      type: 'IdentityClaimed',
      data: {
        ...{ kind, scope, value, ownerId: cmd.ownerId, ownerStream: cmd.ownerStream },
        ...{ claimedAt: cmd.now, platformId: cmd.platformId, ...previous },
      },
    },
  ];
}

function evolve(state: ClaimState, event: ClaimEvent): ClaimState {
  switch (event.type) {
    case 'IdentityClaimed': {
      const { ownerId, platformId, ownerStream, claimedAt } = event.data;
      return { holder: { ownerId, platformId, ownerStream, claimedAt } };
    }
    case 'IdentityReleased':
      return {};
  }
}

export const claimDecider: Decider<ClaimState, ClaimCommand, ClaimEvent> = { initialState: () => ({}), evolve, decide };

/** What the holder of a claim is, as its own stream tells. */
export type HolderStatus =
  /** It exists and uses the key. */
  | 'live'
  /** Deleted, or abandoned before it was created: the key is free to take. */
  | 'gone'
  /** Its stream does not exist: not created yet, or never will be. */
  | 'absent'
  /** It exists but does not use the key (a change claimed it and has not been recorded, or moved away). */
  | 'unused';

/**
 * What a new claimant may do about a key held by someone else: refuse (409), take it over now,
 * or first abandon the holder's stream and then take it over.
 */
export function takeoverOf(
  holder: ClaimHolder,
  status: HolderStatus,
  now: string,
): 'refuse' | 'take' | 'abandon-then-take' {
  if (status === 'gone') return 'take';
  if (status === 'live') return 'refuse';
  const old = Date.parse(now) - Date.parse(holder.claimedAt) >= PENDING_CLAIM_GRACE_MS;
  if (!old) return 'refuse';
  return status === 'absent' ? 'abandon-then-take' : 'take';
}
