import type { LedgerEvent } from '#domain/ledger/ledger.js';
import type { CustomerEvent } from '#domain/customers/customer.js';
import type { PlatformEvent } from '#domain/platforms/platform.js';
import type { WalletAuthEvent } from '#domain/wallet/wallet-auth-state.js';
import { amendDoc, defineProjection, type EventOfType } from '../../projection.js';
import type { ProjectionTransaction } from '../../read-model-store.js';
import { Collections } from '../collections.js';
import { listIndexes } from '../list-indexes.js';
import { openAccountDoc, type InternalAccountDoc } from '../internal-account-docs.js';
import { walletAccountHandlers } from '../wallet/wallet-account-docs.js';

type Totals = InternalAccountDoc['ledger'];

async function adjust(
  tx: ProjectionTransaction,
  accountId: string,
  at: string,
  change: (t: Totals) => Totals,
): Promise<void> {
  const doc = await tx.get<InternalAccountDoc>(Collections.internalAccounts, accountId);
  if (!doc) return;
  const ledger = change(doc.ledger);
  const amount = BigInt(ledger.creditsPosted) - BigInt(ledger.debitsPosted);
  tx.put(Collections.internalAccounts, {
    ...doc,
    ledger,
    balance: { ...doc.balance, amount: Number(amount) },
    updatedAt: at,
  });
}

const add = (a: string, b: bigint) => (BigInt(a) + b).toString();

/**
 * Internal accounts (customer and platform) with their balances from ledger transfers: one
 * projection owns the collection, so an account always exists before its first transfer is applied. The pending
 * transfer's amount is looked
 * up from its own TransferCreated document (`ledger_transfers`) so posts and voids can release it.
 */
type AccountEvent = LedgerEvent | CustomerEvent | PlatformEvent | WalletAuthEvent;

/** A pending transfer posted or voided: its hold is released, and what was posted moves the posted totals. */
async function resolvePending(
  event: EventOfType<LedgerEvent, 'PendingTransferPosted' | 'PendingTransferVoided'>,
  tx: ProjectionTransaction,
): Promise<void> {
  const pending = await tx.get<{ id: string; amount: string; debitAccountId: string; creditAccountId: string }>(
    Collections.ledgerTransfers,
    event.data.pendingId,
  );
  if (!pending) return;
  const held = BigInt(pending.amount);
  const posted = event.type === 'PendingTransferPosted' ? BigInt(event.data.amount) : 0n;
  const at = event.data.createdAt;
  await adjust(tx, pending.debitAccountId, at, (t) => ({
    ...t,
    debitsPending: add(t.debitsPending, -held),
    debitsPosted: add(t.debitsPosted, posted),
  }));
  await adjust(tx, pending.creditAccountId, at, (t) => ({
    ...t,
    creditsPending: add(t.creditsPending, -held),
    creditsPosted: add(t.creditsPosted, posted),
  }));
  tx.put(Collections.ledgerTransfers, {
    ...pending,
    status: event.type === 'PendingTransferPosted' ? 'POSTED' : 'VOIDED',
    ...(posted ? { postedAmount: posted.toString() } : {}),
    updatedAt: at,
  });
}

/**
 * Internal accounts (customer and platform) with their balances from ledger transfers: one
 * projection owns the collection, so an account always exists before its first transfer is applied. The pending
 * transfer's amount is looked
 * up from its own TransferCreated document (`ledger_transfers`) so posts and voids can release it.
 */
export const internalAccountProjection = defineProjection<AccountEvent>({
  name: 'internal-accounts',
  collections: [Collections.internalAccounts, Collections.ledgerTransfers],
  // Every transfer writes a ledger transfer and two balances.
  replayWeight: 50,
  // The list's filters (bench `lists`): a customer, a type, a currency. Lists are of the customers' accounts or the
  // platform's (`customerId` set or not), which the indexes cover: a count reads no document.
  indexes: [
    ...listIndexes(Collections.internalAccounts, ['customerId']),
    ...listIndexes(Collections.internalAccounts, [[], 'type', 'currency'], {
      covers: ['customerId'],
      counted: [[], 'type', 'currency'],
    }),
  ],
  on: {
    PlatformAccountOpened: ({ data }, tx) =>
      tx.put(Collections.internalAccounts, openAccountDoc({ ...data, status: 'ACTIVE' })),
    InternalAccountOpened: ({ data }, tx) => tx.put(Collections.internalAccounts, openAccountDoc({ ...data })),
    InternalAccountStatusChanged: async ({ data: { accountId, status, updatedAt } }, tx) => {
      await amendDoc<InternalAccountDoc>(tx, Collections.internalAccounts, accountId, { status, updatedAt });
    },
    TransferCreated: async ({ data: d }, tx, recorded) => {
      const amount = BigInt(d.amount);
      tx.put(Collections.ledgerTransfers, { ...d, platformId: String(recorded.metadata.platformId ?? '') });
      await adjust(tx, d.debitAccountId, d.createdAt, (t) =>
        d.pending
          ? { ...t, debitsPending: add(t.debitsPending, amount) }
          : { ...t, debitsPosted: add(t.debitsPosted, amount) },
      );
      await adjust(tx, d.creditAccountId, d.createdAt, (t) =>
        d.pending
          ? { ...t, creditsPending: add(t.creditsPending, amount) }
          : { ...t, creditsPosted: add(t.creditsPosted, amount) },
      );
    },
    PendingTransferPosted: resolvePending,
    PendingTransferVoided: resolvePending,
    ...walletAccountHandlers,
  },
});
