import { Module, type DynamicModule } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import type { AppConfig } from '#config/config.js';
import type { Clock } from '#domain/clock.js';
import type { IdGenerator } from '#domain/ids.js';
import { CommandRunner } from './command-runner.js';
import { PlatformClocks } from './platforms/platform-clocks.js';
import {
  CreateCustomerHandler,
  DeleteCustomerHandler,
  OpenInternalAccountHandler,
  UpdateCustomerHandler,
} from './customers/customer-commands.js';
import type { Infrastructure } from './infrastructure.js';
import { FundInternalAccountHandler } from './ledger/fund-commands.js';
import { CreateApiTokenHandler, CreatePlatformHandler, RevokeApiTokenHandler } from './platforms/platform-commands.js';
import { Queries } from './queries/queries.js';
import {
  CreateExternalAccountHandler,
  DeleteExternalAccountHandler,
} from './external-accounts/external-account-commands.js';
import { ExternalAccountQueries } from './external-accounts/external-account-queries.js';
import {
  CancelInvitationHandler,
  ClaimInvitationHandler,
  CreateInvitationHandler,
} from './invitations/invitation-commands.js';
import { InvitationQueries } from './invitations/invitation-queries.js';
import { UmaProviderQueries } from './uma-providers/uma-provider-queries.js';
import { CreateVerificationHandler } from './verifications/verification-commands.js';
import { VerificationQueries } from './verifications/verification-queries.js';
import { webhookHandlers } from './webhooks/webhook-commands.js';
import { webhookProviders } from './webhooks/webhook-providers.js';
import { WebhookQueries } from './webhooks/webhook-queries.js';
import { IdentityClaims } from './claims/identity-claims.js';
import { APP_CONFIG, CLOCK, EVENT_STORE, IDS, JOB_QUEUE, PROJECTIONS, READ_MODELS, SECRET_BOX } from './tokens.js';
import { loadSecretsKey, SecretBox } from '#crypto/secret-box.js';
import { walletHandlers, walletProviders } from './wallet/index.js';
import { cardHandlers, cardProviders } from './cards/card-providers.js';
import { moneyHandlers, moneyProviders } from './transactions/money-providers.js';

const handlers = [
  CreatePlatformHandler,
  CreateApiTokenHandler,
  RevokeApiTokenHandler,
  CreateCustomerHandler,
  UpdateCustomerHandler,
  DeleteCustomerHandler,
  OpenInternalAccountHandler,
  FundInternalAccountHandler,
  CreateExternalAccountHandler,
  DeleteExternalAccountHandler,
  CreateVerificationHandler,
  CreateInvitationHandler,
  CancelInvitationHandler,
  ClaimInvitationHandler,
  ...webhookHandlers,
  ...walletHandlers,
  ...cardHandlers,
  ...moneyHandlers,
];

/** Command handlers, queries and the ports they use, wired to the given infrastructure. */
@Module({})
export class ApplicationModule {
  static register(deps: { config: AppConfig; infra: Infrastructure; clock: Clock; ids: IdGenerator }): DynamicModule {
    const { infra } = deps;
    return {
      module: ApplicationModule,
      global: true,
      imports: [CqrsModule.forRoot()],
      providers: [
        { provide: APP_CONFIG, useValue: deps.config },
        { provide: CLOCK, useValue: deps.clock },
        { provide: PlatformClocks, useValue: infra.clocks },
        { provide: IDS, useValue: deps.ids },
        { provide: EVENT_STORE, useValue: infra.eventStore },
        { provide: READ_MODELS, useValue: infra.readModels },
        { provide: JOB_QUEUE, useValue: infra.jobs },
        { provide: PROJECTIONS, useValue: infra.projections },
        { provide: SECRET_BOX, useFactory: () => new SecretBox(loadSecretsKey(deps.config.secretsKey)) },
        {
          provide: CommandRunner,
          useFactory: () =>
            new CommandRunner(infra.eventStore, infra.projections, {
              readYourWritesTimeoutMs: deps.config.readYourWritesTimeoutMs,
            }),
        },
        IdentityClaims,
        Queries,
        ExternalAccountQueries,
        VerificationQueries,
        UmaProviderQueries,
        InvitationQueries,
        WebhookQueries,
        ...webhookProviders,
        ...walletProviders,
        ...cardProviders,
        ...moneyProviders,
        ...handlers,
      ],
      exports: [
        APP_CONFIG,
        CLOCK,
        PlatformClocks,
        IDS,
        EVENT_STORE,
        READ_MODELS,
        JOB_QUEUE,
        PROJECTIONS,
        SECRET_BOX,
        CommandRunner,
        IdentityClaims,
        Queries,
        ExternalAccountQueries,
        VerificationQueries,
        UmaProviderQueries,
        InvitationQueries,
        WebhookQueries,
        ...walletProviders,
        ...cardProviders,
        ...moneyProviders,
        CqrsModule,
      ],
    };
  }
}
