/**
 * Receiving institutions by corridor (country and currency): the names to give as `bankName`
 * when creating an external account. The sandbox serves this fixed catalogue; a production
 * installation would fill it from its payout partners.
 */
export interface Discovery {
  /** Canonical name, the value of `bankName` on POST /customers/external-accounts. */
  bankName: string;
  displayName: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** ISO 4217 (or a crypto ticker). */
  currency: string;
}

const entry = (country: string, currency: string, bankName: string, displayName = bankName): Discovery => ({
  bankName,
  displayName,
  country,
  currency,
});

export const DISCOVERIES: readonly Discovery[] = [
  entry('AE', 'AED', 'Emirates NBD'),
  entry('AE', 'AED', 'First Abu Dhabi Bank'),
  entry('BR', 'BRL', 'Banco do Brasil'),
  entry('BR', 'BRL', 'Itau Unibanco', 'Itaú Unibanco'),
  entry('CA', 'CAD', 'RBC', 'Royal Bank of Canada'),
  entry('CA', 'CAD', 'TD Canada Trust'),
  entry('DE', 'EUR', 'Deutsche Bank'),
  entry('ES', 'EUR', 'Banco Santander'),
  entry('FR', 'EUR', 'BNP Paribas'),
  entry('GB', 'GBP', 'Barclays'),
  entry('GB', 'GBP', 'HSBC UK'),
  entry('IN', 'INR', 'HDFC Bank'),
  entry('IN', 'INR', 'SBI', 'State Bank of India'),
  entry('MX', 'MXN', 'BBVA Mexico', 'BBVA México'),
  entry('MX', 'MXN', 'Banorte'),
  entry('NG', 'NGN', 'Access Bank'),
  entry('NG', 'NGN', 'GTBank', 'Guaranty Trust Bank'),
  entry('PH', 'PHP', 'BDO Unibank'),
  entry('PH', 'PHP', 'BPI', 'Bank of the Philippine Islands'),
  entry('PH', 'PHP', 'GCash'),
  entry('US', 'USD', 'Chase', 'JPMorgan Chase Bank'),
  entry('US', 'USD', 'Bank of America'),
];

/**
 * The catalogue entries of a corridor. Either filter may be omitted (no filter: everything); codes
 * compare without regard to case; an unknown corridor has no entries. Ordered by country, currency, then name.
 */
export function discoveriesFor(filter: { country?: string; currency?: string }): Discovery[] {
  const country = filter.country?.toUpperCase();
  const code = filter.currency?.toUpperCase();
  return DISCOVERIES.filter((d) => (!country || d.country === country) && (!code || d.currency === code))
    .slice()
    .sort(
      (a, b) =>
        a.country.localeCompare(b.country) ||
        a.currency.localeCompare(b.currency) ||
        a.bankName.localeCompare(b.bankName),
    );
}
