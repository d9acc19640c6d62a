import { createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { WebhookSigningMaterial } from '#domain/webhooks/webhook-config.js';
import type { SecretBox } from '#crypto/secret-box.js';

const keyContext = (platformId: string) => `webhook-signing-key:${platformId}`;
const secretContext = (platformId: string) => `webhook-secret:${platformId}`;

/** A fresh P-256 key pair and Standard Webhooks secret for a platform, private parts sealed. */
export function generateWebhookKeys(box: SecretBox, platformId: string): WebhookSigningMaterial {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    sealedPrivateKey: box.seal(privateKey.export({ type: 'pkcs8', format: 'der' }), keyContext(platformId)),
    sealedSecret: box.seal(`whsec_${randomBytes(32).toString('base64')}`, secretContext(platformId)),
  };
}

/** The platform's Standard Webhooks secret in clear (returned by GET /config). */
export function openWebhookSecret(box: SecretBox, platformId: string, keys: WebhookSigningMaterial): string {
  return box.open(keys.sealedSecret, secretContext(platformId)).toString('utf8');
}

/**
 * Signs one webhook body two ways: `X-Service-Signature` (ECDSA P-256, SHA-256, DER, over the raw
 * body bytes) and the Standard Webhooks headers (HMAC-SHA256 over `id.timestamp.body`). The
 * Standard Webhooks timestamp is wall-clock time: receivers check it against their own clock.
 */
export class WebhookSigner {
  private readonly privateKey: KeyObject;
  private readonly standard: Webhook;

  constructor(box: SecretBox, platformId: string, keys: WebhookSigningMaterial) {
    this.privateKey = createPrivateKey({
      key: box.open(keys.sealedPrivateKey, keyContext(platformId)),
      format: 'der',
      type: 'pkcs8',
    });
    this.standard = new Webhook(openWebhookSecret(box, platformId, keys));
  }

  headers(webhookId: string, body: string, wallTime: Date): Record<string, string> {
    const signature = sign('sha256', Buffer.from(body, 'utf8'), { key: this.privateKey, dsaEncoding: 'der' }).toString(
      'base64',
    );
    return {
      'content-type': 'application/json',
      'x-service-signature': JSON.stringify({ v: '1', s: signature }),
      'webhook-id': webhookId,
      'webhook-timestamp': String(Math.floor(wallTime.getTime() / 1000)),
      'webhook-signature': this.standard.sign(webhookId, wallTime, body),
    };
  }
}
