import { Module } from '@nestjs/common';
import { webhookHandlers } from './webhook-commands.js';
import { WebhookQueries } from './webhook-queries.js';

/**
 * Webhook configuration, the synchronous test send, redelivery requests and delivery queries. The test send attempts
 * through `WEBHOOK_ATTEMPTS`, which the process supplies (`ApplicationModule.register`).
 */
@Module({
  providers: [...webhookHandlers, WebhookQueries],
  exports: [WebhookQueries],
})
export class WebhooksModule {}
