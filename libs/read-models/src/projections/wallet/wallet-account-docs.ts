import type { WalletAuthEvent } from '#domain/wallet/wallet-auth-state.js';
import { amendDoc, type EventHandlers } from '../../projection.js';
import { Collections } from '../collections.js';
import type { InternalAccountDoc } from '../internal-account-docs.js';

/**
 * Wallet events that change the InternalAccount resource (applied by the internal-account projection, which owns it).
 */
export const walletAccountHandlers: EventHandlers<WalletAuthEvent> = {
  WalletPrivacyChanged: async ({ data: { accountId, privateEnabled, updatedAt } }, tx) => {
    await amendDoc<InternalAccountDoc>(tx, Collections.internalAccounts, accountId, { privateEnabled, updatedAt });
  },
};
