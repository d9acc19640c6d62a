import { Body, Controller, Get, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { PlatformConfigQueries, UpdatePlatformConfigCommand } from '#application/platforms/platform-config.js';
import type { Actor } from '#application/tokens.js';
import { ConfigureWebhooksCommand, RotateWebhookSecretCommand } from '#application/webhooks/webhook-commands.js';
import type { Permission } from '#domain/platform/permissions.js';
import { validateSupportedCurrencies } from '#domain/platform/platform-config.js';
import { ApiDoc, ok } from '../docs/api-doc.js';
import { CurrentActor, CurrentPermissions } from '../http/auth.js';
import { IdempotentAction, SecretOnce } from '../http/idempotency.interceptor.js';
import { UpdateConfigDto } from './platform-config.dto.js';

const tag = 'Platform configuration';
const SIGNATURES =
  'Each delivery is a POST of the JSON envelope `{id, type, timestamp, data}` signed twice: ' +
  '`X-Service-Signature: {"v":"1","s":"<base64 DER>"}` (ECDSA P-256, SHA-256 over the raw body, ' +
  'verify with `webhookSigningPublicKey`), and Standard Webhooks headers `webhook-id`, ' +
  '`webhook-timestamp`, `webhook-signature` (HMAC with `webhookSecret`).';
const SECRET_SHOWN =
  '`webhookSecret` is shown only to a token with the MANAGE permission (a VIEW-only or TRANSACT token gets ' +
  'the configuration without it: the secret signs webhooks).';

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
    description:
      'UMA domain, supported currencies (the service’s defaults until set), embedded wallet settings (when set), ' +
      `the webhook endpoint (absent while none is set) and the keys receivers verify webhooks with. ${SIGNATURES} ` +
      SECRET_SHOWN,
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
    description:
      'Replaces the Standard Webhooks secret (`webhookSecret`) and returns the new one. Until ' +
      '`previousSecretValidUntil` (the platform clock plus `WEBHOOK_SECRET_ROTATION_GRACE_SECONDS`, 24 hours by ' +
      'default) every delivery’s `webhook-signature` carries two space-separated entries, `v1,<new> v1,<old>`, so ' +
      'receivers verifying with either secret accept it; after that only the new one. A replay with the same ' +
      'Idempotency-Key answers without `webhookSecret` (read it with GET /config). Needs MANAGE; 400 ' +
      'WEBHOOK_ENDPOINT_NOT_SET before webhooks were first configured. The ECDSA key is not rotated.',
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
    description:
      'Only the fields given change. webhookEndpoint: an https URL (http is accepted on sandbox platforms) on a ' +
      'public host: loopback, private, link-local, CGNAT, multicast, reserved and cloud metadata addresses are ' +
      'refused in every spelling (400), and names are resolved and checked again at every delivery, unless the ' +
      'operator allow-listed the host (`WEBHOOK_ALLOWED_HOSTS`); null turns webhooks off; the first one ' +
      'generates the webhook signing key pair and secret. umaDomain: where new customers’ UMA addresses are ' +
      'generated. supportedCurrencies replaces the list (each a currency the service supports: 400 ' +
      'INVALID_CURRENCY otherwise). embeddedWalletConfig: fields omitted are left as they are.',
    tag,
    responses: ok('The configuration', 'PlatformConfig'),
  })
  async update(@Body() body: UpdateConfigDto, @CurrentActor() actor: Actor) {
    const { webhookEndpoint, umaDomain, supportedCurrencies, embeddedWalletConfig } = body;
    // Refused before anything changes.
    if (supportedCurrencies) validateSupportedCurrencies(supportedCurrencies);
    if (webhookEndpoint !== undefined)
      await this.commands.execute(new ConfigureWebhooksCommand(webhookEndpoint, actor));
    if (umaDomain !== undefined || supportedCurrencies || embeddedWalletConfig) {
      const changes = {
        ...(umaDomain !== undefined ? { umaDomain } : {}),
        ...(supportedCurrencies ? { supportedCurrencies } : {}),
        ...(embeddedWalletConfig ? { embeddedWalletConfig: { ...embeddedWalletConfig } } : {}),
      };
      await this.commands.execute(new UpdatePlatformConfigCommand(changes, actor));
    }
    return this.queries.config(actor.platformId, true);
  }
}
