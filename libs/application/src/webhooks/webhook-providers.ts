import type { Provider } from '@nestjs/common';
import type { AppConfig } from '../../../config/src/config.js';
import { systemClock, type Clock } from '../../../domain/src/clock.js';
import { CommandRunner } from '../command-runner.js';
import { APP_CONFIG, CLOCK } from '../tokens.js';
import { loadSecretsKey, SecretBox } from './secret-box.js';
import { WebhookDeliverer } from './webhook-deliverer.js';

export const SECRET_BOX = Symbol('SECRET_BOX');

/** The sealing box and the deliverer (used by the synchronous sandbox test), for the application module. */
export const webhookProviders: Provider[] = [
  { provide: SECRET_BOX, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new SecretBox(loadSecretsKey(config.secretsKey)) },
  {
    provide: WebhookDeliverer,
    inject: [CommandRunner, SECRET_BOX, CLOCK, APP_CONFIG],
    useFactory: (runner: CommandRunner, box: SecretBox, clock: Clock, config: AppConfig) =>
      new WebhookDeliverer({ runner, box, clock, wallClock: systemClock, timeoutMs: config.webhookTimeoutMs }),
  },
];
