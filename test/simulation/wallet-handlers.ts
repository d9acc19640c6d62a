import type { AppConfig } from '#config/config.js';
import type { Clock } from '#domain/clock.js';
import type { IdGenerator } from '#domain/primitives.js';
import type { ReadModelStore } from '#read-models/read-model-store.js';
import { UpdateCardHandler, type CardLocks } from '#application/cards/card-commands.js';
import type { CommandContext } from '#application/command-context.js';
import { OpenInternalAccountHandler } from '#application/customers/customer-commands.js';
import { RevokeSessionHandler, VerifyCredentialHandler } from '#application/wallet/session-commands.js';
import { SignedRetryService } from '#application/wallet/signed-retry.service.js';
import { WalletAccounts } from '#application/wallet/wallet-accounts.js';
import { WalletQueries } from '#application/wallet/wallet-queries.js';
import { WalletVerifiers } from '#application/wallet/wallet-verifiers.js';
import type { SecretBox } from '#crypto/secret-box.js';
import type { Random } from './scheduler.js';
import { SeededSeedVault } from './wallet-crypto.js';

/** The service's wallet settings in a simulation: the default session lifetime (15 minutes), sandbox OIDC. */
const walletConfig = {
  wallet: {
    sessionLifetimeSeconds: 900,
    webauthn: { rpId: ['localhost'], origins: ['http://localhost:3000'] },
    oidcMode: 'sandbox',
    oidcIssuers: {},
  },
} as unknown as AppConfig;

/** The embedded-wallet part of a simulated process: the application's wallet services and handlers. */
export class SimWalletHandlers {
  readonly wallets: WalletAccounts;
  readonly signedRetry: SignedRetryService;
  readonly openAccount: OpenInternalAccountHandler;
  readonly verifyCredential: VerifyCredentialHandler;
  readonly revokeSession: RevokeSessionHandler;
  readonly updateCard: UpdateCardHandler;

  constructor(
    ctx: CommandContext,
    readModels: ReadModelStore,
    cardLocks: CardLocks,
    clock: Clock,
    ids: IdGenerator,
    box: SecretBox,
    random: Random,
  ) {
    this.wallets = new WalletAccounts(ctx, new SeededSeedVault(box, random), readModels);
    const queries = new WalletQueries(readModels, ctx.clocks);
    const verifiers = new WalletVerifiers(ctx.runner, walletConfig, clock);
    this.signedRetry = new SignedRetryService(this.wallets, ctx.clocks, ids);
    this.openAccount = new OpenInternalAccountHandler(ctx, this.wallets);
    this.verifyCredential = new VerifyCredentialHandler(
      this.wallets,
      queries,
      verifiers,
      walletConfig,
      ctx.clocks,
      ids,
    );
    this.revokeSession = new RevokeSessionHandler(this.wallets, queries, this.signedRetry);
    this.updateCard = new UpdateCardHandler(ctx, cardLocks, this.signedRetry, this.wallets);
  }
}
