import { invalid } from '../errors.js';
import type { HolderAccount } from './card-types.js';

/** At most this many funding sources per card (authorization tries them in order). */
export const MAX_FUNDING_SOURCES = 10;

/** A refused funding source: its field names it. */
const fail = (code: string, message: string, field: string) => invalid(code, message, field);

/**
 * The funding-source rules: at least one, no repeats, each an open account of the cardholder, all
 * in one currency (the card's, once it has one). Returns that currency. Accounts that are still
 * PENDING (holder KYC not yet approved) may be bound; authorization skips accounts that are not
 * ACTIVE at the time.
 */
export function checkFundingSources(
  ids: readonly string[],
  holderAccounts: readonly HolderAccount[],
  cardCurrency?: string,
): string {
  if (ids.length === 0)
    throw fail('FUNDING_SOURCES_REQUIRED', 'fundingSources must name at least one internal account', 'fundingSources');
  if (ids.length > MAX_FUNDING_SOURCES)
    throw fail(
      'TOO_MANY_FUNDING_SOURCES',
      `a card has at most ${MAX_FUNDING_SOURCES} funding sources`,
      'fundingSources',
    );
  const owned = new Map(holderAccounts.map((a) => [a.id, a]));
  const seen = new Set<string>();
  let currency = cardCurrency;
  ids.forEach((id, i) => {
    const field = `fundingSources[${i}]`;
    if (seen.has(id)) throw fail('DUPLICATE_FUNDING_SOURCE', `${id} is listed more than once`, field);
    seen.add(id);
    const account = owned.get(id);
    // Unknown ids, other customers' and other platforms' accounts look the same: not the holder's.
    if (!account) throw fail('FUNDING_SOURCE_NOT_OWNED', `${id} is not an internal account of the cardholder`, field);
    if (account.status === 'CLOSED') throw fail('FUNDING_SOURCE_CLOSED', `${id} is closed`, field);
    currency ??= account.currency;
    if (account.currency !== currency) {
      throw fail(
        'FUNDING_SOURCE_CURRENCY_MISMATCH',
        `${id} is denominated in ${account.currency}; every funding source must be in ${currency}`,
        field,
      );
    }
  });
  return currency!;
}

/** The card's owning wallet account: the holder's open EMBEDDED_WALLET account in the card currency. */
export function owningWalletAccount(holderAccounts: readonly HolderAccount[], currency: string): string {
  const wallet = holderAccounts.find(
    (a) => a.type === 'EMBEDDED_WALLET' && a.currency === currency && a.status !== 'CLOSED',
  );
  if (!wallet) {
    throw fail(
      'CARDHOLDER_WALLET_REQUIRED',
      `the cardholder needs an EMBEDDED_WALLET account in ${currency}: its sessions authorize changes to the card`,
      'customerId',
    );
  }
  return wallet.id;
}
