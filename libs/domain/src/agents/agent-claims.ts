import { createHash } from 'node:crypto';
import type { Decider, Unset } from '../decider.js';
import { conflict } from '../errors.js';

/**
 * A claim on one key (a device code, an access token's hash) that points to an agent. Appended
 * once with expected revision "no stream", so a key can never point to two agents; the agent's
 * own stream decides whether the code is still redeemable or the token still valid.
 */
/** A key claimed for an agent; before its claim, nothing. */
interface AgentClaim {
  platformId: string;
  agentId: string;
}

export type AgentClaimState = AgentClaim | Unset<AgentClaim>;

export type AgentClaimEvent = {
  type: 'AgentKeyClaimed';
  data: { platformId: string; agentId: string; kind: 'DEVICE_CODE' | 'ACCESS_TOKEN' };
};
export type AgentClaimCommand = {
  type: 'ClaimAgentKey';
  platformId: string;
  agentId: string;
  kind: 'DEVICE_CODE' | 'ACCESS_TOKEN';
};

export const agentClaimDecider: Decider<AgentClaimState, AgentClaimCommand, AgentClaimEvent> = {
  initialState: (): AgentClaimState => ({}),
  decide(cmd, state) {
    if (state.agentId) throw conflict('CONFLICT', 'this key is already claimed');
    return [{ type: 'AgentKeyClaimed', data: { platformId: cmd.platformId, agentId: cmd.agentId, kind: cmd.kind } }];
  },
  evolve(state, event) {
    return { platformId: event.data.platformId, agentId: event.data.agentId };
  },
};

/**
 * Device codes are kept only as their SHA-256 (hex): the plain code appears only in the answer that issues it. A
 * code's claim stream is named by that hash (claims from before codes were hashed are named by the plain code).
 */
export const hashDeviceCode = (code: string) => createHash('sha256').update(code, 'utf8').digest('hex');
export const deviceCodeStream = (codeHashOrLegacyCode: string) => `agentdevicecode-${codeHashOrLegacyCode}`;
/** Keyed by the token's SHA-256: the token itself is never stored. */
export const accessTokenStream = (tokenHash: string) => `agenttoken-${tokenHash}`;

/** Unambiguous characters (no 0/O, 1/I/L) for codes people read and type. */
const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** A human-readable device code such as `PAY-AGENT-X7K9-M2P4` from 8 random bytes. */
export function deviceCodeFrom(bytes: Uint8Array): string {
  const chars = Array.from(bytes.slice(0, 8), (b) => ALPHABET[b % ALPHABET.length]).join('');
  return `PAY-AGENT-${chars.slice(0, 4)}-${chars.slice(4, 8)}`;
}

export const DEVICE_CODE_LIFETIME_MS = 24 * 3600 * 1000;
export const ACCESS_TOKEN = /^gat_[0-9a-f]{40}$/;
export const DEVICE_CODE = /^PAY-AGENT-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/;
