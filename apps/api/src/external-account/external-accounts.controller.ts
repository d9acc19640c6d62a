import { Body, Controller, Delete, HttpCode, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  CreateExternalAccountCommand,
  DeleteExternalAccountCommand,
} from '#application/external-accounts/external-account-commands.js';
import { ExternalAccountQueries } from '#application/external-accounts/external-account-queries.js';
import type { Actor } from '#application/tokens.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiDoc, ApiResource, created, noContent, ok } from '../docs/api-doc.js';
import { GetOne, GetPage } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import {
  CreateCustomerExternalAccountDto,
  CreatePlatformExternalAccountDto,
  ListCustomerExternalAccountsQuery,
  ListPlatformExternalAccountsQuery,
} from './external-account.dto.js';
import { Idempotent } from '../http/idempotency.interceptor.js';
import { EXTERNAL_ACCOUNTS_TEXT } from '../docs/descriptions/external-account.js';

const tag = 'ExternalAccounts';
const AccountId = () => IdParam('ExternalAccount', 'externalAccountId');

/** External accounts of customers and of the platform itself; each path sees only its own kind. */
@ApiTags(tag)
@Controller()
export class ExternalAccountsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ExternalAccountQueries,
  ) {}

  @Post('customers/external-accounts')
  @Idempotent()
  @ApiDoc({
    summary: 'Add a customer’s external account',
    description: EXTERNAL_ACCOUNTS_TEXT.createForCustomer,
    responses: created('The external account', 'ExternalAccount'),
    errors: [404, 409],
  })
  async createForCustomer(@Body() body: CreateCustomerExternalAccountDto, @CurrentActor() actor: Actor) {
    const owner = body.customerId ? 'customer' : 'platform';
    const id: string = await this.commands.execute(new CreateExternalAccountCommand(owner, body, actor));
    return this.queries.get(actor.platformId, owner, id);
  }

  @GetPage('customers/external-accounts', 'List customers’ external accounts', 'external accounts', 'ExternalAccount', {
    description: EXTERNAL_ACCOUNTS_TEXT.listForCustomers,
  })
  listForCustomers(@Query() query: ListCustomerExternalAccountsQuery, @CurrentActor() actor: Actor) {
    return this.queries.list(actor.platformId, 'customer', query);
  }

  @GetOne(
    'customers/external-accounts/:externalAccountId',
    'Get a customer’s external account',
    ok('The external account', 'ExternalAccount'),
  )
  getForCustomer(@AccountId() id: string, @CurrentActor() actor: Actor) {
    return this.queries.get(actor.platformId, 'customer', id);
  }

  @Delete('customers/external-accounts/:externalAccountId')
  @HttpCode(204)
  @ApiResource('Delete a customer’s external account', noContent('Deleted'))
  async deleteForCustomer(@AccountId() id: string, @CurrentActor() actor: Actor) {
    await this.commands.execute(new DeleteExternalAccountCommand('customer', id, actor));
  }

  @Post('platform/external-accounts')
  @Idempotent()
  @ApiDoc({
    summary: 'Add one of the platform’s own external accounts',
    description: EXTERNAL_ACCOUNTS_TEXT.createForPlatform,
    responses: created('The external account', 'ExternalAccount'),
    errors: [409],
  })
  async createForPlatform(@Body() body: CreatePlatformExternalAccountDto, @CurrentActor() actor: Actor) {
    const id: string = await this.commands.execute(new CreateExternalAccountCommand('platform', body, actor));
    return this.queries.get(actor.platformId, 'platform', id);
  }

  @GetPage(
    'platform/external-accounts',
    'List the platform’s own external accounts',
    'external accounts',
    'ExternalAccount',
    { description: EXTERNAL_ACCOUNTS_TEXT.listForPlatform },
  )
  listForPlatform(@Query() query: ListPlatformExternalAccountsQuery, @CurrentActor() actor: Actor) {
    return this.queries.list(actor.platformId, 'platform', query);
  }

  @GetOne(
    'platform/external-accounts/:externalAccountId',
    'Get one of the platform’s own external accounts',
    ok('The external account', 'ExternalAccount'),
  )
  getForPlatform(@AccountId() id: string, @CurrentActor() actor: Actor) {
    return this.queries.get(actor.platformId, 'platform', id);
  }

  @Delete('platform/external-accounts/:externalAccountId')
  @HttpCode(204)
  @ApiResource('Delete one of the platform’s own external accounts', noContent('Deleted'))
  async deleteForPlatform(@AccountId() id: string, @CurrentActor() actor: Actor) {
    await this.commands.execute(new DeleteExternalAccountCommand('platform', id, actor));
  }
}
