import { createHmac, createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { openWebhookSecret, openWebhookSigningKey } from '#application/webhooks/webhook-keys.js';
import type { SecretBox } from '#crypto/secret-box.js';
import type { PreviousWebhookSecret, WebhookSigningMaterial } from '#domain/webhooks/webhook-config.js';

const hmacKeyOf = (secret: string) => Buffer.from(secret.slice('whsec_'.length), 'base64');

/** The ECDSA signature of `data`, computed on libuv's thread pool (not the event loop's thread). */
const signOffThread = (data: Buffer, key: KeyObject) =>
  new Promise<Buffer>((resolve, reject) =>
    sign('sha256', data, { key, dsaEncoding: 'der' }, (error, signature) =>
      error ? reject(error) : resolve(signature),
    ),
  );

/**
 * Signs one webhook body two ways: `X-Service-Signature` (ECDSA P-256, SHA-256, DER, over the raw
 * body bytes) and the Standard Webhooks headers (HMAC-SHA256 over `id.timestamp.body`, keyed with the
 * secret's bytes after `whsec_`: the `standardwebhooks` package verifies it). The
 * Standard Webhooks timestamp is wall-clock time: receivers check it against their own clock.
 *
 * After a rotation, until the replaced secret's grace period ends on the platform's clock, `webhook-signature`
 * carries a second `v1,<sig>` made with it (space-separated, as Standard Webhooks allows; verifiers accept any).
 *
 * The ECDSA signature is made on the thread pool, and the HMAC with node:crypto (the package's own
 * signing hashes in JavaScript): a busy deliverer keeps its event loop for the next deliveries.
 */
export class WebhookSigner {
  private readonly privateKey: KeyObject;
  private readonly hmacKey: Buffer;
  private readonly previous?: { hmacKey: Buffer; validUntil: number };

  constructor(
    box: SecretBox,
    platformId: string,
    keys: WebhookSigningMaterial,
    previous?: PreviousWebhookSecret,
    /** Signs on the event loop's thread (a simulation, whose turns must not depend on the thread pool's timing). */
    private readonly onLoop = false,
  ) {
    this.privateKey = createPrivateKey({
      key: openWebhookSigningKey(box, platformId, keys),
      format: 'der',
      type: 'pkcs8',
    });
    this.hmacKey = hmacKeyOf(openWebhookSecret(box, platformId, keys));
    if (previous)
      this.previous = {
        hmacKey: hmacKeyOf(openWebhookSecret(box, platformId, previous)),
        validUntil: Date.parse(previous.validUntil),
      };
  }

  /** `wallTime`: the Standard Webhooks timestamp; `platformNow`: the platform's clock, for the grace period. */
  async headers(
    webhookId: string,
    body: string,
    wallTime: Date,
    platformNow = wallTime,
  ): Promise<Record<string, string>> {
    const data = Buffer.from(body, 'utf8');
    const key = { key: this.privateKey, dsaEncoding: 'der' } as const;
    const signature = (this.onLoop ? sign('sha256', data, key) : await signOffThread(data, this.privateKey)).toString(
      'base64',
    );
    const timestamp = String(Math.floor(wallTime.getTime() / 1000));
    const signed = `${webhookId}.${timestamp}.${body}`;
    const keys = [this.hmacKey];
    if (this.previous && platformNow.getTime() < this.previous.validUntil) keys.push(this.previous.hmacKey);
    const hmac = keys.map((key) => `v1,${createHmac('sha256', key).update(signed).digest('base64')}`).join(' ');
    return {
      'content-type': 'application/json',
      'x-service-signature': JSON.stringify({ v: '1', s: signature }),
      'webhook-id': webhookId,
      'webhook-timestamp': timestamp,
      'webhook-signature': hmac,
    };
  }
}
