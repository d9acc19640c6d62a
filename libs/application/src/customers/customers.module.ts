import { Global, Module } from '@nestjs/common';
import {
  CreateCustomerHandler,
  DeleteCustomerHandler,
  OpenInternalAccountHandler,
  UpdateCustomerHandler,
} from './customer-commands.js';

/**
 * Customers and the internal accounts opened for them.
 */
@Global()
@Module({
  providers: [CreateCustomerHandler, UpdateCustomerHandler, DeleteCustomerHandler, OpenInternalAccountHandler],
  exports: [],
})
export class CustomersModule {}
