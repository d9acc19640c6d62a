import { Module } from '@nestjs/common';
import { DiscoveryQueries } from './discovery-queries.js';

/**
 * The catalogue of receiving institutions by corridor.
 */
@Module({ providers: [DiscoveryQueries], exports: [DiscoveryQueries] })
export class DiscoveriesModule {}
