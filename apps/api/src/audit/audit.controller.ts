import { Controller, Get, Param, Query } from '@nestjs/common';
import { AuditQueries, type AuditResource } from '#application/audit/audit-queries.js';
import { OperationsOverview } from '#application/audit/operations-overview.js';
import { PlatformClocks } from '#application/platforms/platform-clocks.js';
import type { Actor } from '#application/tokens.js';
import { isPublicId, type ResourceKind } from '#domain/ids.js';
import { ApiDoc, ok, type ApiDocMeta } from '../docs/api-doc.js';
import { GetOne } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { invalidInput } from '../http/errors.js';
import { IdParam } from '../http/id-pipe.js';
import { AuditHistoryQuery, AuditStateQuery } from './audit.dto.js';

const PAGING = 'Cursor-paginated in event order. A resource of another platform answers 404.';
const HISTORY =
  'Every event of the resource in the order it was recorded, from the event log: recordedAt (store time), ' +
  'occurredAt (the business time on the platform clock, when the event carries one), type, actor and ' +
  'correlation id (from the event metadata) and the event data as `changes`, with secret material, hashes ' +
  `of secrets, OTPs and keys shown as [REDACTED]. ${PAGING}`;

const STATE =
  'resource is cards, transactions, internal-accounts or customers. The resource folded with the write ' +
  'path from the events whose time is at or before asOf, shown as the live endpoint shows it (an internal ' +
  'account with its balance then). An event’s time is its business time (the platform clock, which a ' +
  'sandbox platform may have advanced) when it carries one; an event without one takes the time of the ' +
  'event decided with it; folding stops at the first event after asOf. A resource that did not exist yet, ' +
  'or belongs to another platform, answers 404.';

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
  responses: { 200: { description: 'A page of events, oldest first', schema } },
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
    description:
      'What the operations console shows as health, for the calling platform only: the position of its newest ' +
      'event and how many of its events the read models have not applied yet, its jobs waiting, delayed, ' +
      'running and dead in each queue, resource counts, webhook deliveries by status, settlement balances ' +
      'and its newest events. Nothing shows how busy other platforms are.',
    responses: ok('Overview', 'OperationsOverview'),
  })
  async overview(@CurrentActor() actor: Actor) {
    return this.operations.overview(actor.platformId, await this.clocks.now(actor.platformId));
  }

  @Get('set-aside-events')
  @ApiDoc({
    summary: 'Events set aside by a shared processor',
    tag: 'Audit',
    description:
      "The calling platform's events that a shared processor (the webhook dispatcher, a projection, the card " +
      'reactor) could not handle and stepped over so that every other event goes on: which processor, where in ' +
      'the log, the event type and stream, and the failure (its kind and message). A failure that says a store ' +
      'is unavailable is retried from the checkpoint instead; any other is tried three times (waiting 0.1 s, then ' +
      '1 s) before the event is set aside. Newest first, cursor-paginated.',
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
  @ApiDoc(
    history(
      'History of a transaction',
      `${HISTORY} A transaction created from a quote shows the quote's events too (they share one stream).`,
    ),
  )
  transaction(
    @IdParam('Transaction', 'transactionId') id: string,
    @Query() q: AuditHistoryQuery,
    @CurrentActor() actor: Actor,
  ) {
    return this.audit.history(actor.platformId, 'transactions', id, q);
  }

  @Get('transactions/:transactionId/ledger')
  @ApiDoc(
    history(
      'Ledger legs of a transaction',
      'The transfers of the platform ledger made for the transaction: holds (PENDING), their posts and voids, and ' +
        'settled transfers, each with the debited and credited account, amount, currency and code, in ledger ' +
        `order. ${PAGING}`,
      'list:AuditLedgerLeg',
    ),
  )
  transactionLedger(
    @IdParam('Transaction', 'transactionId') id: string,
    @Query() q: AuditHistoryQuery,
    @CurrentActor() actor: Actor,
  ) {
    return this.audit.transactionLedger(actor.platformId, id, q);
  }

  @Get('internal-accounts/:accountId/history')
  @ApiDoc(
    history(
      'Ledger postings of an internal account',
      'The ledger postings that touch the account, from the platform ledger stream in order, each with the ' +
        'posted balance (credits less debits, minor units) right after it. PENDING holds do not change the ' +
        `posted balance; POSTED and VOIDED resolve them. ${PAGING}`,
      'list:AuditPosting',
    ),
  )
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
