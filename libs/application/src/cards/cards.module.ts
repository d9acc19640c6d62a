import { Module } from '@nestjs/common';
import { cardHandlers, cardProviders } from './card-providers.js';
import { WalletModule } from '../wallet/wallet.module.js';

/**
 * Cards: lifecycle, funding sources and authorizations on the ledger.
 */
@Module({ imports: [WalletModule], providers: [...cardHandlers, ...cardProviders], exports: [...cardProviders] })
export class CardsModule {}
