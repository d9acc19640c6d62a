import { Module } from '@nestjs/common';
import { CreateExternalAccountHandler, DeleteExternalAccountHandler } from './external-account-commands.js';
import { ExternalAccountQueries } from './external-account-queries.js';

/**
 * External accounts of customers and of the platform.
 */
@Module({
  providers: [CreateExternalAccountHandler, DeleteExternalAccountHandler, ExternalAccountQueries],
  exports: [ExternalAccountQueries],
})
export class ExternalAccountsModule {}
