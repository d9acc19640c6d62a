import { Inject, Injectable } from '@nestjs/common';
import { TIMER_QUEUE } from '#domain/payments/transactions/payment-plan.js';
import { WEBHOOK_QUEUE } from '#domain/webhooks/retry-policy.js';
import type { EventStore } from '#event-store/event-store.js';
import type { JobQueue, QueueDepth } from '#jobs/job-queue.js';
import type { ProjectionRunner } from '#read-models/runner/projection-runner.js';
import { Collections } from '#read-models/projections/collections.js';
import type { InternalAccountDoc } from '#read-models/projections/internal-account-docs.js';
import type { Filter, ReadModelStore } from '#read-models/read-model-store.js';
import { CARD_PROVISIONING_QUEUE } from '../cards/card-jobs.js';
import { BULK_IMPORT_QUEUE } from '../customers/bulk-imports.js';
import { EVENT_STORE, JOB_QUEUE, PROJECTIONS, READ_MODELS } from '../tokens.js';

/** How many of the newest events of the global log the activity feed looks through. */
const RECENT_WINDOW = 500;
/** The queues a platform's work waits in; each job carries its platform as its group. */
const QUEUES = [WEBHOOK_QUEUE, TIMER_QUEUE, CARD_PROVISIONING_QUEUE, BULK_IMPORT_QUEUE];

/**
 * The operations console's health view of one platform: how far the read models trail its events, how many of the
 * platform's jobs wait in each queue, counts, settlement balances and its latest events. Only the platform's own
 * data is shown: the log head is the position of its newest event (among the log's latest RECENT_WINDOW; 0 when
 * none is), and the lag counts its events the read models have not applied, so nothing tells how busy other
 * platforms are.
 */
@Injectable()
export class OperationsOverview {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModelStore,
    @Inject(PROJECTIONS) private readonly projections: ProjectionRunner,
    @Inject(JOB_QUEUE) private readonly jobs: JobQueue,
  ) {}

  async overview(platformId: string, now: Date) {
    const scope: Filter[] = [{ field: 'platformId', op: 'eq', value: platformId }];
    const count = async (collection: string, extra: Filter[] = []) =>
      (await this.readModels.find(collection, { filters: [...scope, ...extra], limit: 1 })).totalCount;
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
    const queues: Record<string, QueueDepth> = {};
    for (const queue of QUEUES) queues[queue] = await this.jobs.depth(queue, platformId);
    const recent = await this.events.readLast(RECENT_WINDOW);
    const own = recent.filter((e) => e.metadata.platformId === platformId);
    const head = own[0]?.position ?? 0n;
    const applied = own.find((e) => e.position <= projected)?.position ?? 0n;
    const mine = own.slice(0, 25);
    return {
      generatedAt: now.toISOString(),
      eventLog: { headPosition: head.toString() },
      projections: {
        position: (projected >= head ? head : applied).toString(),
        lag: own.filter((e) => e.position > projected).length.toString(),
      },
      queues,
      counts: {
        customers: await count(Collections.customers, [{ field: 'isDeleted', op: 'eq', value: false }]),
        internalAccounts: await count(Collections.internalAccounts),
        apiTokens: await count(Collections.apiTokens, [{ field: 'status', op: 'eq', value: 'ACTIVE' }]),
        agents: await count(Collections.agents),
        pendingApprovals: await count(Collections.agentActions, [
          { field: 'status', op: 'eq', value: 'PENDING_APPROVAL' },
        ]),
      },
      webhookDeliveries: webhooks,
      settlementBalances: settlement.data.map((a) => ({
        accountId: a.id,
        currency: a.currency,
        amount: a.balance.amount,
      })),
      recentEvents: mine.map((e) => ({
        position: e.position.toString(),
        type: e.type,
        stream: e.streamName,
        actor: e.metadata.actor,
        recordedAt: e.recordedAt.toISOString(),
      })),
    };
  }
}
