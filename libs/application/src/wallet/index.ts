import { ExportWalletHandler, SetPrivateEnabledHandler } from './account-commands.js';
import {
  AddCredentialHandler,
  IssueCredentialChallengeHandler,
  RevokeCredentialHandler,
} from './credential-commands.js';
import { WalletEmailSync } from './customer-email.js';
import { RefreshSessionHandler, RevokeSessionHandler, VerifyCredentialHandler } from './session-commands.js';
import { SignedRetryService } from './signed-retry.service.js';
import { WalletAccounts } from './wallet-accounts.js';
import { WalletQueries } from './wallet-queries.js';
import { WalletSeedVault } from './wallet-seed.js';
import { WalletVerifiers } from './wallet-verifiers.js';

/** Command handlers of embedded-wallet authentication. */
export const walletHandlers = [
  AddCredentialHandler,
  IssueCredentialChallengeHandler,
  RevokeCredentialHandler,
  VerifyCredentialHandler,
  RevokeSessionHandler,
  RefreshSessionHandler,
  SetPrivateEnabledHandler,
  ExportWalletHandler,
];

/** Services other areas use: the signed-retry engine, wallet lookups, queries and the email sync. */
export const walletProviders = [
  SignedRetryService,
  WalletAccounts,
  WalletQueries,
  WalletVerifiers,
  WalletSeedVault,
  WalletEmailSync,
];
