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

const tag = 'ExternalAccounts';
const SANDBOX_NOTE =
  'In the sandbox the beneficiary name check follows the last three characters of the primary ' +
  'identifier (account number, IBAN, CLABE, phone number, VPA name, PIX key, address): 102 NOT_MATCHED, 103 ' +
  'PARTIAL_MATCH, 104 PENDING, 105 refused as an invalid account (400, nothing created), 106 ' +
  'UNSUPPORTED, 107 CHECKED_BY_RECEIVING_FI, otherwise MATCHED.';
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
    description:
      `The per-type fields of accountInfo are in the ExternalAccountCreateInfo schema; the currency ` +
      `must be one the account type holds. Without customerId the account is the platform’s own ` +
      `(listed under /platform/external-accounts). ${SANDBOX_NOTE}`,
    responses: created('The external account', 'ExternalAccount'),
    errors: [404, 409],
  })
  async createForCustomer(@Body() body: CreateCustomerExternalAccountDto, @CurrentActor() actor: Actor) {
    const owner = body.customerId ? 'customer' : 'platform';
    const id: string = await this.commands.execute(new CreateExternalAccountCommand(owner, body, actor));
    return this.queries.get(actor.platformId, owner, id);
  }

  @GetPage('customers/external-accounts', 'List customers’ external accounts', 'external accounts', 'ExternalAccount', {
    description: 'Newest first; deleted accounts are not listed.',
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
    description: `As for customers, without customerId. ${SANDBOX_NOTE}`,
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
    {
      description: 'Newest first; deleted accounts are not listed.',
    },
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
