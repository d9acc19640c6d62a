import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { AREAS, ApplicationModule, type ApplicationDeps } from '#application/application.module.js';
import { ConsoleController } from './console/console.controller.js';
import { InternalAccountsController } from './internal-accounts/internal-accounts.controller.js';
import { CustomersController } from './customers/customers.controller.js';
import { CustomersBulkController } from './customers/customers-bulk.controller.js';
import { ExternalAccountsController } from './external-accounts/external-accounts.controller.js';
import { InvitationsController } from './invitations/invitations.controller.js';
import { UmaProvidersController } from './uma-providers/uma-providers.controller.js';
import { VerificationsController } from './verifications/verifications.controller.js';
import { KycReviewsController } from './verifications/kyc-reviews.controller.js';
import { KycProviderCallbackController, KycProviderConfigController } from './verifications/kyc-provider.controller.js';
import { BeneficialOwnersController } from './beneficial-owners/beneficial-owners.controller.js';
import { KycLinksController } from './kyc-links/kyc-links.controller.js';
import { DocumentsController } from './documents/documents.controller.js';
import { DocsController } from './docs/docs.controller.js';
import { HealthController } from './health/health.controller.js';
import { PlatformAuthGuard } from './http/auth.js';
import { ErrorFilter } from './http/errors.js';
import { UploadIdempotency } from './http/retries.js';
import {
  AuthFailureLimiter,
  RATE_LIMITS,
  RATE_LIMIT_POLICIES,
  TRUSTED_PROXIES,
  RATE_LIMIT_STORAGE,
  RateLimitGuard,
  RateLimitStorageCloser,
  policiesOf,
} from './http/rate-limit.js';
import { createRateLimitStorage } from './http/rate-limit-storage.js';
import { SandboxController } from './sandbox/sandbox.controller.js';
import { TokensController } from './tokens/tokens.controller.js';
import { PlatformConfigController } from './platforms/platform-config.controller.js';
import { AuthCredentialsController } from './wallet/auth-credentials.controller.js';
import { AuthSessionsController } from './wallet/auth-sessions.controller.js';
import { WalletAccountsController } from './wallet/wallet-accounts.controller.js';
import { WebhooksController } from './webhooks/webhooks.controller.js';
import { ExchangeRatesController } from './payments/rates/exchange-rates.controller.js';
import { LookupsController } from './payments/lookups/lookups.controller.js';
import { QuotesController } from './payments/quotes/quotes.controller.js';
import { TransactionsController } from './payments/transactions/transactions.controller.js';
import { TransfersController } from './payments/transfers/transfers.controller.js';
import { BankRailsController } from './payments/rails/bank-rails.controller.js';
import { CryptoController } from './crypto/crypto.controller.js';
import { DiscoveriesController } from './discoveries/discoveries.controller.js';
import { SandboxMoneyController } from './sandbox/sandbox-money.controller.js';
import { SandboxClockController } from './sandbox-clock/sandbox-clock.controller.js';
import { CardsController } from './cards/cards.controller.js';
import { CardTransactionsController } from './cards/card-transactions.controller.js';
import { SandboxCardsController } from './sandbox/sandbox-cards.controller.js';
import { CardProcessorConfigController, CardProcessorController } from './cards/card-processor.controller.js';
import { AgentMeController } from './agents/agent-me.controller.js';
import { AgentsController } from './agents/agents.controller.js';
import { AuditController } from './audit/audit.controller.js';
import { AuditQueries } from '#application/audit/audit-queries.js';
import { OperationsOverview } from '#application/audit/operations-overview.js';

// Static paths (customers/internal-accounts, agents/me) must register before parameterised ones (customers/:customerId,
// agents/:agentId).
export const API_CONTROLLERS = [
  InternalAccountsController,
  ExternalAccountsController,
  CustomersBulkController,
  CustomersController,
  KycReviewsController,
  VerificationsController,
  BeneficialOwnersController,
  KycLinksController,
  DocumentsController,
  UmaProvidersController,
  InvitationsController,
  AuthCredentialsController,
  AuthSessionsController,
  WalletAccountsController,
  TokensController,
  PlatformConfigController,
  SandboxController,
  SandboxCardsController,
  CardsController,
  CardTransactionsController,
  CardProcessorController,
  CardProcessorConfigController,
  KycProviderCallbackController,
  KycProviderConfigController,
  SandboxMoneyController,
  SandboxClockController,
  ExchangeRatesController,
  LookupsController,
  QuotesController,
  TransactionsController,
  TransfersController,
  BankRailsController,
  DiscoveriesController,
  CryptoController,
  AgentMeController,
  AgentsController,
  AuditController,
  WebhooksController,
  DocsController,
  HealthController,
  ConsoleController,
];

@Module({})
export class ApiModule {
  static register(deps: ApplicationDeps): DynamicModule {
    const limits = deps.config.rateLimits;
    const storage = createRateLimitStorage(deps.config);
    return {
      module: ApiModule,
      imports: [ApplicationModule.register(deps), ...AREAS],
      controllers: API_CONTROLLERS,
      providers: [
        { provide: RATE_LIMIT_STORAGE, useValue: storage },
        { provide: RATE_LIMITS, useValue: limits },
        { provide: TRUSTED_PROXIES, useValue: deps.config.trustedProxies },
        { provide: RATE_LIMIT_POLICIES, useValue: policiesOf(limits) },
        AuditQueries,
        OperationsOverview,
        AuthFailureLimiter,
        RateLimitGuard,
        RateLimitStorageCloser,
        UploadIdempotency,
        { provide: APP_GUARD, useClass: PlatformAuthGuard },
        { provide: APP_FILTER, useClass: ErrorFilter },
      ],
    };
  }
}
