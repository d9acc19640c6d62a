import type { WalletAuthEvent } from '#domain/wallet/wallet-auth-state.js';
import type { RecordedEvent } from '#event-store/event-store.js';
import type { ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';
import type { InternalAccountDoc } from '../internal-account-docs.js';
import { amendDoc } from '../amend-doc.js';

/**
 * Wallet events that change the InternalAccount resource (applied by the internal-account projection, which owns it).
 */
export const WALLET_ACCOUNT_EVENTS = ['WalletPrivacyChanged'];

export async function applyWalletAccountEvent(recorded: RecordedEvent, tx: ProjectionTransaction): Promise<void> {
  const event = { type: recorded.type, data: recorded.data } as unknown as WalletAuthEvent;
  if (event.type !== 'WalletPrivacyChanged') return;
  const { accountId, privateEnabled, updatedAt } = event.data;
  await amendDoc<InternalAccountDoc>(tx, Collections.internalAccounts, accountId, { privateEnabled, updatedAt });
}
