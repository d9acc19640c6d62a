import { plantedFaults } from '#domain/planted-faults.js';
import { Inject, Injectable } from '@nestjs/common';
import { cardDecider } from '#domain/cards/card.js';
import {
  claimDecider,
  claimStream,
  identityTaken,
  takeoverOf,
  umaAddressKey,
  type ClaimHolder,
  type ClaimKey,
  type HolderStatus,
  type ResourceAbandoned,
} from '#domain/claims/claim.js';
import { customerDecider } from '#domain/customers/customer.js';
import { DomainError } from '#domain/errors.js';
import { externalAccountDecider } from '#domain/external-accounts/external-account.js';
import { walletAuthDecider } from '#domain/wallet/wallet-auth.js';
import { WrongExpectedVersion, type EventStore } from '#event-store/event-store.js';
import { CommandRunner } from '../command-runner.js';
import { EVENT_STORE, type Actor } from '../tokens.js';
import { PlatformClocks } from '../command-context.js';

/** The resource a claim is made for: its public id and its stream. */
export interface ClaimOwner {
  id: string;
  stream: string;
}

/**
 * The one mechanism every area uses to hold unique identities (the rules are the pure
 * `claimDecider` in libs/domain). Writes are ordered crash-safe: claim first, naming the intended
 * resource id, then create the resource; release after the resource is deleted or changed.
 *
 * A claim whose resource never came to exist (the process died between the two appends, or the
 * create was refused and the release was lost) does not lock its key forever. We chose takeover
 * over deterministic ids: the intended id is random, so a retry cannot recognise its own claim,
 * but once the claim is older than PENDING_CLAIM_GRACE_MS the next claimant appends
 * `ResourceAbandoned` to the would-be resource's stream with expected revision "no stream" and
 * then takes the key. That append and the resource's own create compete for the same stream, so
 * exactly one of them wins: a stalled creator can no longer create the resource, and a resource
 * that did get created keeps its key. Young pending claims count as taken, so concurrent creates
 * never take a key from one another.
 */
@Injectable()
export class IdentityClaims {
  constructor(
    private readonly runner: CommandRunner,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clocks: PlatformClocks,
  ) {}

  /** Claims every key for `owner`, in order; on a refusal the keys already claimed are released. */
  async claim(keys: ClaimKey[], owner: ClaimOwner, actor: Actor): Promise<void> {
    if (plantedFaults.skipUniquenessClaim) return;
    const held: ClaimKey[] = [];
    try {
      for (const key of keys) {
        await this.claimOne(key, owner, actor);
        held.push(key);
      }
    } catch (error) {
      await this.release(held, owner.id, actor);
      throw error;
    }
  }

  /**
   * Claims the keys, then runs `create`. When the create is refused (a business rule, so nothing
   * was written) the claims are released; any other failure leaves them to the takeover rule,
   * since the resource may have been written.
   */
  async holding<T>(keys: ClaimKey[], owner: ClaimOwner, actor: Actor, create: () => Promise<T>): Promise<T> {
    await this.claim(keys, owner, actor);
    try {
      return await create();
    } catch (error) {
      if (error instanceof DomainError) await this.release(keys, owner.id, actor);
      throw error;
    }
  }

  /** Releases the keys `ownerId` holds (a no-op for keys it does not hold). */
  async release(keys: ClaimKey[], ownerId: string, actor: Actor): Promise<void> {
    for (const key of keys) {
      const command = { type: 'Release' as const, key, ownerId, now: this.now() };
      const options = { metadata: { ...actor }, answersAfter: 'append' as const };
      await this.runner.run(claimStream(key), claimDecider, command, options);
    }
  }

  /** Who holds a key now, if anyone. */
  async holder(key: ClaimKey): Promise<ClaimHolder | undefined> {
    return (await this.runner.load(claimStream(key), claimDecider)).state.holder;
  }

  /**
   * Claims span platforms (an UMA address is global), so their grace period is measured on real
   * time: a platform that moved its sandbox clock ahead cannot take another's fresh claim.
   */
  private now(): string {
    return this.clocks.base.now().toISOString();
  }

  private async claimOne(key: ClaimKey, owner: ClaimOwner, actor: Actor): Promise<void> {
    const stream = claimStream(key);
    for (let attempt = 0; attempt < 5; attempt++) {
      const { state } = await this.runner.load(stream, claimDecider);
      const holder = state.holder;
      const now = this.now();
      let supersedes: string | undefined;
      if (holder && holder.ownerId !== owner.id) {
        const move = takeoverOf(holder, await this.statusOf(holder, key), now);
        if (move === 'refuse') throw identityTaken(key);
        // The holder's stream appeared meanwhile: look at it again.
        if (move === 'abandon-then-take' && !(await this.abandon(holder, stream, actor, now))) continue;
        supersedes = holder.ownerId;
      }
      const command = {
        ...{ type: 'Claim' as const, key, ownerId: owner.id, ownerStream: owner.stream },
        ...{ platformId: actor.platformId, supersedes, now },
      };
      try {
        await this.runner.run(stream, claimDecider, command, { metadata: { ...actor }, answersAfter: 'append' });
        return;
      } catch (error) {
        // A takeover lost to another claimant: decide again on who holds the key now.
        const taken = error instanceof DomainError && error.code === identityTaken(key).code;
        if (supersedes !== undefined && taken) continue;
        throw error;
      }
    }
    throw identityTaken(key);
  }

  /** Closes a would-be resource's stream so it can never be created; false when it exists by now. */
  private async abandon(holder: ClaimHolder, stream: string, actor: Actor, now: string): Promise<boolean> {
    const event: ResourceAbandoned = {
      type: 'ResourceAbandoned',
      data: { resourceId: holder.ownerId, claimStream: stream, abandonedAt: now },
    };
    const metadata = { ...actor, platformId: holder.platformId };
    try {
      await this.store.appendToStream(holder.ownerStream, [{ ...event, metadata }], { expectedRevision: 'no_stream' });
      return true;
    } catch (error) {
      if (error instanceof WrongExpectedVersion) return false;
      throw error;
    }
  }

  /** What the holder's own stream says about it and the key. */
  private async statusOf(holder: ClaimHolder, key: ClaimKey): Promise<HolderStatus> {
    const kind = holder.ownerId.split(':')[0];
    switch (kind) {
      case 'Customer': {
        const { state } = await this.runner.load(holder.ownerStream, customerDecider);
        if (state.abandoned || state.isDeleted) return 'gone';
        if (!state.exists) return 'absent';
        const address = state.profile.umaAddress;
        const current = key.kind === 'UMA_ADDRESS' ? address && umaAddressKey(address).value : state.platformCustomerId;
        return current === key.value ? 'live' : 'unused';
      }
      case 'Card': {
        // A closed card keeps its platformCardId: it stays listed under it.
        const { state } = await this.runner.load(holder.ownerStream, cardDecider);
        return state.abandoned ? 'gone' : state.exists ? 'live' : 'absent';
      }
      case 'ExternalAccount': {
        const { state } = await this.runner.load(holder.ownerStream, externalAccountDecider);
        if (state.abandoned || state.status === 'DELETED') return 'gone';
        return state.exists ? 'live' : 'absent';
      }
      case 'AuthMethod': {
        // A passkey credential: its wallet stream exists before the credential is added to it.
        const { state } = await this.runner.load(holder.ownerStream, walletAuthDecider);
        const method = state.authMethods.get(holder.ownerId);
        if (!method) return 'unused';
        const active = method.revokedAt === undefined && method.passkey?.credentialId === key.value;
        return active ? 'live' : 'gone';
      }
      default:
        // An owner kind this code does not know is never taken from.
        return 'live';
    }
  }
}
