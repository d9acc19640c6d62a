import { Module } from '@nestjs/common';
import { WithdrawalFees } from './withdrawal-fees.js';

/**
 * Crypto withdrawals: fee estimates.
 */
@Module({ providers: [WithdrawalFees], exports: [WithdrawalFees] })
export class CryptoModule {}
