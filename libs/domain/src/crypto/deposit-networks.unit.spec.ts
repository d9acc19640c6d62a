import { describe, expect, it } from '@jest/globals';
import { depositNetwork, depositWallet } from './deposit-networks.js';

describe('crypto deposit networks', () => {
  it('defaults BTC to Spark and accepts a named network that carries the asset, in any case', () => {
    expect(depositNetwork('BTC', undefined, true)).toBe('SPARK');
    expect(depositNetwork('USDC', 'base')).toBe('BASE');
    expect(depositNetwork('USDC', undefined)).toBe('SOLANA');
  });

  it('asks a stablecoin deposit for its network where required, and refuses networks that do not carry it', () => {
    expect(() => depositNetwork('USDC', undefined, true)).toThrow(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        details: { errors: [expect.objectContaining({ field: 'cryptoNetwork' })] },
      }),
    );
    expect(() => depositNetwork('BTC', 'SOLANA')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => depositNetwork('USD', undefined)).toThrow(expect.objectContaining({ code: 'INVALID_CURRENCY' }));
  });

  it('names the wallet type of the network', () => {
    expect(depositWallet('USDC', 'SOLANA', 'addr')).toEqual({
      accountType: 'SOLANA_WALLET',
      assetType: 'USDC',
      address: 'addr',
    });
    expect(depositWallet('BTC', 'SPARK', 'sp1')).toEqual({
      accountType: 'SPARK_WALLET',
      assetType: 'BTC',
      address: 'sp1',
    });
  });
});
