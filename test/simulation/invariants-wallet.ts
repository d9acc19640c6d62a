import { p256 } from '@noble/curves/nist.js';
import type { Folded } from '#application/command-runner-policy.js';
import type { CardEvent } from '#domain/cards/card-types.js';
import { type RecentCache, streams } from '#domain/primitives.js';
import { walletAuthDecider } from '#domain/wallet/wallet-auth.js';
import { walletAuthSnapshot } from '#domain/wallet/wallet-auth-snapshot.js';
import type { SignedChange, WalletAuthEvent, WalletAuthState } from '#domain/wallet/wallet-auth-state.js';
import type { MemoryLog } from '#event-store/memory/event-store.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import { InvariantViolation } from './invariants.js';
import type { SimProcess } from './process.js';
import type { SimWallet } from './workload-wallet.js';
import type { World } from './world.js';

const fail = (invariant: string, detail: string, ...streamNames: string[]): never => {
  throw new InvariantViolation(invariant, detail, streamNames);
};

/**
 * Whether `header` (a stamp as a device sent it) verifies over `payload` under `publicKey`, checked here apart from
 * the service's verification: the stamp names that key, and its ECDSA P-256 / SHA-256 signature is good.
 */
function stampVerifies(world: World, header: string, payload: string, publicKey: string): boolean {
  let verifications = verified.get(world);
  if (!verifications) verified.set(world, (verifications = new Map()));
  const key = `${publicKey}|${header}|${payload}`;
  let result = verifications.get(key);
  if (result === undefined) verifications.set(key, (result = verifyStamp(header, payload, publicKey)));
  return result;
}

/** The stamps of a run verified so far (each consumption is checked at every check of the run: verified once). */
const verified = new WeakMap<World, Map<string, boolean>>();

function verifyStamp(header: string, payload: string, publicKey: string): boolean {
  try {
    const stamp = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<string, string>;
    if (stamp.publicKey?.toLowerCase() !== publicKey.toLowerCase()) return false;
    return p256.verify(
      Buffer.from(stamp.signature, 'hex'),
      new TextEncoder().encode(payload),
      Buffer.from(publicKey, 'hex'),
      { format: 'der', lowS: false },
    );
  } catch {
    return false;
  }
}

interface Consumption {
  sessionId: string;
  authorizes?: SignedChange;
}

/**
 * A wallet's stream, event by event: a requestId is consumed at most once, only after this wallet issued it, by a
 * session of this wallet that is neither revoked nor expired at that time, and only if a stamp the device sent for
 * it verifies over its payloadToSign under that session's key (so no wrong key, no bad signature, no revoked or
 * expired session ever authorized anything). Returns the consumptions by requestId.
 */
function checkWalletStream(log: MemoryLog, world: World, wallet: SimWallet): Map<string, Consumption> {
  const stream = streams.wallet(wallet.accountId);
  const challenges = new Map<string, string>();
  const sessions = new Map<string, { publicKey: string; expiresAt: string; revokedAt?: string }>();
  const consumed = new Map<string, Consumption>();
  for (const e of log.streams.get(stream) ?? []) {
    const event = { type: e.type, data: e.data } as unknown as WalletAuthEvent;
    switch (event.type) {
      case 'SignedRetryChallengeIssued':
        challenges.set(event.data.requestId, event.data.payloadToSign);
        break;
      case 'SessionIssued':
        sessions.set(event.data.sessionId, { publicKey: event.data.publicKey, expiresAt: event.data.expiresAt });
        break;
      case 'SessionRefreshed': {
        const session = sessions.get(event.data.sessionId);
        if (session) Object.assign(session, { publicKey: event.data.publicKey, expiresAt: event.data.expiresAt });
        break;
      }
      case 'SessionRevoked': {
        const session = sessions.get(event.data.sessionId);
        if (session) session.revokedAt ??= event.data.revokedAt;
        break;
      }
      case 'SignedRetryConsumed': {
        const { requestId, sessionId, consumedAt, authorizes } = event.data;
        const at = `${requestId}@${e.revision}`;
        const payload = challenges.get(requestId);
        if (payload === undefined) fail('wallet: only a requestId the wallet issued is consumed', at, stream);
        if (consumed.has(requestId)) fail('wallet: a requestId is consumed at most once', at, stream);
        const session = sessions.get(sessionId);
        if (!session)
          fail('wallet: a requestId is consumed by a session of its wallet', `${at} by ${sessionId}`, stream);
        if (session!.revokedAt !== undefined)
          fail('wallet: no revoked session signs', `${at} by ${sessionId} revoked at ${session!.revokedAt}`, stream);
        if (Date.parse(session!.expiresAt) <= Date.parse(consumedAt))
          fail('wallet: no expired session signs', `${at} by ${sessionId} expired at ${session!.expiresAt}`, stream);
        const stamps = world.stamps.get(requestId) ?? [];
        if (!stamps.some((s) => stampVerifies(world, s, payload!, session!.publicKey)))
          fail(
            'wallet: a requestId is consumed only by a stamp that verifies under the session key',
            `${at} by ${sessionId}: none of ${stamps.length} stamps sent verifies`,
            stream,
          );
        consumed.set(requestId, { sessionId, ...(authorizes ? { authorizes } : {}) });
        break;
      }
    }
  }
  return consumed;
}

/**
 * A wallet's card changes state at the holder's request only through a signed retry: every change that names a
 * wallet session is preceded, in its append, by the requestId it applies; that requestId was consumed in the wallet's
 * stream, by that session, for this card's stream, and is applied once. A freeze or unfreeze (the only holder
 * changes the workload makes) never comes without one.
 */
function checkWalletCard(log: MemoryLog, wallet: SimWallet, consumed: Map<string, Consumption>): void {
  if (!wallet.cardId) return;
  const stream = streams.card(wallet.cardId);
  const applied = new Set<string>();
  let signed: { requestId: string; sessionId: unknown } | undefined;
  let state: string | undefined;
  for (const e of log.streams.get(stream) ?? []) {
    const event = { type: e.type, data: e.data } as CardEvent;
    const sessionId = (e as RecordedEvent).metadata.walletSessionId;
    if (sessionId === undefined) signed = undefined;
    if (event.type === 'SignedRequestApplied') {
      const { requestId } = event.data;
      const at = `${requestId}@${e.revision}`;
      if (applied.has(requestId)) fail('wallet: a signed change is applied at most once', at, stream);
      applied.add(requestId);
      const consumption = consumed.get(requestId);
      if (!consumption || consumption.authorizes?.stream !== stream)
        fail('wallet: no signed change is applied without a consumed requestId', at, stream);
      if (consumption!.sessionId !== sessionId)
        fail('wallet: a signed change is applied for the session that signed it', `${at} ${String(sessionId)}`, stream);
      signed = { requestId, sessionId };
      continue;
    }
    if (event.type !== 'CardStateChanged') continue;
    const next = event.data.card.state;
    const holderChange = next === 'FROZEN' || state === 'FROZEN';
    if ((sessionId !== undefined || holderChange) && signed?.sessionId !== sessionId)
      fail('wallet: no signed change is applied without a consumed requestId', `${state} -> ${next}`, stream);
    state = next;
  }
}

/** A wallet's state as a fresh fold of its stream up to `revision` gives it. */
function freshFold(log: MemoryLog, stream: string, revision: bigint): WalletAuthState {
  let state = walletAuthDecider.initialState();
  for (const e of log.streams.get(stream) ?? []) {
    if (e.revision > revision) break;
    state = walletAuthDecider.evolve(state, { type: e.type, data: e.data } as unknown as WalletAuthEvent);
  }
  return state;
}

const encoded = (state: WalletAuthState) =>
  JSON.stringify(walletAuthSnapshot.encode(state), (_key, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value,
  );

/**
 * The wallet state each process decides on (its runner's folded state, brought up to date event by event) equals a
 * fresh fold of the stream up to the same revision: sessions, credentials, challenges and counters alike. Checked
 * for the streams no command of the process is deciding on at the time.
 */
function checkWalletFolds(log: MemoryLog, world: World, processes: SimProcess[]): void {
  for (const [index, process] of processes.entries()) {
    const { cache, locks } = process.runner as unknown as {
      cache: RecentCache<string, Folded<WalletAuthState>>;
      locks: { tails: Map<string, unknown> };
    };
    for (const wallet of world.wallets) {
      const stream = streams.wallet(wallet.accountId);
      // A stream with a decision in flight holds that decision's events ahead of its append (command-runner.ts).
      if (!cache.has(stream) || locks.tails.has(stream)) continue;
      const folded = cache.get(stream)!;
      const fresh = freshFold(log, stream, folded.revision);
      const [held, folded_] = [JSON.parse(encoded(folded.state)), JSON.parse(encoded(fresh))] as Record<
        string,
        unknown
      >[];
      const differ = Object.keys({ ...held, ...folded_ }).filter(
        (key) => JSON.stringify(held[key]) !== JSON.stringify(folded_[key]),
      );
      if (differ.length > 0)
        fail(
          'wallet: the state a process decides on equals a fresh fold of its stream',
          `process ${index} at revision ${folded.revision}: ${differ
            .map((key) => `${key} ${JSON.stringify(held[key])} != ${JSON.stringify(folded_[key])}`)
            .join('; ')}`,
          stream,
        );
    }
  }
}

/** The embedded wallets' invariants (see workload-wallet.ts). */
export function checkWallets(log: MemoryLog, world: World, processes: SimProcess[]): void {
  for (const wallet of world.wallets) checkWalletCard(log, wallet, checkWalletStream(log, world, wallet));
  checkWalletFolds(log, world, processes);
}
