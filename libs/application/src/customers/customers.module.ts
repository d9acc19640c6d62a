import { Module } from '@nestjs/common';
import {
  CreateCustomerHandler,
  DeleteCustomerHandler,
  OpenInternalAccountHandler,
  UpdateCustomerHandler,
} from './customer-commands.js';
import { BulkImportQueries } from './bulk-import-queries.js';
import { BulkImports } from './bulk-imports.js';
import { WalletModule } from '../wallet/wallet.module.js';

/**
 * Customers and the internal accounts opened for them; bulk imports of customers from CSV files.
 */
@Module({
  imports: [WalletModule],
  providers: [
    CreateCustomerHandler,
    UpdateCustomerHandler,
    DeleteCustomerHandler,
    OpenInternalAccountHandler,
    BulkImports,
    BulkImportQueries,
  ],
  exports: [BulkImports, BulkImportQueries],
})
export class CustomersModule {}
