import { Module } from '@nestjs/common';
import { walletHandlers, walletProviders } from './index.js';

/**
 * Embedded-wallet authentication: credentials, sessions, signed retry, wallet accounts.
 */
@Module({ providers: [...walletHandlers, ...walletProviders], exports: [...walletProviders] })
export class WalletModule {}
