import { ECDH, type BinaryToTextEncoding, type ECDHKeyFormat } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import { WalletSeedVault } from '#application/wallet/wallet-seed.js';
import type { SecretBox } from '#crypto/secret-box.js';
import type { Random } from './scheduler.js';

/** `count` bytes drawn from the seed. */
export function seededBytes(random: Random, count: number): Buffer {
  const bytes = Buffer.alloc(count);
  for (let i = 0; i < count; i++) bytes[i] = random.int(256);
  return bytes;
}

/** A valid P-256 private scalar drawn from the seed (redrawn in the rare case it is out of range). */
export function seededScalar(random: Random): Buffer {
  for (;;) {
    const bytes = seededBytes(random, 32);
    if (p256.utils.isValidSecretKey(bytes)) return bytes;
  }
}

/** WebCrypto calls started and not yet settled (the service seals session keys with HPKE over WebCrypto). */
let inflight = 0;

/** Whether real asynchronous work (WebCrypto, done on other threads) is in flight. */
export const outsideWorkPending = (): boolean => inflight > 0;

/** Waits until no WebCrypto call is in flight and what its answers woke has run. */
export async function quiesceOutsideWork(): Promise<void> {
  while (inflight > 0) await new Promise<void>((resolve) => setImmediate(resolve));
}

const SUBTLE_METHODS = [
  'encrypt',
  'decrypt',
  'sign',
  'verify',
  'digest',
  'generateKey',
  'deriveKey',
  'deriveBits',
  'importKey',
  'exportKey',
  'wrapKey',
  'unwrapKey',
] as const;

/**
 * Makes the service's key material a function of the seed and its WebCrypto calls deterministic in order, until the
 * returned undo is called:
 * - a P-256 key pair the service generates (`createECDH(...).generateKeys()`: session signing keys) takes its private
 *   scalar from the seed, so the public keys the wallet streams record are the same on every run of a seed;
 * - WebCrypto calls (HPKE sealing of those keys to the device) run one at a time, in the order they are started, and
 *   are counted, so that the scheduler lets each one finish before it picks the next completion (see `settle`):
 *   their answers then wake the same code at the same point of every run.
 */
export function installSeededCrypto(random: Random): () => void {
  type GenerateKeys = (this: ECDH, encoding?: BinaryToTextEncoding, format?: ECDHKeyFormat) => unknown;
  const ecdh = ECDH.prototype as unknown as { generateKeys: GenerateKeys };
  const generateKeys = ecdh.generateKeys;
  ecdh.generateKeys = function (encoding, format) {
    this.setPrivateKey(seededScalar(random));
    return encoding ? this.getPublicKey(encoding, format) : this.getPublicKey(null, format);
  };
  const subtle = Object.getPrototypeOf(globalThis.crypto.subtle) as Record<string, (...args: unknown[]) => unknown>;
  const saved = new Map(SUBTLE_METHODS.map((name) => [name, subtle[name]]));
  let queue: Promise<unknown> = Promise.resolve();
  for (const [name, method] of saved) {
    subtle[name] = function (this: unknown, ...args: unknown[]) {
      inflight++;
      const run = queue.then(() => method.apply(this, args));
      queue = run.catch(() => undefined);
      return run.finally(() => inflight--);
    };
  }
  return () => {
    ecdh.generateKeys = generateKeys;
    for (const [name, method] of saved) subtle[name] = method;
  };
}

/** The wallet seed vault with seeds drawn from the simulation's seed (the real vault draws them from the system). */
export class SeededSeedVault extends WalletSeedVault {
  constructor(
    private readonly sealer: SecretBox,
    private readonly random: Random,
  ) {
    super(sealer);
  }

  override newSealedSeed(accountId: string): string {
    return this.sealer.seal(seededBytes(this.random, 32), `wallet-seed:${accountId}`);
  }
}
