import type { Decider } from '../decider.js';
import { DomainError, conflict, invalid } from '../errors.js';
import { formatAmount, MAX_JSON_AMOUNT } from '../primitives.js';
import { plantedFaults } from '../planted-faults.js';
import { ledgerSnapshot } from './ledger-snapshot.js';
import {
  ledgerAccount,
  SettledTransfers,
  transferRecord,
  type LedgerAccount,
  type LedgerAccountSpec,
  type LedgerState,
  type TransferRecord,
} from './ledger-state.js';

export type { LedgerAccount, LedgerAccountSpec, LedgerState, TransferRecord } from './ledger-state.js';

export type LedgerEvent =
  | { type: 'LedgerAccountOpened'; data: LedgerAccountSpec }
  | {
      type: 'TransferCreated';
      data: {
        id: string;
        debitAccountId: string;
        creditAccountId: string;
        amount: string;
        currency: string;
        pending: boolean;
        code: string;
        reference?: string;
        createdAt: string;
      };
    }
  | { type: 'PendingTransferPosted'; data: { id: string; pendingId: string; amount: string; createdAt: string } }
  | { type: 'PendingTransferVoided'; data: { id: string; pendingId: string; createdAt: string } };

export type LedgerCommand =
  | {
      type: 'CreateTransfer';
      id: string;
      debit: LedgerAccountSpec;
      credit: LedgerAccountSpec;
      amount: bigint;
      pending?: boolean;
      /** What the transfer is for, e.g. SANDBOX_FUNDING, CARD_AUTHORIZATION. */
      code: string;
      reference?: string;
      now: string;
    }
  /** Posts a pending transfer, fully or partially (the remainder is released). */
  | { type: 'PostPendingTransfer'; id: string; pendingId: string; amount?: bigint; now: string }
  | { type: 'VoidPendingTransfer'; id: string; pendingId: string; now: string };

export const initialLedgerState = (): LedgerState => ({
  accounts: new Map(),
  transfers: new Map(),
  settled: SettledTransfers.empty,
});

/** Whether a transfer id was used, as a transfer or as the posting or voiding of one. */
export function hasTransfer(state: LedgerState, id: string): boolean {
  return state.transfers.has(id) || state.settled.has(id);
}

/** Whether a transfer is pending and how it was resolved; undefined for an unknown id. */
export function transferStatus(
  state: LedgerState,
  id: string,
): Pick<TransferRecord, 'pending' | 'resolution'> | undefined {
  const t = state.transfers.get(id) ?? state.settled.get(id);
  return t && { pending: t.pending, ...(t.resolution ? { resolution: t.resolution } : {}) };
}

/** What an account can spend now: posted credits less posted and pending debits. */
export function available(a: LedgerAccount): bigint {
  return a.creditsPosted - a.debitsPosted - a.debitsPending;
}

/** The posted balance as the API shows it (credits increase a customer's balance). */
export function postedBalance(a: Pick<LedgerAccount, 'creditsPosted' | 'debitsPosted'>): bigint {
  return a.creditsPosted - a.debitsPosted;
}

/**
 * Whether every balance of an account the API may state stays within 2^53-1 either way, whichever of its holds are
 * posted or voided: from what is available (every outgoing hold posted) up to the posted balance with every incoming
 * hold posted. The running totals themselves (debits, credits) are not bounded: they are stated as decimal strings.
 */
export function withinStatedRange(a: LedgerAccount): boolean {
  const highest = a.creditsPosted + a.creditsPending - a.debitsPosted;
  return highest <= MAX_JSON_AMOUNT && available(a) >= -MAX_JSON_AMOUNT;
}

/**
 * Refuses a movement that would take a total or balance of either account past what the API can state (the
 * movement is folded into copies of the two accounts first): nothing is decided, nothing moves.
 */
function assertStatable(
  accounts: readonly LedgerAccount[],
  change: (debit: LedgerAccount, credit: LedgerAccount) => void,
): void {
  const [debit, credit] = accounts.map((a) => ({ ...a }));
  change(debit, credit);
  for (const after of [debit, credit]) {
    if (withinStatedRange(after)) continue;
    const message =
      `the transfer would take the balance of account ${after.id} past 2^53-1, ` +
      'the largest amount the API can state';
    throw new DomainError('invalid', 'AMOUNT_OUT_OF_RANGE', message, {
      errors: [{ field: 'amount', constraint: 'AMOUNT_OUT_OF_RANGE', message }],
    });
  }
}

function account(state: LedgerState, spec: LedgerAccountSpec): { account: LedgerAccount; opened?: LedgerEvent } {
  const existing = state.accounts.get(spec.id);
  if (existing) {
    if (existing.currency !== spec.currency) {
      throw invalid(
        'CURRENCY_MISMATCH',
        `account ${spec.id} is denominated in ${existing.currency}, not ${spec.currency}`,
      );
    }
    return { account: existing };
  }
  const fresh: LedgerAccount = { ...spec, debitsPosted: 0n, creditsPosted: 0n, debitsPending: 0n, creditsPending: 0n };
  return { account: fresh, opened: { type: 'LedgerAccountOpened', data: { ...spec } } };
}

function decideCreate(cmd: Extract<LedgerCommand, { type: 'CreateTransfer' }>, state: LedgerState): LedgerEvent[] {
  const fields = {
    debitAccountId: cmd.debit.id,
    creditAccountId: cmd.credit.id,
    amount: cmd.amount,
    pending: Boolean(cmd.pending),
  };
  const previous = state.transfers.get(cmd.id);
  const settled = previous ? undefined : state.settled.get(cmd.id);
  if (previous || settled) {
    // Idempotent by id: the same transfer again is a no-op, a different one under the same id is a conflict.
    const same = previous
      ? previous.debitAccountId === fields.debitAccountId &&
        previous.creditAccountId === fields.creditAccountId &&
        previous.amount === fields.amount &&
        previous.pending === fields.pending
      : settled?.sameAs(fields) === true;
    if (same) return [];
    throw conflict('TRANSFER_EXISTS', `transfer ${cmd.id} already exists with different fields`);
  }
  if (cmd.amount <= 0n) throw invalid('INVALID_AMOUNT', 'amount must be greater than zero', 'amount');
  if (cmd.debit.id === cmd.credit.id) throw invalid('SAME_ACCOUNT', 'debit and credit accounts must differ');
  if (cmd.debit.currency !== cmd.credit.currency) {
    throw invalid('CURRENCY_MISMATCH', `cannot move ${cmd.debit.currency} into a ${cmd.credit.currency} account`);
  }
  const debit = account(state, cmd.debit);
  const credit = account(state, cmd.credit);
  if (!debit.account.allowNegative && available(debit.account) < cmd.amount) {
    const asked = formatAmount(cmd.amount, cmd.debit.currency);
    throw invalid('INSUFFICIENT_FUNDS', `account ${cmd.debit.id} has insufficient funds for ${asked}`);
  }
  assertStatable([debit.account, credit.account], (d, c) => {
    if (cmd.pending) {
      d.debitsPending += cmd.amount;
      c.creditsPending += cmd.amount;
    } else {
      d.debitsPosted += cmd.amount;
      c.creditsPosted += cmd.amount;
    }
  });
  const events: LedgerEvent[] = [];
  if (debit.opened) events.push(debit.opened);
  if (credit.opened) events.push(credit.opened);
  events.push({
    type: 'TransferCreated',
    data: {
      id: cmd.id,
      debitAccountId: cmd.debit.id,
      creditAccountId: cmd.credit.id,
      amount: cmd.amount.toString(),
      currency: cmd.debit.currency,
      pending: Boolean(cmd.pending),
      code: cmd.code,
      ...(cmd.reference ? { reference: cmd.reference } : {}),
      createdAt: cmd.now,
    },
  });
  return events;
}

function pendingTransfer(state: LedgerState, pendingId: string): Pick<TransferRecord, 'pending' | 'resolution'> {
  const t = transferStatus(state, pendingId);
  if (!t || !t.pending) throw invalid('PENDING_TRANSFER_NOT_FOUND', `no pending transfer ${pendingId}`);
  return t;
}

/**
 * Whether `cmd` (a post or a void of a pending transfer) repeats the resolution already recorded under its id, so
 * that it decides nothing; a pending transfer already resolved any other way is a 409.
 */
function alreadyResolvedAs(
  state: LedgerState,
  cmd: { id: string; pendingId: string },
  resolution: NonNullable<TransferRecord['resolution']>,
): boolean {
  const t = pendingTransfer(state, cmd.pendingId);
  if (t.resolution === resolution && hasTransfer(state, cmd.id)) return true;
  if (t.resolution)
    throw conflict(
      'PENDING_TRANSFER_RESOLVED',
      `pending transfer ${cmd.pendingId} is already ${t.resolution.toLowerCase()}`,
    );
  return false;
}

export function decideLedger(cmd: LedgerCommand, state: LedgerState): LedgerEvent[] {
  switch (cmd.type) {
    case 'CreateTransfer':
      return decideCreate(cmd, state);
    case 'PostPendingTransfer': {
      if (alreadyResolvedAs(state, cmd, 'POSTED')) return [];
      // A pending transfer not yet resolved is always kept as a record.
      const pending = transferRecord(state, cmd.pendingId);
      const amount = cmd.amount ?? pending.amount;
      if (amount <= 0n || amount > pending.amount)
        throw invalid('INVALID_AMOUNT', 'posted amount must be between 1 and the pending amount', 'amount');
      const accounts = [pending.debitAccountId, pending.creditAccountId].map((id) => ledgerAccount(state, id));
      assertStatable(accounts, (d, c) => {
        d.debitsPending -= pending.amount;
        c.creditsPending -= pending.amount;
        d.debitsPosted += amount;
        c.creditsPosted += amount;
      });
      return [
        {
          type: 'PendingTransferPosted',
          data: { id: cmd.id, pendingId: cmd.pendingId, amount: amount.toString(), createdAt: cmd.now },
        },
      ];
    }
    case 'VoidPendingTransfer': {
      if (alreadyResolvedAs(state, cmd, 'VOIDED')) return [];
      return [{ type: 'PendingTransferVoided', data: { id: cmd.id, pendingId: cmd.pendingId, createdAt: cmd.now } }];
    }
  }
}

/** Applies committed ledger events; mutates in place (see Decider). */
export function evolveLedger(state: LedgerState, event: LedgerEvent): LedgerState {
  switch (event.type) {
    case 'LedgerAccountOpened':
      state.accounts.set(event.data.id, {
        ...event.data,
        debitsPosted: 0n,
        creditsPosted: 0n,
        debitsPending: 0n,
        creditsPending: 0n,
      });
      break;
    case 'TransferCreated': {
      const d = event.data;
      const amount = BigInt(d.amount);
      const debit = ledgerAccount(state, d.debitAccountId);
      const credit = ledgerAccount(state, d.creditAccountId);
      if (d.pending) {
        debit.debitsPending += amount;
        credit.creditsPending += amount;
      } else {
        debit.debitsPosted += amount;
        credit.creditsPosted += plantedFaults.unbalancedTransfer ? amount + 1n : amount;
      }
      state.transfers.set(d.id, { ...d, amount, pending: d.pending });
      break;
    }
    case 'PendingTransferPosted':
    case 'PendingTransferVoided': {
      const t = transferRecord(state, event.data.pendingId);
      const debit = ledgerAccount(state, t.debitAccountId);
      const credit = ledgerAccount(state, t.creditAccountId);
      debit.debitsPending -= t.amount;
      credit.creditsPending -= t.amount;
      if (event.type === 'PendingTransferPosted') {
        const posted = BigInt(event.data.amount);
        debit.debitsPosted += posted;
        credit.creditsPosted += posted;
        t.resolution = 'POSTED';
        t.postedAmount = posted;
      } else {
        t.resolution = 'VOIDED';
      }
      state.transfers.set(event.data.id, { ...t, id: event.data.id, pending: false });
      break;
    }
  }
  return state;
}

export const ledgerDecider: Decider<LedgerState, LedgerCommand, LedgerEvent> = {
  initialState: initialLedgerState,
  evolve: evolveLedger,
  decide: decideLedger,
  snapshot: ledgerSnapshot,
};
