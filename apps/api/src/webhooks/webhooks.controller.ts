import { Controller, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Actor } from '#application/tokens.js';
import {
  RedeliverWebhookCommand,
  SendTestWebhookCommand,
  type TestWebhookResult,
} from '#application/webhooks/webhook-commands.js';
import { WebhookQueries } from '#application/webhooks/webhook-queries.js';
import { ApiDoc, ok } from '../docs/api-doc.js';
import { GetOne, GetPage } from '../http/routes.js';
import { CurrentActor } from '../http/auth.js';
import { IdParam } from '../http/id-pipe.js';
import { RateLimit, RateLimitGuard, WEBHOOK_TEST_POLICY } from '../http/rate-limit.js';
import { ListDeliveriesQuery } from './webhook.dto.js';
import { WEBHOOKS_TEXT } from '../docs/descriptions/webhooks.js';

/** The webhook delivery log, redelivery and the sandbox test webhook (the endpoint is set with PATCH /config). */
@Controller()
export class WebhooksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: WebhookQueries,
  ) {}

  @GetPage('webhooks/deliveries', 'List webhook deliveries', 'deliveries', 'WebhookDelivery', {
    description: WEBHOOKS_TEXT.list,
    tag: 'Webhooks',
  })
  list(@Query() query: ListDeliveriesQuery, @CurrentActor() actor: Actor) {
    return this.queries.listDeliveries(actor.platformId, query);
  }

  @GetOne('webhooks/deliveries/:deliveryId', 'Get a webhook delivery', ok('The delivery', 'WebhookDelivery'), {
    description: WEBHOOKS_TEXT.get,
    tag: 'Webhooks',
  })
  get(@IdParam('WebhookDelivery', 'deliveryId') id: string, @CurrentActor() actor: Actor) {
    return this.queries.delivery(actor.platformId, id);
  }

  @Post('webhooks/deliveries/:deliveryId/redeliver')
  @HttpCode(202)
  @ApiDoc({
    summary: 'Redeliver a failed or dead webhook',
    description: WEBHOOKS_TEXT.redeliver,
    tag: 'Webhooks',
    responses: { 202: { description: WEBHOOKS_TEXT.redeliverResponse202, schema: 'WebhookDelivery' } },
    errors: [404, 409],
  })
  async redeliver(@IdParam('WebhookDelivery', 'deliveryId') id: string, @CurrentActor() actor: Actor) {
    await this.commands.execute(new RedeliverWebhookCommand(id, actor));
    return this.queries.delivery(actor.platformId, id);
  }

  @Post('sandbox/webhooks/test')
  @HttpCode(200)
  // RATE_LIMIT_WEBHOOK_TESTS per platform per window, counted whatever the target.
  @RateLimit(WEBHOOK_TEST_POLICY)
  @UseGuards(RateLimitGuard)
  @ApiDoc({
    summary: 'Send a test webhook (sandbox)',
    description: WEBHOOKS_TEXT.test,
    tag: 'Sandbox',
    responses: ok('The receiver’s answer', 'WebhookTestResult'),
    errors: [400, 403, 429],
  })
  test(@CurrentActor() actor: Actor): Promise<TestWebhookResult> {
    return this.commands.execute(new SendTestWebhookCommand(actor));
  }
}
