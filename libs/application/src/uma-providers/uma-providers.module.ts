import { Global, Module } from '@nestjs/common';
import { UmaProviderQueries } from './uma-provider-queries.js';

/**
 * The UMA provider directory.
 */
@Global()
@Module({ providers: [UmaProviderQueries], exports: [UmaProviderQueries] })
export class UmaProvidersModule {}
