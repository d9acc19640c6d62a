import { Controller, Get, Param, Query } from '@nestjs/common';
import { BankRailQueries } from '#application/payments/rails/bank-rail-queries.js';
import type { Actor } from '#application/tokens.js';
import { ApiList } from '../../docs/api-doc.js';
import { CurrentActor } from '../../http/auth.js';
import { PageParams } from '../../http/list-params.js';
import { BANK_RAILS_TEXT } from '../../docs/descriptions/bank-rails.js';

const tag = 'Bank rails';

/** A production platform's bank rails, as its operators review them: the bank's files and the daily reconciliation. */
@Controller('bank-rails')
export class BankRailsController {
  constructor(private readonly queries: BankRailQueries) {}

  @Get(':currency/inbox')
  @ApiList('List the files the bank delivered', 'inbox files, newest first', 'BankInboxFile', {
    description: BANK_RAILS_TEXT.inbox,
    tag,
    errors: [404],
  })
  inbox(@Param('currency') currency: string, @Query() page: PageParams, @CurrentActor() actor: Actor) {
    return this.queries.inbox(actor.platformId, currency, page);
  }

  @Get(':currency/reconciliations')
  @ApiList('List the daily reconciliations of bank statements', 'reconciled days, newest first', 'BankReconciliation', {
    description: BANK_RAILS_TEXT.reconciliations,
    tag,
    errors: [404],
  })
  reconciliations(@Param('currency') currency: string, @Query() page: PageParams, @CurrentActor() actor: Actor) {
    return this.queries.reconciliations(actor.platformId, currency, page);
  }
}
