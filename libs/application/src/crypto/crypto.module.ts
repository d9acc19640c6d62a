import { Global, Module } from '@nestjs/common';
import { WithdrawalFees } from './withdrawal-fees.js';

/**
 * Crypto withdrawals: fee estimates.
 */
@Global()
@Module({ providers: [WithdrawalFees], exports: [WithdrawalFees] })
export class CryptoModule {}
