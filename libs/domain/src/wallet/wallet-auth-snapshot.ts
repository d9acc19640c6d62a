import type { SnapshotCodec } from '../snapshot-codec.js';
import type { WalletAuthState } from './wallet-auth-state.js';

/** The maps of a wallet's state, written as `[key, value]` entries. */
const MAPS = ['authMethods', 'sessions', 'signedRetries', 'passkeyChallenges', 'otpFailedAt'] as const;
type MapField = (typeof MAPS)[number];

type EncodedWallet = Omit<WalletAuthState, MapField> & { [K in MapField]: [string, unknown][] };

/**
 * A wallet's auth state in a snapshot: its records are plain JSON already (public keys, ids, ISO times), so the
 * maps become entry lists (in their order: challenges are pruned oldest first) and everything else is kept as it is
 * (the count of prunes since the last sweep included).
 * Ended sessions and old challenges are pruned by evolve, so the state holds at most a day's worth of them however
 * long the stream grows.
 */
export const walletAuthSnapshot: SnapshotCodec<WalletAuthState> = {
  name: 'wallet-auth',
  // 2: the state counts its prunes since the last sweep (a snapshot without the count would sweep at another time).
  version: 2,
  encode(state) {
    const encoded: Record<string, unknown> = { ...state };
    for (const field of MAPS) encoded[field] = [...state[field].entries()];
    return encoded;
  },
  decode(encoded) {
    const e = encoded as EncodedWallet;
    const state = { ...e } as unknown as WalletAuthState;
    for (const field of MAPS) (state as unknown as Record<MapField, Map<string, unknown>>)[field] = new Map(e[field]);
    state.otpIssuedAt = [...e.otpIssuedAt];
    return state;
  },
};
