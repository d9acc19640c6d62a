import { currency, type Currency } from '../primitives.js';

/**
 * UMA providers the sandbox knows: institutions reachable over UMA, with the regions and
 * currencies they serve. `allowListStatus` false marks a provider the service currently blocks
 * (payments to its addresses are refused); lists include them unless asked not to.
 */
export interface UmaProvider {
  name: string;
  supportedRegions: string[];
  domain: string;
  logoUrl: string;
  supportedCurrencies: Currency[];
  /** ISO 17442 Legal Entity Identifier (check digits valid). */
  lei: string;
  allowListStatus: boolean;
}

const provider = (
  name: string,
  slug: string,
  regions: string[],
  currencies: string[],
  lei: string,
  allowListStatus = true,
): UmaProvider => ({
  name,
  supportedRegions: regions,
  domain: `${slug}.example`,
  logoUrl: `https://${slug}.example/assets/logo.svg`,
  supportedCurrencies: currencies.map((code) => currency(code)),
  lei,
  allowListStatus,
});

export const SANDBOX_UMA_PROVIDERS: readonly UmaProvider[] = [
  provider('Aurora Pay', 'aurorapay', ['US'], ['USD', 'USDC'], '5493002F9F0E5B99A449'),
  provider('Norte Dinero', 'nortedinero', ['MX'], ['MXN', 'USD'], '549300EB5B0E11F90938'),
  provider('Maple Transfer', 'mapletransfer', ['CA'], ['CAD', 'USD'], '549300362A1C315CE754'),
  provider('Thames Wallet', 'thameswallet', ['GB'], ['GBP', 'EUR'], '54930006E0A26F987696'),
  provider('Rhein Zahlungen', 'rheinzahlungen', ['DE', 'AT', 'NL', 'FR', 'ES', 'IT'], ['EUR'], '549300EB395C53DB8F52'),
  provider('Bharat Remit', 'bharatremit', ['IN'], ['INR'], '549300EEF56E2CC57242'),
  provider('Ipe Pagamentos', 'ipepagamentos', ['BR'], ['BRL'], '5493006B19C42ABC6D85'),
  provider('Lagos Link', 'lagoslink', ['NG'], ['NGN', 'USDC'], '5493009B5B9D642B1002'),
  provider('Kapwa Padala', 'kapwapadala', ['PH'], ['PHP', 'USD'], '54930037F99EEBB88340'),
  provider('Desert Exchange', 'desertexchange', ['AE'], ['AED', 'USD'], '54930036359C91D75C55', false),
  provider('Satoshi Street', 'satoshistreet', ['US', 'GB', 'DE'], ['BTC', 'USD'], '54930065C97783845015', false),
  provider('Pacific Bridge', 'pacificbridge', ['PH', 'MX', 'US'], ['PHP', 'MXN', 'USD'], '549300B6BB73E0A6A672'),
];

export interface UmaProviderFilter {
  countryCode?: string;
  currencyCode?: string;
  /** false leaves out blocked providers; true or absent keeps them. */
  hasBlockedProviders?: boolean;
}

export function matchesUmaProviderFilter(p: UmaProvider, f: UmaProviderFilter): boolean {
  if (f.countryCode && !p.supportedRegions.includes(f.countryCode)) return false;
  if (f.currencyCode && !p.supportedCurrencies.some((c) => c.code === f.currencyCode)) return false;
  if (f.hasBlockedProviders === false && !p.allowListStatus) return false;
  return true;
}
