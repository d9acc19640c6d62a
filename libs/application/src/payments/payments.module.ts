import { Module } from '@nestjs/common';
import { FundInternalAccountHandler } from './ledger/fund-commands.js';
import { moneyHandlers, moneyProviders } from './transactions/money-providers.js';

/**
 * Money movement: sandbox funding, lookups, quotes, transfers, incoming payments, the sandbox clock.
 */
@Module({ providers: [FundInternalAccountHandler, ...moneyHandlers, ...moneyProviders], exports: [...moneyProviders] })
export class PaymentsModule {}
