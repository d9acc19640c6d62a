import { Controller, Get, Param, Query } from '@nestjs/common';
import { AuditQueries, type AuditResource } from '#application/audit/audit-queries.js';
import { OperationsOverview } from '#application/audit/operations-overview.js';
import { PlatformClocks } from '#application/command-context.js';
import type { Actor } from '#application/tokens.js';
import { isPublicId, type ResourceKind } from '#domain/primitives.js';
import { ApiDoc, ok, type ApiDocMeta } from '../docs/api-doc.js';
import { GetOne } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { invalidInput } from '../http/errors.js';
import { IdParam } from '../http/id-pipe.js';
import { AuditHistoryQuery, AuditStateQuery } from './audit.dto.js';
import { AUDIT_TEXT, HISTORY, STATE } from '../docs/descriptions/audit.js';

const KINDS: Record<AuditResource, ResourceKind> = {
  cards: 'Card',
  transactions: 'Transaction',
  'internal-accounts': 'InternalAccount',
  customers: 'Customer',
};

const history = (summary: string, description = HISTORY, schema = 'list:AuditHistoryEntry'): ApiDocMeta => ({
  summary,
  tag: 'Audit',
  description,
  responses: { 200: { description: AUDIT_TEXT.historyResponse200, schema } },
  errors: [404],
});

function parseAsOf(text: string): Date {
  const at = new Date(text);
  if (Number.isNaN(at.getTime())) {
    throw invalidInput([{ field: 'asOf', constraint: 'isDateTime', message: 'asOf is not a valid date-time' }]);
  }
  return at;
}

@Controller('audit')
export class AuditController {
  constructor(
    private readonly audit: AuditQueries,
    private readonly operations: OperationsOverview,
    private readonly clocks: PlatformClocks,
  ) {}

  @Get('overview')
  @ApiDoc({
    summary: 'Operations overview: log and projection health, queue depth, counts, webhook outcomes, balances',
    tag: 'Audit',
    description: AUDIT_TEXT.overview,
    responses: ok('Overview', 'OperationsOverview'),
  })
  async overview(@CurrentActor() actor: Actor) {
    return this.operations.overview(actor.platformId, await this.clocks.now(actor.platformId));
  }

  @Get('set-aside-events')
  @ApiDoc({
    summary: 'Events set aside by a shared processor',
    tag: 'Audit',
    description: AUDIT_TEXT.setAside,
    responses: ok('A page of set-aside events', 'list:AuditSetAsideEvent'),
  })
  setAside(@Query() q: AuditHistoryQuery, @CurrentActor() actor: Actor) {
    return this.audit.setAsideEvents(actor.platformId, q);
  }

  @Get('cards/:cardId/history')
  @ApiDoc(history('History of a card'))
  card(@IdParam('Card', 'cardId') id: string, @Query() q: AuditHistoryQuery, @CurrentActor() actor: Actor) {
    return this.audit.history(actor.platformId, 'cards', id, q);
  }

  @Get('transactions/:transactionId/history')
  @ApiDoc(history('History of a transaction', AUDIT_TEXT.transaction))
  transaction(
    @IdParam('Transaction', 'transactionId') id: string,
    @Query() q: AuditHistoryQuery,
    @CurrentActor() actor: Actor,
  ) {
    return this.audit.history(actor.platformId, 'transactions', id, q);
  }

  @Get('transactions/:transactionId/ledger')
  @ApiDoc(history('Ledger legs of a transaction', AUDIT_TEXT.transactionLedger, 'list:AuditLedgerLeg'))
  transactionLedger(
    @IdParam('Transaction', 'transactionId') id: string,
    @Query() q: AuditHistoryQuery,
    @CurrentActor() actor: Actor,
  ) {
    return this.audit.transactionLedger(actor.platformId, id, q);
  }

  @Get('internal-accounts/:accountId/history')
  @ApiDoc(history('Ledger postings of an internal account', AUDIT_TEXT.account, 'list:AuditPosting'))
  account(
    @IdParam('InternalAccount', 'accountId') id: string,
    @Query() q: AuditHistoryQuery,
    @CurrentActor() actor: Actor,
  ) {
    return this.audit.history(actor.platformId, 'internal-accounts', id, q);
  }

  @Get('customers/:customerId/history')
  @ApiDoc(history('History of a customer'))
  customer(@IdParam('Customer', 'customerId') id: string, @Query() q: AuditHistoryQuery, @CurrentActor() actor: Actor) {
    return this.audit.history(actor.platformId, 'customers', id, q);
  }

  @GetOne(':resource/:id/state', 'A resource as it was at an instant', ok('The resource at asOf', 'AuditState'), {
    tag: 'Audit',
    description: STATE,
  })
  state(
    @Param('resource') resource: string,
    @Param('id') id: string,
    @Query() q: AuditStateQuery,
    @CurrentActor() actor: Actor,
  ) {
    if (!(resource in KINDS)) {
      const message = `resource must be one of ${Object.keys(KINDS).join(', ')}`;
      throw invalidInput([{ field: 'resource', constraint: 'isIn', message }]);
    }
    const kind = KINDS[resource as AuditResource];
    if (!isPublicId(kind, id)) {
      throw invalidInput([{ field: 'id', constraint: 'isId', message: `id must have the form ${kind}:<uuid>` }]);
    }
    return this.audit.state(actor.platformId, resource as AuditResource, id, parseAsOf(q.asOf));
  }
}
