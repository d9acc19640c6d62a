import { describe, expect, it } from '@jest/globals';
import { DomainError } from '../errors.js';
import { estimateWithdrawalFee, type WithdrawalFeeRequest } from './withdrawal-fee.js';

const usdcOnSolana: WithdrawalFeeRequest = {
  accountCurrency: 'USDC',
  currency: 'USDC',
  cryptoNetwork: 'SOLANA',
  amount: 1_000_000,
};

const failure = (req: WithdrawalFeeRequest) => {
  try {
    estimateWithdrawalFee(req);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    const e = error as DomainError;
    return { kind: e.kind, code: e.code, field: e.details?.errors?.[0]?.field };
  }
  throw new Error('expected a refusal');
};

describe('crypto withdrawal fee estimates', () => {
  it('charges the network fee in the withdrawal currency and shows it in the network asset', () => {
    expect(estimateWithdrawalFee(usdcOnSolana)).toEqual({
      networkFee: 5_000,
      networkFeeAsset: 'SOL',
      applicationFee: 0,
      totalFee: 1_000,
      netAmount: 999_000,
    });
    expect(
      estimateWithdrawalFee({
        ...usdcOnSolana,
        accountCurrency: 'BTC',
        currency: 'btc',
        cryptoNetwork: 'bitcoin',
        amount: 50_000,
      }),
    ).toEqual({
      networkFee: 2_000,
      networkFeeAsset: 'BTC',
      applicationFee: 0,
      totalFee: 2_000,
      netAmount: 48_000,
    });
    expect(estimateWithdrawalFee({ ...usdcOnSolana, cryptoNetwork: 'SPARK' }).netAmount).toBe(1_000_000);
  });

  it('refuses a currency the account does not hold or that is not crypto', () => {
    expect(failure({ ...usdcOnSolana, currency: 'BTC' })).toEqual({
      kind: 'invalid',
      code: 'INVALID_CURRENCY',
      field: 'currency',
    });
    expect(failure({ ...usdcOnSolana, accountCurrency: 'USD', currency: 'USD' })).toEqual({
      kind: 'invalid',
      code: 'INVALID_CURRENCY',
      field: 'currency',
    });
  });

  it('refuses a network that does not carry the currency', () => {
    expect(failure({ ...usdcOnSolana, cryptoNetwork: 'LIGHTNING' })).toEqual({
      kind: 'invalid',
      code: 'INVALID_INPUT',
      field: 'cryptoNetwork',
    });
    expect(failure({ ...usdcOnSolana, cryptoNetwork: 'DOGE' }).field).toBe('cryptoNetwork');
  });

  it('refuses an amount the fee would swallow', () => {
    expect(failure({ ...usdcOnSolana, amount: 1_000 })).toEqual({
      kind: 'invalid',
      code: 'AMOUNT_OUT_OF_RANGE',
      field: 'amount',
    });
    expect(failure({ ...usdcOnSolana, amount: 0 }).code).toBe('INVALID_AMOUNT');
  });
});
