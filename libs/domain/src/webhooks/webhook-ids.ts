import { createHash } from 'node:crypto';
import { publicId } from '../primitives.js';

/**
 * A uuid derived from a name (SHA-256, RFC 4122 layout with version 5 bits): the same source
 * event always yields the same webhook id, so a dispatcher that runs an event again after a
 * crash produces the same webhook (and receivers dedupe it).
 */
export function uuidFromName(name: string): string {
  const h = createHash('sha256').update(name).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The webhook and its delivery share one uuid: one webhook goes to one platform's endpoint. */
export function webhookIdsFor(
  sourceEventId: string,
  index: number,
): { uuid: string; webhookId: string; deliveryId: string } {
  const uuid = uuidFromName(`webhook:${sourceEventId}:${index}`);
  return { uuid, webhookId: publicId('Webhook', uuid), deliveryId: publicId('WebhookDelivery', uuid) };
}

/** Delivery records live in one stream per webhook. */
export const webhookDeliveryStream = (deliveryId: string) => `webhookdelivery-${deliveryId.split(':')[1]}`;
