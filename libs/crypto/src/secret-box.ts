import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { ensurePrivateDir } from '#config/private-files.js';
import { dirname } from 'node:path';
import type { AppConfig } from '#config/config.js';

const VERSION = 'v1';

/**
 * Seals secrets that must be kept in the event log (AES-256-GCM with the service secrets key):
 * webhook signing keys and secrets, wallet seeds. The context (e.g.
 * `webhook-signing-key:<platformId>`, `wallet-seed:<accountId>`) is bound as additional data, so a
 * sealed value copied to another platform, account or purpose does not open.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new RangeError('the secrets key must be 32 bytes');
  }

  seal(plaintext: Buffer | string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([
      cipher.update(typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext),
      cipher.final(),
    ]);
    return [
      VERSION,
      iv.toString('base64url'),
      ciphertext.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
    ].join('.');
  }

  open(sealed: string, context: string): Buffer {
    const [version, iv, ciphertext, tag] = sealed.split('.');
    if (version !== VERSION || !iv || ciphertext === undefined || !tag) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    try {
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
    } catch {
      throw new Error(
        'a sealed secret could not be opened: the secrets key (SECRETS_KEY or secrets.key) is not ' +
          'the one it was sealed with',
      );
    }
  }
}

function decodeKey(base64: string, source: string): Buffer {
  const key = Buffer.from(base64.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${source} must hold 32 bytes in base64`);
  return key;
}

/**
 * The configured key, or the embedded default's key file, created on first use. The file is
 * written to a temporary name and hard-linked into place, so two processes starting together
 * agree on one key and nobody reads a half-written file.
 */
export function loadSecretsKey(config: AppConfig['secretsKey']): Buffer {
  if (config.kind === 'env') return decodeKey(config.base64, 'SECRETS_KEY');
  const { path } = config;
  try {
    return decodeKey(readFileSync(path, 'utf8'), path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  ensurePrivateDir(dirname(path));
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const fd = openSync(temporary, 'wx', 0o600);
  try {
    writeSync(fd, randomBytes(32).toString('base64') + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
  return decodeKey(readFileSync(path, 'utf8'), path);
}
