import { Global, Module } from '@nestjs/common';
import { cardHandlers, cardProviders } from './card-providers.js';

/**
 * Cards: lifecycle, funding sources and authorizations on the ledger.
 */
@Global()
@Module({ providers: [...cardHandlers, ...cardProviders], exports: [...cardProviders] })
export class CardsModule {}
