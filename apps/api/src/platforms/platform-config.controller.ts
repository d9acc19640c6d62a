import { Body, Controller, Get, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { PlatformConfigQueries, UpdatePlatformConfigCommand } from '#application/platforms/platform-config.js';
import type { Actor } from '#application/tokens.js';
import {
  ConfigureDecisionEndpointsCommand,
  ConfigureWebhooksCommand,
  RotateWebhookSecretCommand,
} from '#application/webhooks/webhook-commands.js';
import type { Permission } from '#domain/platforms/permissions.js';
import { validateSupportedCurrencies } from '#domain/platforms/platform-config.js';
import { validateBankRails } from '#domain/payments/rails/bank-rails.js';
import { checkSpendingControls } from '#domain/cards/card-spending.js';
import { plainControls } from '../cards/spending-controls.dto.js';
import { ApiDoc, ok } from '../docs/api-doc.js';
import { CurrentActor, CurrentPermissions } from '../http/auth.js';
import { IdempotentAction, SecretOnce } from '../http/retries.js';
import { UpdateConfigDto } from './platform-config.dto.js';
import { PLATFORM_CONFIG_TEXT } from '../docs/descriptions/platform-config.js';

const tag = 'Platform configuration';
/** GET/PATCH /config: the platform's configuration, webhooks included. */
@Controller('config')
export class PlatformConfigController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: PlatformConfigQueries,
  ) {}

  @Get()
  @ApiDoc({
    summary: 'Get the platform configuration',
    description: PLATFORM_CONFIG_TEXT.config,
    tag,
    responses: ok('The configuration', 'PlatformConfig'),
  })
  config(@CurrentActor() actor: Actor, @CurrentPermissions() permissions: readonly Permission[]) {
    return this.queries.config(actor.platformId, permissions.includes('MANAGE'));
  }

  @IdempotentAction('webhook-secret/rotate')
  @SecretOnce('webhookSecret')
  @ApiDoc({
    summary: 'Rotate the webhook secret',
    description: PLATFORM_CONFIG_TEXT.rotateWebhookSecret,
    tag,
    responses: ok('The new secret', 'WebhookSecretRotation'),
    errors: [400],
  })
  rotateWebhookSecret(@CurrentActor() actor: Actor) {
    return this.commands.execute(new RotateWebhookSecretCommand(actor));
  }

  @Patch()
  @ApiDoc({
    summary: 'Update the platform configuration',
    description: PLATFORM_CONFIG_TEXT.update,
    tag,
    responses: ok('The configuration', 'PlatformConfig'),
  })
  async update(@Body() body: UpdateConfigDto, @CurrentActor() actor: Actor) {
    const { webhookEndpoint, umaDomain, embeddedWalletConfig, rails, decisionEndpoints } = body;
    // The provider's required fields are the service's to say: a list sent back from GET /config keeps none of them.
    const supportedCurrencies = body.supportedCurrencies?.map(
      ({ providerRequiredCustomerFields: _c, providerRequiredCounterpartyCustomerFields: _p, ...own }) => own,
    );
    const { cardSpendingControls } = body;
    const controls = cardSpendingControls === undefined ? undefined : plainControls(cardSpendingControls);
    if (controls) checkSpendingControls(controls, 'cardSpendingControls');
    // Refused before anything changes.
    if (supportedCurrencies) validateSupportedCurrencies(supportedCurrencies);
    if (rails) validateBankRails(rails.map((r) => ({ ...r, account: { ...r.account } })));
    const decisions = decisionEndpoints?.map((e) => ({ ...e }));
    const platform =
      umaDomain !== undefined || supportedCurrencies || embeddedWalletConfig || rails || controls !== undefined;
    const changes = {
      ...(controls !== undefined ? { cardSpendingControls: controls } : {}),
      ...(rails ? { rails: rails.map((r) => ({ ...r, account: { ...r.account } })) } : {}),
      ...(umaDomain !== undefined ? { umaDomain } : {}),
      ...(supportedCurrencies ? { supportedCurrencies } : {}),
      ...(embeddedWalletConfig ? { embeddedWalletConfig: { ...embeddedWalletConfig } } : {}),
    };
    // The platform's fields are checked first: a refused request changes neither stream.
    if (platform) await this.commands.execute(new UpdatePlatformConfigCommand(changes, actor, true));
    // The webhook endpoint and the decision endpoints change together or not at all (one stream, one append).
    if (webhookEndpoint !== undefined)
      await this.commands.execute(new ConfigureWebhooksCommand(webhookEndpoint, actor, decisions));
    else if (decisions) await this.commands.execute(new ConfigureDecisionEndpointsCommand(decisions, actor));
    if (platform) await this.commands.execute(new UpdatePlatformConfigCommand(changes, actor));
    return this.queries.config(actor.platformId, true);
  }
}
