import { Module } from '@nestjs/common';
import { webhookHandlers } from './webhook-commands.js';
import { webhookProviders } from './webhook-providers.js';
import { WebhookQueries } from './webhook-queries.js';

/**
 * Webhook configuration, the synchronous test send, redelivery requests and delivery queries.
 */
@Module({
  providers: [...webhookHandlers, ...webhookProviders, WebhookQueries],
  exports: [...webhookProviders, WebhookQueries],
})
export class WebhooksModule {}
