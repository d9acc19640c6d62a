import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import type { AppConfig } from '#config/config.js';
import { railFolder, type BankRailConfig } from '#domain/payments/rails/bank-rails.js';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '#domain/errors.js';
import { streams } from '#domain/primitives.js';
import { platformDecider, type PlatformState } from '#domain/platforms/platform.js';
import {
  currencyConfigResource,
  defaultSupportedCurrencies,
  proxyUmaSubdomain,
  requireSupportedCurrency,
  type PlatformConfigChanges,
} from '#domain/platforms/platform-config.js';
import { CommandContext } from '../command-context.js';
import { CommandRunner, type Reads } from '../command-runner.js';
import { APP_CONFIG, type Actor } from '../tokens.js';
import { WebhookQueries } from '../webhooks/webhook-queries.js';

/** What a platform's creation fixes for good: whether it is a sandbox platform, and its settlement accounts. */
const platformCreationFacts: Reads<PlatformState> = { reads: 'fixed-facts', known: (s) => s.exists };

/** The platform as its creation left it, for those facts: a platform this process has seen is not read again. */
export async function platformAsCreated(runner: CommandRunner, platformId: string): Promise<PlatformState> {
  return (await runner.load(streams.platform(platformId), platformDecider, platformCreationFacts)).state;
}

/** The platform's settlement account in `code`; 400 UNSUPPORTED_CURRENCY when it has none. */
export async function settlementAccountOf(runner: CommandRunner, platformId: string, code: string): Promise<string> {
  const state = await platformAsCreated(runner, platformId);
  const id = state.settlementAccounts.get(code);
  if (!id)
    throw new DomainError('invalid', 'UNSUPPORTED_CURRENCY', `the platform has no settlement account in ${code}`);
  return id;
}

export async function isSandboxPlatform(runner: CommandRunner, platformId: string): Promise<boolean> {
  return (await platformAsCreated(runner, platformId)).sandbox === true;
}

/**
 * Checks that the platform offers each currency (400 INVALID_CURRENCY naming the field otherwise); quotes and
 * transfers call it before anything is recorded.
 */
export async function requireSupportedCurrencies(
  runner: CommandRunner,
  platformId: string,
  currencies: { code: string; field: string }[],
): Promise<void> {
  const { state } = await runner.load(streams.platform(platformId), platformDecider);
  for (const { code, field } of currencies) requireSupportedCurrency(state.supportedCurrencies, code, field);
}

/**
 * PATCH /config's fields besides the webhook endpoint (which the webhooks area records). `checkOnly`: decided on the
 * platform as it is, and refused as the change would be, but not recorded (PATCH /config checks its platform fields
 * before it changes the webhook endpoint, so that a refused request changes neither).
 */
export class UpdatePlatformConfigCommand {
  constructor(
    readonly changes: PlatformConfigChanges,
    readonly actor: Actor,
    readonly checkOnly = false,
  ) {}
}

@CommandHandler(UpdatePlatformConfigCommand)
export class UpdatePlatformConfigHandler implements ICommandHandler<UpdatePlatformConfigCommand, void> {
  constructor(
    private readonly ctx: CommandContext,
    @Inject(APP_CONFIG) private readonly appConfig: AppConfig,
  ) {}

  async execute({ changes, actor, checkOnly }: UpdatePlatformConfigCommand) {
    const now = await this.ctx.nowIso(actor.platformId);
    if (checkOnly) {
      const { state } = await this.ctx.runner.load(streams.platform(actor.platformId), platformDecider);
      platformDecider.decide({ type: 'UpdatePlatformConfig', changes, now }, state);
      return;
    }
    await this.ctx.runner.run(
      streams.platform(actor.platformId),
      platformDecider,
      { type: 'UpdatePlatformConfig', changes, now },
      { metadata: { ...actor } },
    );
    // Each rail's exchange folders exist from its configuration on: the bank may deliver before anything is paid.
    for (const rail of changes.rails ?? []) {
      const folder = join(this.appConfig.rails.dir, railFolder(actor.platformId, rail.currency));
      for (const side of ['outbox', 'inbox']) await mkdir(join(folder, side), { recursive: true });
    }
  }
}

/**
 * GET /config: the public API's PlatformConfig (id, UMA domain and its proxy subdomain, supported currencies,
 * regulated-institution flag, embedded wallet settings when set) with the webhook configuration; the
 * endpoint is absent, not null, while none is set.
 */
@Injectable()
export class PlatformConfigQueries {
  constructor(
    private readonly runner: CommandRunner,
    private readonly webhooks: WebhookQueries,
    @Inject(APP_CONFIG) private readonly appConfig: AppConfig,
  ) {}

  /** Each rail with the folders its files are exchanged through. */
  private rails(platformId: string, rails: readonly BankRailConfig[]): Record<string, unknown>[] {
    return rails.map((rail) => {
      const folder = join(this.appConfig.rails.dir, railFolder(platformId, rail.currency));
      return { ...rail, outboxFolder: join(folder, 'outbox'), inboxFolder: join(folder, 'inbox') };
    });
  }

  /** `withSecret`: whether the webhook secret is shown (only to a token that may manage the configuration). */
  async config(platformId: string, withSecret: boolean): Promise<Record<string, unknown>> {
    const { state } = await this.runner.load(streams.platform(platformId), platformDecider);
    const { webhookEndpoint, updatedAt, ...webhook } = await this.webhooks.config(platformId, withSecret);
    const umaDomain = state.umaDomain ?? '';
    const latest = [updatedAt, state.configUpdatedAt].filter((t): t is string => Boolean(t)).sort();
    return {
      id: platformId,
      umaDomain,
      proxyUmaSubdomain: proxyUmaSubdomain(platformId, umaDomain),
      supportedCurrencies: (state.supportedCurrencies ?? defaultSupportedCurrencies()).map(currencyConfigResource),
      // Set only by the service's operators when a platform is created; none is, here.
      isRegulatedFinancialInstitution: false,
      ...(state.embeddedWalletConfig ? { embeddedWalletConfig: state.embeddedWalletConfig } : {}),
      ...(state.rails?.length ? { rails: this.rails(platformId, state.rails) } : {}),
      ...(state.cardSpendingControls ? { cardSpendingControls: state.cardSpendingControls } : {}),
      ...(webhookEndpoint ? { webhookEndpoint } : {}),
      ...webhook,
      updatedAt: latest[latest.length - 1],
    };
  }
}
