import { Body, Controller, Delete, HttpCode, Patch, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  CreateCustomerCommand,
  DeleteCustomerCommand,
  UpdateCustomerCommand,
} from '#application/customers/customer-commands.js';
import { Queries } from '#application/queries/queries.js';
import type { Actor } from '#application/tokens.js';
import { ApiResource, ok, ApiSignedResource } from '../docs/api-doc.js';
import { GetOne, GetPage, PostCreate } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import { Signed, type SignedCall } from '../http/retries.js';
import { CreateCustomerDto, ListCustomersQuery, UpdateCustomerDto } from './customer.dto.js';
import { CUSTOMERS_TEXT } from '../docs/descriptions/customers.js';

const CustomerId = () => IdParam('Customer', 'customerId');

@Controller('customers')
export class CustomersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: Queries,
  ) {}

  @PostCreate('Create a customer', 'The customer', 'Customer', { description: CUSTOMERS_TEXT.create, errors: [409] })
  async create(@Body() body: CreateCustomerDto, @CurrentActor() actor: Actor) {
    const id: string = await this.commands.execute(new CreateCustomerCommand(body, actor));
    return this.queries.customer(actor.platformId, id);
  }

  @GetPage('', 'List customers', 'customers', 'Customer', { description: CUSTOMERS_TEXT.list })
  list(@Query() query: ListCustomersQuery, @CurrentActor() actor: Actor) {
    return this.queries.listCustomers(actor.platformId, query);
  }

  @GetOne(':customerId', 'Get a customer', ok('The customer', 'Customer'))
  get(@CustomerId() id: string, @CurrentActor() actor: Actor) {
    return this.queries.customer(actor.platformId, id);
  }

  @Patch(':customerId')
  @ApiSignedResource('Update a customer', ok('The updated customer', 'Customer'), {
    description: CUSTOMERS_TEXT.update,
    errors: [409],
  })
  async update(@CustomerId() id: string, @Body() body: UpdateCustomerDto, @Signed() signed: SignedCall) {
    const command = new UpdateCustomerCommand(id, body, signed.actor, signed.request);
    return signed.executeThen(this.commands, command, () => this.queries.customer(signed.actor.platformId, id));
  }

  @Delete(':customerId')
  @HttpCode(200)
  @ApiResource('Delete a customer (soft)', ok('The customer with isDeleted true', 'Customer'), {
    description: CUSTOMERS_TEXT.remove,
    errors: [409, 410],
  })
  async remove(@CustomerId() id: string, @CurrentActor() actor: Actor) {
    await this.commands.execute(new DeleteCustomerCommand(id, actor));
    return this.queries.customer(actor.platformId, id);
  }
}
