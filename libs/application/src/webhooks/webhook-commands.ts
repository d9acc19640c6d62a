import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError, notFound } from '#domain/errors.js';
import { publicId, streams, uuidOf } from '#domain/primitives.js';
import { platformDecider } from '#domain/platforms/platform.js';
import {
  rotatedSecret,
  webhookConfigDecider,
  type HostPolicy,
  type WebhookConfigCommand,
} from '#domain/webhooks/webhook-config.js';
import { maxAttemptsFor, testWebhook, UNREACHABLE, webhookDeliveryDecider } from '#domain/webhooks/webhook-delivery.js';
import { webhookDeliveryStream } from '#domain/webhooks/webhook-ids.js';
import { CommandContext } from '../command-context.js';
import { CommandRunner } from '../command-runner.js';
import { requireSandbox } from '../payments/ledger/fund-commands.js';
import { APP_CONFIG, SECRET_BOX, WEBHOOK_ATTEMPTS, type Actor } from '../tokens.js';
import type { AppConfig } from '#config/config.js';
import type { SecretBox } from '#crypto/secret-box.js';
import type { WebhookAttempts } from './webhook-attempts.js';
import { generateWebhookKeys, newSealedWebhookSecret, openWebhookSecret } from './webhook-keys.js';
import { refusedUrlHost } from '#net/address-policy.js';
import type { DecisionEndpointInput } from '#domain/webhooks/decision-endpoints.js';

/** Sets the webhook endpoint, and the decision endpoints with it in one change when given. */
export class ConfigureWebhooksCommand {
  constructor(
    readonly webhookEndpoint: string | null,
    readonly actor: Actor,
    readonly decisionEndpoints?: DecisionEndpointInput[],
  ) {}
}
/** Replaces the platform's decision endpoints ([] removes them). */
export class ConfigureDecisionEndpointsCommand {
  constructor(
    readonly decisionEndpoints: DecisionEndpointInput[],
    readonly actor: Actor,
  ) {}
}
export class RotateWebhookSecretCommand {
  constructor(readonly actor: Actor) {}
}
export class SendTestWebhookCommand {
  constructor(readonly actor: Actor) {}
}
export class RedeliverWebhookCommand {
  constructor(
    readonly deliveryId: string,
    readonly actor: Actor,
  ) {}
}

const notConfigured = () =>
  new DomainError(
    'invalid',
    'WEBHOOK_ENDPOINT_NOT_SET',
    'no webhook endpoint is configured; set one with PATCH /config',
  );

async function currentEndpoint(runner: CommandRunner, platformId: string): Promise<string> {
  const { state } = await runner.load(streams.webhooks(platformId), webhookConfigDecider);
  if (!state.webhookEndpoint) throw notConfigured();
  return state.webhookEndpoint;
}

/** What a change of endpoints is decided with, besides the endpoints. */
interface EndpointRules {
  platformId: string;
  sandbox: boolean;
  hosts: HostPolicy;
  now: string;
}

/** Handlers that make or replace the signing material: sealed with the secret box, within the service's settings. */
abstract class WebhookKeysHandler {
  constructor(
    protected readonly ctx: CommandContext,
    @Inject(SECRET_BOX) protected readonly box: SecretBox,
    @Inject(APP_CONFIG) protected readonly config: AppConfig,
  ) {}

  /** What a change of endpoints is decided with: the platform's kind, the address policy, keys if none exist yet. */
  protected async endpointRules(platformId: string): Promise<EndpointRules> {
    const { state: platform } = await this.ctx.runner.load(streams.platform(platformId), platformDecider);
    return {
      platformId,
      sandbox: Boolean(platform.sandbox),
      hosts: { refuses: (url: URL) => refusedUrlHost(url, this.config.webhookAllowedHosts) !== undefined },
      now: (await this.ctx.now(platformId)).toISOString(),
    };
  }

  /**
   * Decides the change of endpoints that `command` makes from the rules on the platform's webhook stream; the first
   * configuration also carries newly generated signing material.
   */
  protected async changeEndpoints(actor: Actor, command: (rules: EndpointRules) => WebhookConfigCommand) {
    const rules = await this.endpointRules(actor.platformId);
    await this.ctx.runner.run(
      streams.webhooks(actor.platformId),
      webhookConfigDecider,
      (state) => ({
        ...command(rules),
        ...(state.keys ? {} : { newKeys: generateWebhookKeys(this.box, actor.platformId) }),
      }),
      { metadata: { ...actor } },
    );
  }
}

/**
 * Sets the decision endpoints, signed with the webhooks' material: the first configuration generates it (no webhook
 * endpoint needs to be set).
 */
@CommandHandler(ConfigureDecisionEndpointsCommand)
export class ConfigureDecisionEndpointsHandler
  extends WebhookKeysHandler
  implements ICommandHandler<ConfigureDecisionEndpointsCommand, void>
{
  async execute({ decisionEndpoints, actor }: ConfigureDecisionEndpointsCommand) {
    await this.changeEndpoints(actor, (rules) => ({ type: 'SetDecisionEndpoints', ...rules, decisionEndpoints }));
  }
}

/** Sets (or with null clears) the endpoint; the first configuration generates the signing material. */
@CommandHandler(ConfigureWebhooksCommand)
export class ConfigureWebhooksHandler
  extends WebhookKeysHandler
  implements ICommandHandler<ConfigureWebhooksCommand, void>
{
  async execute({ webhookEndpoint, actor, decisionEndpoints }: ConfigureWebhooksCommand) {
    await this.changeEndpoints(actor, (rules) => ({
      type: 'SetWebhookEndpoint',
      ...rules,
      webhookEndpoint,
      ...(decisionEndpoints ? { decisionEndpoints } : {}),
    }));
  }
}

export interface RotatedWebhookSecret {
  /** The new secret, in clear: shown here once. */
  webhookSecret: string;
  /** Until when (platform clock) deliveries also carry a signature made with the replaced secret. */
  previousSecretValidUntil: string;
}

/**
 * Replaces the Standard Webhooks secret. The replaced one keeps signing beside the new one for the configured grace
 * period, so receivers can switch without rejecting deliveries; the event holds both only sealed.
 */
@CommandHandler(RotateWebhookSecretCommand)
export class RotateWebhookSecretHandler
  extends WebhookKeysHandler
  implements ICommandHandler<RotateWebhookSecretCommand, RotatedWebhookSecret>
{
  async execute({ actor }: RotateWebhookSecretCommand): Promise<RotatedWebhookSecret> {
    const now = (await this.ctx.now(actor.platformId)).toISOString();
    const { state } = await this.ctx.runner.run(
      streams.webhooks(actor.platformId),
      webhookConfigDecider,
      {
        type: 'RotateWebhookSecret',
        platformId: actor.platformId,
        sealedSecret: newSealedWebhookSecret(this.box, actor.platformId),
        graceSeconds: this.config.webhookSecretGraceSeconds,
        now,
      },
      { metadata: { ...actor } },
    );
    const { keys, previous } = rotatedSecret(state);
    return {
      webhookSecret: openWebhookSecret(this.box, actor.platformId, keys),
      previousSecretValidUntil: previous.validUntil,
    };
  }
}

export interface TestWebhookResult {
  response_status: number;
  url: string;
  response_body: string;
  /** Set when no response arrived (response_status is then 0): always the same generic words. */
  error?: string;
}

/** How much of the receiver's body the test reports. */
export const TEST_RESPONSE_CHARS = 256;

/** Sends a TEST webhook now and reports the receiver's answer; recorded like any delivery, never retried. */
@CommandHandler(SendTestWebhookCommand)
export class SendTestWebhookHandler implements ICommandHandler<SendTestWebhookCommand, TestWebhookResult> {
  constructor(
    private readonly ctx: CommandContext,
    @Inject(WEBHOOK_ATTEMPTS) private readonly deliverer: WebhookAttempts,
  ) {}

  async execute({ actor }: SendTestWebhookCommand): Promise<TestWebhookResult> {
    await requireSandbox(this.ctx.runner, actor);
    const url = await currentEndpoint(this.ctx.runner, actor.platformId);
    const uuid = this.ctx.ids.uuid();
    const deliveryId = publicId('WebhookDelivery', uuid);
    const now = (await this.ctx.now(actor.platformId)).toISOString();
    const payload = testWebhook(publicId('Webhook', uuid), now);
    await this.ctx.runner.run(
      webhookDeliveryStream(deliveryId),
      webhookDeliveryDecider,
      { type: 'ScheduleDelivery', deliveryId, platformId: actor.platformId, url, payload, maxAttempts: 1, now },
      { metadata: { ...actor }, answersAfter: 'append' },
    );
    const {
      result,
      url: sentTo,
      outcome,
    } = await this.deliverer.deliver(
      {
        deliveryId,
        platformId: actor.platformId,
        webhookId: payload.id,
        webhookType: payload.type,
        body: JSON.stringify(payload),
        attempt: 1,
        maxAttempts: 1,
      },
      { answersAfter: 'projection' },
    );
    const to = sentTo ?? url;
    const answer: TestWebhookResult =
      result.statusCode === undefined
        ? { response_status: 0, url: to, response_body: '', error: UNREACHABLE }
        : {
            response_status: result.statusCode,
            url: to,
            response_body: [...(result.responseBody ?? '')].slice(0, TEST_RESPONSE_CHARS).join(''),
          };
    if (outcome === 'DELIVERED') return answer;
    // As the public API: a failed delivery is a 400, with what the receiver answered in the details.
    throw new DomainError(
      'invalid',
      'WEBHOOK_DELIVERY_ERROR',
      answer.response_status === 0
        ? 'the test webhook was not delivered: no answer from the endpoint'
        : `the test webhook was not delivered: the endpoint answered ${answer.response_status}`,
      { ...answer },
    );
  }
}

/**
 * Asks for a FAILED or DEAD delivery to be sent again to the current endpoint with a fresh
 * attempt budget. Only the request is recorded here; the dispatcher queues the delivery from the
 * log, so a crash in between loses nothing.
 */
@CommandHandler(RedeliverWebhookCommand)
export class RedeliverWebhookHandler implements ICommandHandler<RedeliverWebhookCommand, void> {
  constructor(private readonly ctx: CommandContext) {}

  async execute({ deliveryId, actor }: RedeliverWebhookCommand) {
    if (!uuidOf('WebhookDelivery', deliveryId)) throw notFound('WEBHOOK_DELIVERY', deliveryId);
    const stream = webhookDeliveryStream(deliveryId);
    const { state } = await this.ctx.runner.load(stream, webhookDeliveryDecider);
    if (!state.exists || state.platformId !== actor.platformId) throw notFound('WEBHOOK_DELIVERY', deliveryId);
    const url = await currentEndpoint(this.ctx.runner, actor.platformId);
    await this.ctx.runner.run(
      stream,
      webhookDeliveryDecider,
      {
        type: 'RequestRedelivery',
        url,
        maxAttempts: maxAttemptsFor(state.payload.type),
        now: (await this.ctx.now(actor.platformId)).toISOString(),
      },
      { metadata: { ...actor } },
    );
  }
}

export const webhookHandlers = [
  ConfigureWebhooksHandler,
  ConfigureDecisionEndpointsHandler,
  RotateWebhookSecretHandler,
  SendTestWebhookHandler,
  RedeliverWebhookHandler,
];
