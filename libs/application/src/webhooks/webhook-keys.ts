import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { WebhookSigningMaterial } from '#domain/webhooks/webhook-config.js';
import type { SecretBox } from '#crypto/secret-box.js';

const keyContext = (platformId: string) => `webhook-signing-key:${platformId}`;
const secretContext = (platformId: string) => `webhook-secret:${platformId}`;

/** A fresh Standard Webhooks secret `whsec_...` for a platform, sealed. */
export function newSealedWebhookSecret(box: SecretBox, platformId: string): string {
  return box.seal(`whsec_${randomBytes(32).toString('base64')}`, secretContext(platformId));
}

/** A fresh P-256 key pair and Standard Webhooks secret for a platform, private parts sealed. */
export function generateWebhookKeys(box: SecretBox, platformId: string): WebhookSigningMaterial {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    sealedPrivateKey: box.seal(privateKey.export({ type: 'pkcs8', format: 'der' }), keyContext(platformId)),
    sealedSecret: newSealedWebhookSecret(box, platformId),
  };
}

/** The platform's Standard Webhooks secret in clear (returned by GET /config). */
export function openWebhookSecret(
  box: SecretBox,
  platformId: string,
  keys: Pick<WebhookSigningMaterial, 'sealedSecret'>,
) {
  return box.open(keys.sealedSecret, secretContext(platformId)).toString('utf8');
}

/** The platform's ECDSA signing key (PKCS#8, DER) in clear: what the deliverer signs with. */
export function openWebhookSigningKey(
  box: SecretBox,
  platformId: string,
  keys: Pick<WebhookSigningMaterial, 'sealedPrivateKey'>,
): Buffer {
  return box.open(keys.sealedPrivateKey, keyContext(platformId));
}
