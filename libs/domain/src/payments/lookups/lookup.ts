import type { Decider } from '../../decider.js';
import { conflict, invalid } from '../../errors.js';
import { conversionRate, priceBySending, toDisplayNumber, type Rail } from '../rates/rate-table.js';

/**
 * A receiver lookup: what the receiving side accepts (currencies) and which payer data it needs
 * before a quote can be made. Lookups are stored (stream `lookup-<uuid>`) so a quote can refer
 * to one, and they expire.
 */
export const LOOKUP_TTL_MS = 15 * 60_000;

export type LookupKind = 'UMA_ADDRESS' | 'EXTERNAL_ACCOUNT';

/** Sandbox UMA receivers: `$<outcome>.<currency>@<domain>`. */
export type SandboxUmaOutcome = 'SUCCESS' | 'PENDING_LONG' | 'FAIL_COMPLIANCE';
export const SANDBOX_UMA_CURRENCIES = ['USD', 'EUR', 'MXN'] as const;

const SANDBOX_UMA = /^\$(success|pending\.long|fail\.compliance)\.(USD|EUR|MXN)@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)$/;
const OUTCOMES: Record<string, SandboxUmaOutcome> = {
  success: 'SUCCESS',
  'pending.long': 'PENDING_LONG',
  'fail.compliance': 'FAIL_COMPLIANCE',
};

export function parseSandboxUmaAddress(
  address: string,
): { outcome: SandboxUmaOutcome; currency: string; domain: string } | undefined {
  const m = SANDBOX_UMA.exec(address);
  return m ? { outcome: OUTCOMES[m[1]], currency: m[2], domain: m[3].toLowerCase() } : undefined;
}

/**
 * Payer data the receiving side requires, by receiving currency (sandbox rule): USD needs the
 * full name; EUR adds the birth date; every other currency adds the nationality too.
 */
export function requiredPayerDataFieldsFor(code: string): string[] {
  if (code === 'USD') return ['FULL_NAME'];
  if (code === 'EUR') return ['FULL_NAME', 'BIRTH_DATE'];
  return ['FULL_NAME', 'BIRTH_DATE', 'NATIONALITY'];
}

export const lookupStream = (lookupId: string) => `lookup-${lookupId.split(':')[1]}`;

export interface LookupRecord {
  id: string;
  platformId: string;
  kind: LookupKind;
  receiverUmaAddress?: string;
  accountId?: string;
  /** Receiving currencies, as codes. */
  supportedCurrencies: string[];
  requiredPayerDataFields: string[];
  counterpartyInformation: Record<string, string>;
  /** The sender named on the lookup (`?customerId`, or the customer holding `?senderUmaAddress`). */
  senderCustomerId?: string;
  senderUmaAddress?: string;
  /** What each receiving currency costs from the sender's currency, at lookup time (amounts as decimal strings). */
  currencyPreferences?: CurrencyPreference[];
  sandboxOutcome?: SandboxUmaOutcome;
  createdAt: string;
  expiresAt: string;
}

export interface LookupState {
  lookup?: LookupRecord;
}

export type LookupEvent = { type: 'LookupCreated'; data: { platformId: string; lookup: LookupRecord } };
export type LookupCommand = { type: 'CreateLookup'; lookup: LookupRecord };

export const lookupDecider: Decider<LookupState, LookupCommand, LookupEvent> = {
  initialState: () => ({}),
  decide(cmd, state) {
    if (state.lookup) throw conflict('LOOKUP_EXISTS', `lookup ${cmd.lookup.id} already exists`);
    return [{ type: 'LookupCreated', data: { platformId: cmd.lookup.platformId, lookup: cmd.lookup } }];
  },
  evolve(state, event) {
    return event.type === 'LookupCreated' ? { lookup: event.data.lookup } : state;
  },
};

export const isLookupExpired = (lookup: LookupRecord, now: Date) => Date.parse(lookup.expiresAt) <= now.getTime();

/** A receiving currency with the estimated rate from the sender's currency and the amounts that can be received. */
export interface CurrencyPreference {
  code: string;
  estimatedExchangeRate: number;
  /** Smallest unit of `code`. */
  min: string;
  max: string;
}

/**
 * What the receiver can be paid in on `rail`, from `senderCurrency`: the rate (after the margin, not locked) and the
 * receiving amounts the rail's sending limits allow (at least 1 unit).
 */
export function currencyPreferences(
  senderCurrency: string,
  codes: readonly string[],
  rail: Rail,
): CurrencyPreference[] {
  return codes.map((code) => {
    const { minSendingAmount, maxSendingAmount } = priceBySending(senderCurrency, code, rail, 0n);
    const min = priceBySending(senderCurrency, code, rail, minSendingAmount).receivingAmount;
    const max = priceBySending(senderCurrency, code, rail, maxSendingAmount).receivingAmount;
    return {
      code,
      estimatedExchangeRate: toDisplayNumber(conversionRate(senderCurrency, code)),
      min: (min > 0n ? min : 1n).toString(),
      max: (max > min ? max : min + 1n).toString(),
    };
  });
}

/** A UMA receiver cannot be the sender itself. */
export function requireOtherReceiver(receiverUmaAddress: string, senderUmaAddresses: (string | undefined)[]): void {
  const receiver = receiverUmaAddress.toLowerCase();
  if (senderUmaAddresses.some((a) => a !== undefined && a.toLowerCase() === receiver))
    throw invalid('SELF_PAYMENT', 'the sender cannot pay its own UMA address', 'receiverUmaAddress');
}

/** A lookup made for a sender can only be used by a quote of that sender. */
export function requireLookupSender(lookup: LookupRecord, customerId: string): void {
  if (lookup.senderCustomerId !== undefined && lookup.senderCustomerId !== customerId)
    throw invalid('LOOKUP_MISMATCH', 'the lookup was made for another sender', 'lookupId');
}
