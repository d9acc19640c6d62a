import { Controller, Get, Header, Inject, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiDoc } from '../../api/src/docs/api-doc.js';
import { CurrentActor, Public } from '../../api/src/http/auth.js';
import type { Actor } from '../../../libs/application/src/tokens.js';
import { EVENT_STORE, PROJECTIONS, READ_MODELS } from '../../../libs/application/src/tokens.js';
import type { EventStore } from '../../../libs/event-store/src/event-store.js';
import type { ProjectionRunner } from '../../../libs/read-models/src/projection-runner.js';
import { Collections } from '../../../libs/read-models/src/projections/collections.js';
import type { InternalAccountDoc } from '../../../libs/read-models/src/projections/internal-account-docs.js';
import type { ReadModelStore } from '../../../libs/read-models/src/read-model-store.js';
import { notFound } from '../../../libs/domain/src/errors.js';
import { CONSOLE_ASSETS, readConsoleFile } from './console-assets.js';

/** How many of the newest events of the global log the activity feed looks through. */
const RECENT_WINDOW = 500;

/**
 * The operations console: a static page and small ES modules that work through the public API and
 * the audit endpoints with the platform's credentials, plus the health overview of the log and its
 * projections. The page and its files are public; every piece of data needs the credentials.
 */
@Controller('dashboard')
export class DashboardController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModelStore,
    @Inject(PROJECTIONS) private readonly projections: ProjectionRunner,
  ) {}

  @Get()
  @Public()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @ApiDoc({ summary: 'Operations console (HTML; holds no data, asks for API credentials)', tag: 'Dashboard', auth: 'none', responses: { 200: { description: 'HTML page' } } })
  page() {
    return readConsoleFile('apps/dashboard/public/index.html');
  }

  @Get('assets/:name')
  @Public()
  @ApiDoc({ summary: 'A static file of the operations console (its scripts, styles and Chart.js)', tag: 'Dashboard', auth: 'none', responses: { 200: { description: 'The file' } }, errors: [404] })
  asset(@Param('name') name: string, @Res() res: Response) {
    const asset = Object.hasOwn(CONSOLE_ASSETS, name) ? CONSOLE_ASSETS[name] : undefined;
    if (!asset) throw notFound('CONSOLE_FILE', name);
    res.type(asset.type).set('Cache-Control', 'no-cache').send(readConsoleFile(asset.path));
  }

  @Get('overview')
  @ApiDoc({ summary: 'Dashboard data: log and projection health, counts, webhook deliveries by status, balances, recent activity', tag: 'Dashboard', responses: { 200: { description: 'Overview' } } })
  async overview(@CurrentActor() actor: Actor) {
    const scope = [{ field: 'platformId', op: 'eq' as const, value: actor.platformId }];
    const count = async (collection: string, extra: { field: string; op: 'eq'; value: unknown }[] = []) =>
      (await this.readModels.find(collection, { filters: [...scope, ...extra], limit: 1 })).totalCount;
    const head = await this.events.headPosition();
    const projected = this.projections.position;
    const settlement = await this.readModels.find<InternalAccountDoc>(Collections.internalAccounts, {
      filters: [...scope, { field: 'customerId', op: 'exists', value: false }],
      sortBy: 'currency',
      sortOrder: 'asc',
      limit: 100,
    });
    const webhooks: Record<string, number> = {};
    for (const status of ['PENDING', 'DELIVERED', 'FAILED', 'DEAD']) {
      webhooks[status] = await count(Collections.webhookDeliveries, [{ field: 'status', op: 'eq', value: status }]);
    }
    const recent = await this.events.readLast(RECENT_WINDOW);
    const mine = recent.filter((e) => e.metadata.platformId === actor.platformId).slice(0, 25);
    return {
      generatedAt: new Date().toISOString(),
      eventLog: { headPosition: head.toString() },
      projections: { position: projected.toString(), lag: (head > projected ? head - projected : 0n).toString() },
      counts: {
        customers: await count(Collections.customers, [{ field: 'isDeleted', op: 'eq', value: false }]),
        internalAccounts: await count(Collections.internalAccounts),
        apiTokens: await count(Collections.apiTokens, [{ field: 'status', op: 'eq', value: 'ACTIVE' }]),
        agents: await count(Collections.agents),
        pendingApprovals: await count(Collections.agentActions, [{ field: 'status', op: 'eq', value: 'PENDING_APPROVAL' }]),
      },
      webhookDeliveries: webhooks,
      settlementBalances: settlement.data.map((a) => ({ accountId: a.id, currency: a.currency, amount: a.balance.amount })),
      recentEvents: mine.map((e) => ({ position: e.position.toString(), type: e.type, stream: e.streamName, actor: e.metadata.actor, recordedAt: e.recordedAt.toISOString() })),
    };
  }
}
