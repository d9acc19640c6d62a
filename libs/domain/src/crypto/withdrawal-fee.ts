import { invalid } from '../errors.js';
import { CRYPTO_CURRENCIES, formatAmount, toAmount, toJsonNumber } from '../primitives.js';

/**
 * What a crypto withdrawal to an external address costs: the network's fee (in the network's own
 * asset, informational) and what the withdrawal currency pays for it, plus the application fee.
 * The sandbox uses a fixed table of typical fees; nothing depends on a live chain.
 */
export interface NetworkFee {
  /** The asset the network charges in. */
  asset: string;
  /** In the smallest unit of `asset` (satoshis, lamports, wei). */
  fee: bigint;
  /** The same fee in the smallest unit of each withdrawal currency the network carries. */
  inCurrency: Record<string, bigint>;
}

export const NETWORK_FEES: Record<string, NetworkFee> = {
  BITCOIN: { asset: 'BTC', fee: 2_000n, inCurrency: { BTC: 2_000n } },
  LIGHTNING: { asset: 'BTC', fee: 10n, inCurrency: { BTC: 10n } },
  SPARK: { asset: 'BTC', fee: 0n, inCurrency: { BTC: 0n, USDC: 0n } },
  SOLANA: { asset: 'SOL', fee: 5_000n, inCurrency: { USDC: 1_000n } },
  ETHEREUM: { asset: 'ETH', fee: 500_000_000_000_000n, inCurrency: { USDC: 1_500_000n } },
  BASE: { asset: 'ETH', fee: 10_000_000_000_000n, inCurrency: { USDC: 30_000n } },
  POLYGON: { asset: 'POL', fee: 1_000_000_000_000_000n, inCurrency: { USDC: 5_000n } },
};

/** Basis points of the amount the service charges per withdrawal (none in this installation). */
export const APPLICATION_FEE_BPS = 0n;

export interface WithdrawalFeeRequest {
  /** The currency of the account withdrawn from. */
  accountCurrency: string;
  currency: string;
  cryptoNetwork: string;
  amount: number;
}

export interface WithdrawalFeeEstimate {
  networkFee: number;
  networkFeeAsset: string;
  applicationFee: number;
  totalFee: number;
  netAmount: number;
}

/** The fee estimate, or a 400 naming the field that makes the withdrawal impossible. */
export function estimateWithdrawalFee(req: WithdrawalFeeRequest): WithdrawalFeeEstimate {
  const code = req.currency.toUpperCase();
  if (!CRYPTO_CURRENCIES.has(code))
    throw invalid('INVALID_CURRENCY', `${req.currency} is not a crypto currency that can be withdrawn`, 'currency');
  if (req.accountCurrency !== code)
    throw invalid('INVALID_CURRENCY', `the internal account holds ${req.accountCurrency}, not ${code}`, 'currency');
  const network = NETWORK_FEES[req.cryptoNetwork.toUpperCase()];
  const inCurrency = network?.inCurrency[code];
  if (!network || inCurrency === undefined) {
    const networks = Object.keys(NETWORK_FEES).filter((n) => NETWORK_FEES[n].inCurrency[code] !== undefined);
    throw invalid(
      'INVALID_INPUT',
      `${code} is withdrawn on ${networks.join(', ')}, not on ${req.cryptoNetwork}`,
      'cryptoNetwork',
    );
  }
  const amount = toAmount(req.amount, 'amount');
  if (amount <= 0n) throw invalid('INVALID_AMOUNT', 'amount must be greater than zero', 'amount');
  const applicationFee = (amount * APPLICATION_FEE_BPS) / 10_000n;
  const totalFee = inCurrency + applicationFee;
  if (amount <= totalFee)
    throw invalid(
      'AMOUNT_OUT_OF_RANGE',
      `amount must exceed the total fee of ${formatAmount(totalFee, code)}`,
      'amount',
    );
  return {
    networkFee: toJsonNumber(network.fee),
    networkFeeAsset: network.asset,
    applicationFee: toJsonNumber(applicationFee),
    totalFee: toJsonNumber(totalFee),
    netAmount: toJsonNumber(amount - totalFee),
  };
}
