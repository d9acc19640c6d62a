import { invalid } from '../errors.js';

/**
 * Where crypto is paid in: the networks each asset can be deposited on (the first is the default) and the wallet
 * type the payment instructions name, as the public API spells them.
 */
export const DEPOSIT_NETWORKS: Record<string, readonly string[]> = {
  BTC: ['SPARK'],
  USDC: ['SOLANA', 'BASE', 'ETHEREUM', 'POLYGON'],
};

const WALLET_TYPES: Record<string, string> = {
  SPARK: 'SPARK_WALLET',
  SOLANA: 'SOLANA_WALLET',
  BASE: 'BASE_WALLET',
  ETHEREUM: 'ETHEREUM_WALLET',
  POLYGON: 'POLYGON_WALLET',
};

export const DEPOSIT_WALLET_TYPES: readonly string[] = Object.values(WALLET_TYPES);

/**
 * The network a deposit of `code` arrives on: the one named (which must carry the asset), else the default. A
 * stablecoin deposit must name its network when `requireForStablecoins` (real-time funding, as the public API asks).
 */
export function depositNetwork(code: string, named: string | undefined, requireForStablecoins = false): string {
  const networks = DEPOSIT_NETWORKS[code];
  if (!networks) throw invalid('INVALID_CURRENCY', `${code} is not deposited on a crypto network`, 'cryptoNetwork');
  if (named === undefined) {
    if (requireForStablecoins && code !== 'BTC')
      throw invalid(
        'INVALID_INPUT',
        `cryptoNetwork is required for ${code}: one of ${networks.join(', ')}`,
        'cryptoNetwork',
      );
    return networks[0];
  }
  const network = named.toUpperCase();
  if (!networks.includes(network))
    throw invalid('INVALID_INPUT', `${code} is deposited on ${networks.join(', ')}, not on ${named}`, 'cryptoNetwork');
  return network;
}

/** The wallet part of payment instructions for a deposit of `code` on `network`. */
export function depositWallet(code: string, network: string, address: string): Record<string, string> {
  return { accountType: WALLET_TYPES[network], assetType: code, address };
}
