import { Global, Module, type DynamicModule } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import type { AppConfig } from '#config/config.js';
import type { Clock } from '#domain/clock.js';
import type { IdGenerator } from '#domain/primitives.js';
import { CommandContext, PlatformClocks } from './command-context.js';
import { CommandRunner } from './command-runner.js';
import type { Infrastructure } from './infrastructure.js';
import { Queries } from './queries/queries.js';
import { IdentityClaims } from './claims/identity-claims.js';
import {
  APP_CONFIG,
  BLOB_STORE,
  CLOCK,
  EVENT_STORE,
  IDS,
  JOB_QUEUE,
  PROJECTIONS,
  READ_MODELS,
  SECRET_BOX,
  WEBHOOK_ATTEMPTS,
  PLATFORM_DECISIONS,
} from './tokens.js';
import { NO_PLATFORM_DECISIONS, type PlatformDecisions } from './decisions/platform-decisions.js';
import { KYC_PROVIDER, NO_KYC_PROVIDER, type KycProvider } from './verifications/kyc-provider.js';
import { loadSecretsKey, SecretBox } from '#crypto/secret-box.js';
import { AgentsModule } from './agents/agents.module.js';
import { BeneficialOwnersModule } from './beneficial-owners/beneficial-owners.module.js';
import { CardsModule } from './cards/cards.module.js';
import { CryptoModule } from './crypto/crypto.module.js';
import { CustomersModule } from './customers/customers.module.js';
import { DiscoveriesModule } from './discoveries/discoveries.module.js';
import { DocumentsModule } from './documents/documents.module.js';
import { ExternalAccountsModule } from './external-accounts/external-accounts.module.js';
import { InvitationsModule } from './invitations/invitations.module.js';
import { KycLinksModule } from './kyc-links/kyc-links.module.js';
import { PlatformsModule } from './platforms/platforms.module.js';
import { PaymentsModule } from './payments/payments.module.js';
import { UmaProvidersModule } from './uma-providers/uma-providers.module.js';
import { VerificationsModule } from './verifications/verifications.module.js';
import { WalletModule } from './wallet/wallet.module.js';
import { NO_WEBHOOK_ATTEMPTS, type WebhookAttempts } from './webhooks/webhook-attempts.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';
import { caughtUpReads } from './queries/caught-up-read.js';

/**
 * One module per area; each exports the services other areas and the HTTP edge use, and imports the areas whose
 * services it uses.
 */
export const AREAS = [
  PlatformsModule,
  CustomersModule,
  ExternalAccountsModule,
  VerificationsModule,
  BeneficialOwnersModule,
  KycLinksModule,
  DocumentsModule,
  InvitationsModule,
  UmaProvidersModule,
  WebhooksModule,
  WalletModule,
  CardsModule,
  PaymentsModule,
  DiscoveriesModule,
  CryptoModule,
  AgentsModule,
];

/** What the application is built on. */
export interface ApplicationDeps {
  config: AppConfig;
  infra: Infrastructure;
  clock: Clock;
  ids: IdGenerator;
  /** Delivery attempts made now (the sandbox test send): the worker's deliverer, where the process sends webhooks. */
  webhookAttempts?: WebhookAttempts;
  /** The platforms' decision endpoints, asked in the request (card authorizations, agent actions). */
  platformDecisions?: PlatformDecisions;
  /** The production platforms' KYC providers (verifications waiting for review are sent to them). */
  kycProvider?: KycProvider;
}

/**
 * The ports, the command runner (and the command context handlers take: runner, clocks, ids) and the shared queries,
 * wired to the given infrastructure, and every area module. The one global module: every area sees the ports without
 * importing them; an area's services are seen only by the modules that import its module (the HTTP edge imports them
 * all).
 */
@Global()
@Module({})
export class ApplicationModule {
  static register(deps: ApplicationDeps): DynamicModule {
    const { infra } = deps;
    return {
      module: ApplicationModule,
      imports: [CqrsModule.forRoot(), ...AREAS],
      providers: [
        { provide: APP_CONFIG, useValue: deps.config },
        { provide: CLOCK, useValue: deps.clock },
        { provide: PlatformClocks, useValue: infra.clocks },
        { provide: IDS, useValue: deps.ids },
        { provide: EVENT_STORE, useValue: infra.eventStore },
        { provide: READ_MODELS, useValue: caughtUpReads(infra.readModels, infra.eventStore) },
        { provide: JOB_QUEUE, useValue: infra.jobs },
        { provide: BLOB_STORE, useValue: infra.blobs },
        { provide: PROJECTIONS, useValue: infra.projections },
        { provide: SECRET_BOX, useFactory: () => new SecretBox(loadSecretsKey(deps.config.secretsKey)) },
        { provide: WEBHOOK_ATTEMPTS, useValue: deps.webhookAttempts ?? NO_WEBHOOK_ATTEMPTS },
        { provide: PLATFORM_DECISIONS, useValue: deps.platformDecisions ?? NO_PLATFORM_DECISIONS },
        { provide: KYC_PROVIDER, useValue: deps.kycProvider ?? NO_KYC_PROVIDER },
        { provide: CommandRunner, useValue: infra.runner },
        CommandContext,
        IdentityClaims,
        Queries,
      ],
      exports: [
        APP_CONFIG,
        CLOCK,
        PlatformClocks,
        IDS,
        EVENT_STORE,
        READ_MODELS,
        JOB_QUEUE,
        BLOB_STORE,
        PROJECTIONS,
        SECRET_BOX,
        WEBHOOK_ATTEMPTS,
        PLATFORM_DECISIONS,
        KYC_PROVIDER,
        CommandRunner,
        CommandContext,
        IdentityClaims,
        Queries,
        CqrsModule,
      ],
    };
  }
}
