import { Module } from '@nestjs/common';
import { UmaProviderQueries } from './uma-provider-queries.js';

/**
 * The UMA provider directory.
 */
@Module({ providers: [UmaProviderQueries], exports: [UmaProviderQueries] })
export class UmaProvidersModule {}
