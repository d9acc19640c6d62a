import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { SecretBox } from '#crypto/secret-box.js';
import { SECRET_BOX } from '../tokens.js';

const SEED_BYTES = 32;

/**
 * Wallet seeds at rest: each EMBEDDED_WALLET gets a random 32-byte seed at provisioning, stored
 * only sealed with the service secrets key (`SECRETS_KEY`, or the embedded default's key file)
 * and bound to its account id, so a sealed seed cannot be moved to another account.
 */
@Injectable()
export class WalletSeedVault {
  constructor(@Inject(SECRET_BOX) private readonly box: SecretBox) {}

  /** A new seed for `accountId`, already sealed; the clear seed never leaves this method. */
  newSealedSeed(accountId: string): string {
    const seed = randomBytes(SEED_BYTES);
    try {
      return this.box.seal(seed, context(accountId));
    } finally {
      seed.fill(0);
    }
  }

  /** Opens a sealed seed; the caller must wipe the returned buffer after use. */
  openSeed(accountId: string, sealed: string): Buffer {
    return this.box.open(sealed, context(accountId));
  }
}

const context = (accountId: string) => `wallet-seed:${accountId}`;
