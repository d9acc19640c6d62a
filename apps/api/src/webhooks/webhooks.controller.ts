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

/** The webhook delivery log, redelivery and the sandbox test webhook (the endpoint is set with PATCH /config). */
@Controller()
export class WebhooksController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: WebhookQueries,
  ) {}

  @GetPage('webhooks/deliveries', 'List webhook deliveries', 'deliveries', 'WebhookDelivery', {
    description: 'Newest first unless sortOrder=asc.',
    tag: 'Webhooks',
  })
  list(@Query() query: ListDeliveriesQuery, @CurrentActor() actor: Actor) {
    return this.queries.listDeliveries(actor.platformId, query);
  }

  @GetOne('webhooks/deliveries/:deliveryId', 'Get a webhook delivery', ok('The delivery', 'WebhookDelivery'), {
    description: 'With its newest attempts (status code, latency, response excerpt, error).',
    tag: 'Webhooks',
  })
  get(@IdParam('WebhookDelivery', 'deliveryId') id: string, @CurrentActor() actor: Actor) {
    return this.queries.delivery(actor.platformId, id);
  }

  @Post('webhooks/deliveries/:deliveryId/redeliver')
  @HttpCode(202)
  @ApiDoc({
    summary: 'Redeliver a failed or dead webhook',
    description:
      'Queues the same webhook (same id and body) again to the current endpoint with a fresh retry ' +
      'budget. 409 unless the delivery is FAILED or DEAD.',
    tag: 'Webhooks',
    responses: { 202: { description: 'The delivery, PENDING again', schema: 'WebhookDelivery' } },
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
    description:
      'Sends a TEST webhook to the configured endpoint now and reports the receiver’s status and the first 256 ' +
      'characters of its body; never retried. A delivery that failed (no 2xx or 409 reply) is 400 ' +
      '`WEBHOOK_DELIVERY_ERROR` with `response_status`, `url`, `response_body` in `details` (`response_status` ' +
      '0 when no response arrived, with one generic `error`: a refused address, a failed connection and a ' +
      'timeout look alike). 400 `WEBHOOK_ENDPOINT_NOT_SET` without an endpoint; at most 10 per platform per ' +
      'minute (429).',
    tag: 'Sandbox',
    responses: ok('The receiver’s answer', 'WebhookTestResult'),
    errors: [400, 403, 429],
  })
  test(@CurrentActor() actor: Actor): Promise<TestWebhookResult> {
    return this.commands.execute(new SendTestWebhookCommand(actor));
  }
}
