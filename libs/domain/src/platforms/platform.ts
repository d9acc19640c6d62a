import type { Decider, Unset } from '../decider.js';
import { DomainError, conflict, invalid, notFound } from '../errors.js';
import { validateBankRails, type BankRailConfig } from '../payments/rails/bank-rails.js';
import type { Permission } from './permissions.js';
import { checkSpendingControls, type SpendingControls } from '../cards/card-spending.js';
import {
  mergeEmbeddedWalletConfig,
  validateSupportedCurrencies,
  type EmbeddedWalletConfig,
  type PlatformConfigChanges,
  type PlatformCurrencyConfig,
} from './platform-config.js';

/**
 * A platform is a tenant: it owns API tokens, settlement accounts (one per currency, allowed to
 * go negative because they mirror money outside the system) and every resource its tokens create.
 */
export interface ApiTokenState {
  id: string;
  name: string;
  secretHash: string;
  /** Absent on tokens from before permissions: they hold all. */
  permissions?: Permission[];
  createdAt: string;
  revokedAt?: string;
}

/** What a platform's stream holds from its creation on. */
interface PlatformRecord {
  id: string;
  name: string;
  sandbox: boolean;
  umaDomain: string;
  createdAt: string;
}

/** What every platform stream holds, before its creation too (empty then). */
interface PlatformHoldings {
  /** Set by PATCH /config; absent: the service's defaults. */
  supportedCurrencies?: PlatformCurrencyConfig[];
  embeddedWalletConfig?: EmbeddedWalletConfig;
  /** Production platforms' bank rails, one per currency (PATCH /config). */
  rails?: BankRailConfig[];
  /** Spending controls of the platform's cards without their own (PATCH /config). */
  cardSpendingControls?: SpendingControls | null;
  configUpdatedAt?: string;
  tokens: Map<string, ApiTokenState>;
  /** Settlement account id by currency. */
  settlementAccounts: Map<string, string>;
}

export type ExistingPlatform = { exists: true } & PlatformRecord & PlatformHoldings;

export type PlatformState = ({ exists: false } & Unset<PlatformRecord> & PlatformHoldings) | ExistingPlatform;

export type PlatformEvent =
  | {
      type: 'PlatformCreated';
      data: { platformId: string; name: string; sandbox: boolean; umaDomain: string; createdAt: string };
    }
  | {
      type: 'ApiTokenCreated';
      data: {
        platformId: string;
        tokenId: string;
        name: string;
        secretHash: string;
        permissions?: Permission[];
        createdAt: string;
      };
    }
  /** `changes` holds whole values (embeddedWalletConfig already merged with the stored one). */
  | { type: 'PlatformConfigUpdated'; data: { platformId: string; changes: PlatformConfigChanges; updatedAt: string } }
  | { type: 'ApiTokenRevoked'; data: { platformId: string; tokenId: string; revokedAt: string } }
  | {
      type: 'PlatformAccountOpened';
      data: {
        platformId: string;
        accountId: string;
        type: 'INTERNAL_FIAT' | 'INTERNAL_CRYPTO';
        currency: string;
        createdAt: string;
      };
    };

export type PlatformCommand =
  | {
      type: 'CreatePlatform';
      platformId: string;
      name: string;
      sandbox: boolean;
      umaDomain: string;
      settlementAccounts: { accountId: string; currency: string; crypto: boolean }[];
      now: string;
    }
  | {
      type: 'CreateApiToken';
      tokenId: string;
      name: string;
      secretHash: string;
      permissions: Permission[];
      now: string;
    }
  | { type: 'UpdatePlatformConfig'; changes: PlatformConfigChanges; now: string }
  | { type: 'RevokeApiToken'; tokenId: string; now: string };

const initialState = (): PlatformState => ({ exists: false, tokens: new Map(), settlementAccounts: new Map() });

/** The cards' default spending controls as a change (null removes them), checked. */
const cardControls = (controls: SpendingControls | null | undefined): PlatformConfigChanges =>
  controls === undefined ? {} : { cardSpendingControls: checkSpendingControls(controls, 'cardSpendingControls') };

function decide(cmd: PlatformCommand, state: PlatformState): PlatformEvent[] {
  if (cmd.type === 'CreatePlatform') {
    if (state.exists) throw conflict('PLATFORM_EXISTS', `platform ${cmd.platformId} already exists`);
    const base = { platformId: cmd.platformId };
    return [
      {
        type: 'PlatformCreated',
        data: { ...base, name: cmd.name, sandbox: cmd.sandbox, umaDomain: cmd.umaDomain, createdAt: cmd.now },
      },
      ...cmd.settlementAccounts.map((a): PlatformEvent => ({
        type: 'PlatformAccountOpened',
        data: {
          ...base,
          accountId: a.accountId,
          type: a.crypto ? 'INTERNAL_CRYPTO' : 'INTERNAL_FIAT',
          currency: a.currency,
          createdAt: cmd.now,
        },
      })),
    ];
  }
  if (!state.exists) throw new DomainError('not_found', 'PLATFORM_NOT_FOUND', 'platform not found');
  const platformId = state.id;
  switch (cmd.type) {
    case 'CreateApiToken':
      if (state.tokens.has(cmd.tokenId)) throw conflict('TOKEN_EXISTS', `token ${cmd.tokenId} already exists`);
      return [
        {
          type: 'ApiTokenCreated',
          data: {
            platformId,
            tokenId: cmd.tokenId,
            name: cmd.name,
            secretHash: cmd.secretHash,
            permissions: cmd.permissions,
            createdAt: cmd.now,
          },
        },
      ];
    case 'UpdatePlatformConfig': {
      const { umaDomain, supportedCurrencies, embeddedWalletConfig, rails, cardSpendingControls } = cmd.changes;
      if (supportedCurrencies) validateSupportedCurrencies(supportedCurrencies);
      if (rails) {
        if (state.sandbox && rails.length > 0)
          throw invalid('INVALID_INPUT', 'sandbox platforms move money by the sandbox rules, not bank rails', 'rails');
        validateBankRails(rails);
      }
      const changes: PlatformConfigChanges = {
        ...cardControls(cardSpendingControls),
        ...(rails ? { rails } : {}),
        ...(umaDomain !== undefined ? { umaDomain } : {}),
        ...(supportedCurrencies ? { supportedCurrencies } : {}),
        ...(embeddedWalletConfig
          ? { embeddedWalletConfig: mergeEmbeddedWalletConfig(state.embeddedWalletConfig, embeddedWalletConfig) }
          : {}),
      };
      if (Object.keys(changes).length === 0) return [];
      return [{ type: 'PlatformConfigUpdated', data: { platformId, changes, updatedAt: cmd.now } }];
    }
    case 'RevokeApiToken': {
      const token = state.tokens.get(cmd.tokenId);
      if (!token || token.revokedAt) throw notFound('API_TOKEN', cmd.tokenId);
      const active = [...state.tokens.values()].filter((t) => !t.revokedAt);
      if (active.length === 1) {
        throw conflict('LAST_TOKEN', 'the last active API token cannot be revoked; create another one first');
      }
      return [{ type: 'ApiTokenRevoked', data: { platformId, tokenId: cmd.tokenId, revokedAt: cmd.now } }];
    }
  }
}

function evolve(state: PlatformState, event: PlatformEvent): PlatformState {
  switch (event.type) {
    case 'PlatformCreated':
      return {
        ...state,
        exists: true,
        id: event.data.platformId,
        name: event.data.name,
        sandbox: event.data.sandbox,
        umaDomain: event.data.umaDomain,
        createdAt: event.data.createdAt,
      };
    case 'ApiTokenCreated':
      state.tokens.set(event.data.tokenId, {
        id: event.data.tokenId,
        name: event.data.name,
        secretHash: event.data.secretHash,
        ...(event.data.permissions ? { permissions: event.data.permissions } : {}),
        createdAt: event.data.createdAt,
      });
      return state;
    case 'PlatformConfigUpdated':
      // Only a created platform's configuration is updated.
      return state.exists ? { ...state, ...event.data.changes, configUpdatedAt: event.data.updatedAt } : state;
    case 'ApiTokenRevoked': {
      const t = state.tokens.get(event.data.tokenId);
      if (t) t.revokedAt = event.data.revokedAt;
      return state;
    }
    case 'PlatformAccountOpened':
      state.settlementAccounts.set(event.data.currency, event.data.accountId);
      return state;
  }
}

export const platformDecider: Decider<PlatformState, PlatformCommand, PlatformEvent> = { initialState, evolve, decide };
