import { Body, Controller, Delete, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  CreateCustomerCommand,
  DeleteCustomerCommand,
  UpdateCustomerCommand,
} from '#application/customers/customer-commands.js';
import { Queries } from '#application/queries/queries.js';
import type { Actor } from '#application/tokens.js';
import type { SignedResult } from '#application/wallet/signed-retry.service.js';
import { ApiDoc, ApiResource, created, ok, ApiSignedResource } from '../docs/api-doc.js';
import { GetOne, GetPage } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import { Signed, type SignedCall } from '../http/signed-retry.js';
import { CreateCustomerDto, ListCustomersQuery, UpdateCustomerDto } from './customer.dto.js';
import { Idempotent } from '../http/idempotency.interceptor.js';

@Controller('customers')
export class CustomersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: Queries,
  ) {}

  @Post()
  @Idempotent()
  @ApiDoc({
    summary: 'Create a customer',
    description:
      'Opens one internal account per enabled currency (USD when none given; a currency the service ' +
      'does not support is 400 INVALID_CURRENCY). kycStatus (individuals) or kybStatus (businesses) ' +
      'records the platform’s own result; without it, in the sandbox the outcome follows the last three ' +
      'characters of the last name or registration number: 001 PENDING, 002 REJECTED, otherwise ' +
      'APPROVED. platformCustomerId (the customer’s uuid when omitted) is unique per platform ' +
      '(409 CONFLICT) and umaAddress in the installation (409 UMA_ADDRESS_EXISTS).',
    responses: created('The customer', 'Customer'),
    errors: [409],
  })
  async create(@Body() body: CreateCustomerDto, @CurrentActor() actor: Actor) {
    const id: string = await this.commands.execute(new CreateCustomerCommand(body, actor));
    return this.queries.customer(actor.platformId, id);
  }

  @GetPage('', 'List customers', 'customers', 'Customer', { description: 'Newest first. Date filters are inclusive.' })
  list(@Query() query: ListCustomersQuery, @CurrentActor() actor: Actor) {
    return this.queries.listCustomers(actor.platformId, query);
  }

  @GetOne(':customerId', 'Get a customer', ok('The customer', 'Customer'))
  get(@IdParam('Customer', 'customerId') id: string, @CurrentActor() actor: Actor) {
    return this.queries.customer(actor.platformId, id);
  }

  @Patch(':customerId')
  @ApiSignedResource('Update a customer', ok('The updated customer', 'Customer'), {
    description:
      'customerType, when given, must be the customer’s. Fields of businessInfo not given are kept. ' +
      'kycStatus/kybStatus records the platform’s own result (APPROVED activates the accounts). ' +
      'Adding a currency opens an internal account in it; currencies cannot be removed. Changing ' +
      'the email of a customer whose embedded wallet has an EMAIL_OTP credential is a signed ' +
      'retry (stamped by a session of that wallet) and the credential follows the new email.',
    errors: [409],
  })
  async update(
    @IdParam('Customer', 'customerId') id: string,
    @Body() body: UpdateCustomerDto,
    @Signed() signed: SignedCall,
    @CurrentActor() actor: Actor,
  ) {
    const outcome = await this.commands.execute<UpdateCustomerCommand, SignedResult<void>>(
      new UpdateCustomerCommand(id, body, actor, signed.request),
    );
    if (outcome.kind === 'challenge') return signed.challenge(outcome);
    return this.queries.customer(actor.platformId, id);
  }

  @Delete(':customerId')
  @HttpCode(200)
  @ApiResource('Delete a customer (soft)', ok('The customer with isDeleted true', 'Customer'), {
    description:
      'Closes the customer’s accounts; refused while they hold funds (409). A customer deleted before ' +
      'answers 410 CUSTOMER_DELETED.',
    errors: [409, 410],
  })
  async remove(@IdParam('Customer', 'customerId') id: string, @CurrentActor() actor: Actor) {
    await this.commands.execute(new DeleteCustomerCommand(id, actor));
    return this.queries.customer(actor.platformId, id);
  }
}
