import { applyDecorators, Body, Controller, Delete, HttpCode, Post, Query } from '@nestjs/common';
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
import { Idempotent } from '../http/retries.js';
import { EXTERNAL_ACCOUNTS_TEXT } from '../docs/descriptions/external-account.js';

const tag = 'ExternalAccounts';
const AccountId = () => IdParam('ExternalAccount', 'externalAccountId');

/** Adding an external account: an idempotent POST answered with the account. */
const CreateAccount = (path: string, summary: string, description: string, errors: number[]) =>
  applyDecorators(
    Post(path),
    Idempotent(),
    ApiDoc({ summary, description, responses: created('The external account', 'ExternalAccount'), errors }),
  );
/** A page of external accounts. */
const ListAccounts = (path: string, summary: string, description: string) =>
  GetPage(path, summary, 'external accounts', 'ExternalAccount', { description });
/** One external account, named in the path. */
const GetAccount = (path: string, summary: string) =>
  GetOne(path, summary, ok('The external account', 'ExternalAccount'));
/** Deleting an external account named in the path: 204. */
const DeleteAccount = (path: string, summary: string) =>
  applyDecorators(Delete(path), HttpCode(204), ApiResource(summary, noContent('Deleted')));

/** External accounts of customers and of the platform itself; each path sees only its own kind. */
@ApiTags(tag)
@Controller()
export class ExternalAccountsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ExternalAccountQueries,
  ) {}

  @CreateAccount(
    'customers/external-accounts',
    'Add a customer’s external account',
    EXTERNAL_ACCOUNTS_TEXT.createForCustomer,
    [404, 409],
  )
  async createForCustomer(@Body() body: CreateCustomerExternalAccountDto, @CurrentActor() actor: Actor) {
    const owner = body.customerId ? 'customer' : 'platform';
    const id: string = await this.commands.execute(new CreateExternalAccountCommand(owner, body, actor));
    return this.queries.get(actor.platformId, owner, id);
  }

  @ListAccounts(
    'customers/external-accounts',
    'List customers’ external accounts',
    EXTERNAL_ACCOUNTS_TEXT.listForCustomers,
  )
  listForCustomers(@Query() query: ListCustomerExternalAccountsQuery, @CurrentActor() actor: Actor) {
    return this.queries.list(actor.platformId, 'customer', query);
  }

  @GetAccount('customers/external-accounts/:externalAccountId', 'Get a customer’s external account')
  getForCustomer(@AccountId() id: string, @CurrentActor() actor: Actor) {
    return this.queries.get(actor.platformId, 'customer', id);
  }

  @DeleteAccount('customers/external-accounts/:externalAccountId', 'Delete a customer’s external account')
  async deleteForCustomer(@AccountId() id: string, @CurrentActor() actor: Actor) {
    await this.commands.execute(new DeleteExternalAccountCommand('customer', id, actor));
  }

  @CreateAccount(
    'platform/external-accounts',
    'Add one of the platform’s own external accounts',
    EXTERNAL_ACCOUNTS_TEXT.createForPlatform,
    [409],
  )
  async createForPlatform(@Body() body: CreatePlatformExternalAccountDto, @CurrentActor() actor: Actor) {
    const id: string = await this.commands.execute(new CreateExternalAccountCommand('platform', body, actor));
    return this.queries.get(actor.platformId, 'platform', id);
  }

  @ListAccounts(
    'platform/external-accounts',
    'List the platform’s own external accounts',
    EXTERNAL_ACCOUNTS_TEXT.listForPlatform,
  )
  listForPlatform(@Query() query: ListPlatformExternalAccountsQuery, @CurrentActor() actor: Actor) {
    return this.queries.list(actor.platformId, 'platform', query);
  }

  @GetAccount('platform/external-accounts/:externalAccountId', 'Get one of the platform’s own external accounts')
  getForPlatform(@AccountId() id: string, @CurrentActor() actor: Actor) {
    return this.queries.get(actor.platformId, 'platform', id);
  }

  @DeleteAccount('platform/external-accounts/:externalAccountId', 'Delete one of the platform’s own external accounts')
  async deleteForPlatform(@AccountId() id: string, @CurrentActor() actor: Actor) {
    await this.commands.execute(new DeleteExternalAccountCommand('platform', id, actor));
  }
}
