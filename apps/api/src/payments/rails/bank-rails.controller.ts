import { Body, Controller, Param, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Matches } from 'class-validator';
import { AssignBankCreditCommand, ReturnBankCreditCommand } from '#application/payments/rails/bank-rail-commands.js';
import { BankRailQueries } from '#application/payments/rails/bank-rail-queries.js';
import type { Actor } from '#application/tokens.js';
import { ApiDoc, ok } from '../../docs/api-doc.js';
import { IdempotentAction } from '../../http/retries.js';
import { CurrentActor } from '../../http/auth.js';
import { PageParams } from '../../http/list-params.js';
import { GetPage } from '../../http/routes.js';
import { BANK_RAILS_TEXT } from '../../docs/descriptions/bank-rails.js';

const tag = 'Bank rails';

/** The rail's pages: each path's summary, what its items are and their schema (described by BANK_RAILS_TEXT). */
const PAGES = {
  inbox: ['List the files the bank delivered', 'inbox files, newest first', 'BankInboxFile'],
  exceptions: ['List the credits held in suspense', 'credits in suspense, newest first', 'BankCreditException'],
  reconciliations: [
    'List the daily reconciliations of bank statements',
    'reconciled days, newest first',
    'BankReconciliation',
  ],
} as const;

/** GET `:currency/<path>`: a page of the platform's rail for that currency (404 without one). */
function RailPage(path: keyof typeof PAGES) {
  const [summary, items, schema] = PAGES[path];
  return GetPage(`:currency/${path}`, summary, items, schema, {
    description: BANK_RAILS_TEXT[path],
    tag,
    errors: [404],
  });
}

export class AssignBankCreditDto {
  @Matches(/^InternalAccount:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, {
    message: 'accountId must have the form InternalAccount:<uuid>',
  })
  accountId!: string;
}

/** A production platform's bank rails, as its operators review them: the bank's files and the daily reconciliation. */
@Controller('bank-rails')
export class BankRailsController {
  constructor(
    private readonly queries: BankRailQueries,
    private readonly commands: CommandBus,
  ) {}

  @RailPage('inbox')
  inbox(@Param('currency') currency: string, @Query() page: PageParams, @CurrentActor() actor: Actor) {
    return this.queries.inbox(actor.platformId, currency, page);
  }

  @RailPage('exceptions')
  exceptions(@Param('currency') currency: string, @Query() page: PageParams, @CurrentActor() actor: Actor) {
    return this.queries.exceptions(actor.platformId, currency, page);
  }

  @IdempotentAction(':currency/exceptions/:creditId/assign')
  @ApiDoc({
    summary: 'Assign a credit held in suspense to an account',
    description: BANK_RAILS_TEXT.assign,
    tag,
    responses: ok('The credit, assigned', 'BankCreditException'),
    errors: [400, 404, 409],
  })
  assign(
    @Param('currency') currency: string,
    @Param('creditId') creditId: string,
    @Body() body: AssignBankCreditDto,
    @CurrentActor() actor: Actor,
  ) {
    return this.commands.execute(new AssignBankCreditCommand(currency, creditId, body.accountId, actor));
  }

  @IdempotentAction(':currency/exceptions/:creditId/return')
  @ApiDoc({
    summary: 'Send a credit held in suspense back to its payer',
    description: BANK_RAILS_TEXT.return,
    tag,
    responses: ok('The credit, returning', 'BankCreditException'),
    errors: [404, 409],
  })
  sendBack(@Param('currency') currency: string, @Param('creditId') creditId: string, @CurrentActor() actor: Actor) {
    return this.commands.execute(new ReturnBankCreditCommand(currency, creditId, actor));
  }

  @RailPage('reconciliations')
  reconciliations(@Param('currency') currency: string, @Query() page: PageParams, @CurrentActor() actor: Actor) {
    return this.queries.reconciliations(actor.platformId, currency, page);
  }
}
