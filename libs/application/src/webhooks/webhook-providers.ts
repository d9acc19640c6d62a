import type { Provider } from '@nestjs/common';
import type { AppConfig } from '#config/config.js';
import { systemClock } from '#domain/clock.js';
import { CommandRunner } from '../command-runner.js';
import { PlatformClocks } from '../platforms/platform-clocks.js';
import { APP_CONFIG, SECRET_BOX } from '../tokens.js';
import type { SecretBox } from '#crypto/secret-box.js';
import { WebhookDeliverer } from './webhook-deliverer.js';

export { SECRET_BOX };

/** The deliverer (used by the synchronous sandbox test), for the application module. */
export const webhookProviders: Provider[] = [
  {
    provide: WebhookDeliverer,
    inject: [CommandRunner, SECRET_BOX, PlatformClocks, APP_CONFIG],
    useFactory: (runner: CommandRunner, box: SecretBox, clocks: PlatformClocks, config: AppConfig) =>
      new WebhookDeliverer({
        runner,
        box,
        clocks,
        wallClock: systemClock,
        timeoutMs: config.webhookTimeoutMs,
        allowedHosts: config.webhookAllowedHosts,
      }),
  },
];
