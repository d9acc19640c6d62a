import { derivedUuid } from '../transactions/payment-plan.js';
import type { BankEntry, BankRailState, EntryProblem, RailCredit } from './bank-rail-types.js';

/**
 * The references money paid in may carry: an internal account's funding reference (`FUND-` and 8 characters, from its
 * fundingPaymentInstructions) or a real-time funded quote's reference (`TX-` and 12, from its paymentInstructions).
 */
export const FUNDING_REFERENCE = /\b(?:FUND-[0-9A-F]{8}|TX-[0-9A-F]{12})\b/;

/**
 * Where money paid in with each reference goes: the internal account (`InternalAccount:…`) or the pending quote
 * (`Quote:…`) showing that reference, when there is one.
 */
export type FundingAccounts = Readonly<Record<string, string>>;

/** The funding references named by the credits of a notification (the rail resolves them before recording it). */
export function fundingReferences(entries: BankEntry[]): string[] {
  const found = entries
    .filter((e) => e.creditDebit === 'CRDT' && !e.endToEndId)
    .map((e) => FUNDING_REFERENCE.exec(e.remittanceInformation ?? '')?.[0])
    .filter((r): r is string => r !== undefined);
  return [...new Set(found)];
}

export const bankCreditId = (platformId: string, entryKey: string) =>
  `BankCredit:${derivedUuid(`${platformId}/${entryKey}`)}`;

/**
 * A booked credit that names no payment (no end-to-end id): money a customer paid in. It funds the account whose
 * funding reference its remittance carries, or waits in suspense. The same bank entry in another file is refused.
 */
export function creditOf(
  entry: BankEntry,
  state: BankRailState,
  context: { platformId: string; fundingAccounts: FundingAccounts },
): RailCredit | EntryProblem {
  const entryKey = `credit/${entry.bankReference ?? entry.entryReference}`;
  const earlier = state.appliedEntries.get(entryKey);
  if (earlier)
    return { entry: `entry ${entry.entryReference}`, reason: `this credit was already taken from ${earlier}` };
  const reference = FUNDING_REFERENCE.exec(entry.remittanceInformation ?? '')?.[0];
  const target = reference ? context.fundingAccounts[reference] : undefined;
  // A quote is funded once: a second payment naming it waits in suspense.
  const quoteId = target?.startsWith('Quote:') && !state.fundedQuotes.has(target) ? target : undefined;
  const accountId = target?.startsWith('InternalAccount:') ? target : undefined;
  return {
    id: bankCreditId(context.platformId, entryKey),
    entryKey,
    entryReference: entry.entryReference,
    amount: entry.amount,
    currency: entry.currency,
    bookingDate: entry.bookingDate,
    ...(entry.remittanceInformation ? { remittanceInformation: entry.remittanceInformation } : {}),
    ...(entry.counterparty ? { payer: entry.counterparty } : {}),
    ...(accountId ? { accountId } : {}),
    ...(quoteId ? { quoteId } : {}),
    movement: {
      reference: entry.entryReference,
      amount: entry.amount,
      creditDebit: 'CRDT',
      bookingDate: entry.bookingDate,
    },
  };
}
