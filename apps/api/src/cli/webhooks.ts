import { CommandBus } from '@nestjs/cqrs';
import { CommandRunner } from '#application/command-runner.js';
import { RedeliverWebhookCommand } from '#application/webhooks/webhook-commands.js';
import { WebhookQueries } from '#application/webhooks/webhook-queries.js';
import { webhookDeliveryDecider } from '#domain/webhooks/webhook-delivery.js';
import { webhookDeliveryStream } from '#domain/webhooks/webhook-ids.js';
import { idParam } from '../http/id-pipe.js';
import { platformActor, platformOption, type CliCommand } from './command.js';
import { fields } from './format.js';

/** Webhook deliveries: redelivery. */
export const webhookCommands: CliCommand[] = [
  {
    name: 'webhooks:redeliver',
    synopsis: '--platform Platform:<uuid> WebhookDelivery:<uuid>',
    description:
      'queues a FAILED or DEAD delivery again (same webhook id and body, the current endpoint, a fresh\n' +
      'retry budget), as POST /webhooks/deliveries/{id}/redeliver does; a worker sends it. Prints the\n' +
      'delivery once the read models show the request (READ_YOUR_WRITES_TIMEOUT_MS at most)',
    options: platformOption,
    positionals: 1,
    readYourWrites: true,
    async run(ctx) {
      const actor = await platformActor(ctx, 'webhooks:redeliver');
      const id = idParam('WebhookDelivery', 'deliveryId').transform(ctx.positionals[0]);
      await ctx.app.get(CommandBus).execute(new RedeliverWebhookCommand(id, actor));
      const delivery = await ctx.app.get(WebhookQueries).delivery(actor.platformId, id);
      // The request is in the log whatever the read models show; say so when no worker has projected it yet.
      const { state } = await ctx.app.get(CommandRunner).load(webhookDeliveryStream(id), webhookDeliveryDecider);
      if (Number(delivery.redeliveries) < state.redeliveries)
        console.error(
          `webhooks:redeliver: redelivery ${state.redeliveries} is recorded; the read models do not show it yet ` +
            '(is a worker running?)',
        );
      return {
        data: delivery,
        text: () =>
          fields(
            (
              [
                'id',
                'webhookId',
                'type',
                'status',
                'url',
                'attemptCount',
                'maxAttempts',
                'redeliveries',
                'updatedAt',
              ] as const
            ).map((k) => [k, delivery[k] as string]),
          ),
      };
    },
  },
];
