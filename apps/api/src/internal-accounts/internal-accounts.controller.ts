import { Body, Controller, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { IsIn, IsOptional, Matches } from 'class-validator';
import { OpenInternalAccountCommand } from '#application/customers/customer-commands.js';
import { Queries } from '#application/queries/queries.js';
import type { Actor } from '#application/tokens.js';
import { CURRENCY_CODES } from '#domain/primitives.js';
import { ApiDoc, created, ok } from '../docs/api-doc.js';
import { GetOne, GetPage } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import { PageParams } from '../http/list-params.js';
import { CUSTOMER_ID } from '../http/formats.js';
import { Idempotent } from '../http/retries.js';
import { IsCurrencyCode } from '../http/currency-code.js';

const ACCOUNT_TYPES = ['INTERNAL_FIAT', 'INTERNAL_CRYPTO', 'EMBEDDED_WALLET'] as const;

export class ListPlatformAccountsQuery extends PageParams {
  @IsOptional() @IsIn(ACCOUNT_TYPES) type?: (typeof ACCOUNT_TYPES)[number];
  @IsOptional() @IsCurrencyCode('currency') currency?: string;
}

export class ListCustomerAccountsQuery extends ListPlatformAccountsQuery {
  @IsOptional() @Matches(CUSTOMER_ID, { message: 'customerId must have the form Customer:<uuid>' }) customerId?: string;
}

export class OpenInternalAccountDto {
  @Matches(CUSTOMER_ID, { message: 'customerId must have the form Customer:<uuid>' }) customerId!: string;
  @IsIn(ACCOUNT_TYPES) type!: (typeof ACCOUNT_TYPES)[number];
  @IsIn(CURRENCY_CODES) currency!: string;
}

/** Internal accounts: customers' (with balances) and the platform's own settlement accounts. */
@ApiTags('InternalAccounts')
@Controller()
export class InternalAccountsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: Queries,
  ) {}

  @GetPage('customers/internal-accounts', 'List customers’ internal accounts', 'accounts', 'InternalAccount')
  listCustomerAccounts(@Query() query: ListCustomerAccountsQuery, @CurrentActor() actor: Actor) {
    return this.queries.listInternalAccounts(actor.platformId, { ...query, owner: 'customer' });
  }

  @Post('customers/internal-accounts')
  @Idempotent()
  @ApiDoc({
    summary: 'Open an internal account for a customer',
    responses: created('The account', 'InternalAccount'),
    errors: [404, 409],
  })
  async open(@Body() body: OpenInternalAccountDto, @CurrentActor() actor: Actor) {
    const id: string = await this.commands.execute(new OpenInternalAccountCommand(body, actor));
    return this.queries.internalAccount(actor.platformId, id);
  }

  @GetPage('platform/internal-accounts', 'List the platform’s own (settlement) accounts', 'accounts', 'InternalAccount')
  listPlatformAccounts(@Query() query: ListPlatformAccountsQuery, @CurrentActor() actor: Actor) {
    return this.queries.listInternalAccounts(actor.platformId, { ...query, owner: 'platform' });
  }

  @GetOne('internal-accounts/:id', 'Get an internal account', ok('The account', 'InternalAccount'))
  get(@IdParam('InternalAccount', 'id') id: string, @CurrentActor() actor: Actor) {
    return this.queries.internalAccount(actor.platformId, id);
  }
}
