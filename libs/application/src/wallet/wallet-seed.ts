import { Inject, Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../../../config/src/config.js';
import { APP_CONFIG } from '../tokens.js';

const SEED_BYTES = 32;
const KEY_FILE = 'wallet-seed.key';
const VERSION = 'v1';

/**
 * Wallet seeds at rest: each EMBEDDED_WALLET gets a random 32-byte seed at provisioning, stored
 * only as AES-256-GCM ciphertext bound to its account id (so a sealed seed cannot be moved to
 * another account). The key-encryption key comes from `WALLET_SEED_KEY`, or from a key file
 * created once in the data directory for the embedded single-process setup.
 */
@Injectable()
export class WalletSeedVault {
  private key?: Buffer;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** A new seed for `accountId`, already encrypted; the clear seed never leaves this method. */
  newSealedSeed(accountId: string): string {
    const seed = randomBytes(SEED_BYTES);
    try {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', this.kek(), iv);
      cipher.setAAD(Buffer.from(accountId, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(seed), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}.${iv.toString('base64url')}.${ciphertext.toString('base64url')}`;
    } finally {
      seed.fill(0);
    }
  }

  /** Decrypts a sealed seed; the caller must wipe the returned buffer after use. */
  openSeed(accountId: string, sealed: string): Buffer {
    const [version, iv, body] = sealed.split('.');
    if (version !== VERSION || !iv || !body) throw new Error('sealed wallet seed has an unknown format');
    const bytes = Buffer.from(body, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', this.kek(), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(accountId, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - 16)), decipher.final()]);
  }

  private kek(): Buffer {
    if (this.key) return this.key;
    const configured = this.config.wallet.seedKey;
    this.key = configured ? Buffer.from(configured, 'hex') : this.keyFile();
    return this.key;
  }

  private keyFile(): Buffer {
    const path = join(this.config.dataDir, KEY_FILE);
    try {
      return Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    mkdirSync(this.config.dataDir, { recursive: true });
    try {
      // `wx`: when two processes race to create it, the loser reads the winner's key.
      writeFileSync(path, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return Buffer.from(readFileSync(path, 'utf8').trim(), 'hex');
  }
}
