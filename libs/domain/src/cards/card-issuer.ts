import { createHash } from 'node:crypto';

/**
 * The simulated card issuer. The issuer, not the service, holds the PAN and CVV: the service only
 * keeps what the issuer returns (brand, last four digits, expiry, an opaque reference and the URL
 * of the issuer's iframe that shows the card details). Every value is derived from a random seed
 * chosen when the card is requested, so replaying the log yields the same card.
 */
export type CardBrand = 'VISA' | 'MASTERCARD';

/** How long sandbox provisioning takes on the sandbox clock. */
export const CARD_ISSUANCE_DELAY_MS = 5_000;

/** Cards expire at the end of the month of issuance, this many years later. */
const VALIDITY_YEARS = 3;

const ISSUER_EMBED_BASE = 'https://issuer.sandbox.local/embed/cards';

const digest = (seed: string, label: string) => createHash('sha256').update(`${label}:${seed}`).digest();

/** Assigned when the card is requested: the issuer's reference and the card network. */
export function requestedCardDetails(seed: string): { issuerRef: string; brand: CardBrand } {
  const hash = digest(seed, 'request');
  return {
    issuerRef: `iss_${hash.subarray(0, 12).toString('hex')}`,
    brand: hash[12] % 2 === 0 ? 'VISA' : 'MASTERCARD',
  };
}

/**
 * Returned by the issuer once the card exists. The embed token is opaque and unguessable (it derives from the seed).
 */
export function issuedCardDetails(
  seed: string,
  issuedAt: string,
): { last4: string; expMonth: number; expYear: number; panEmbedUrl: string } {
  const hash = digest(seed, 'issue');
  const last4 = (hash.readUInt32BE(0) % 10_000).toString().padStart(4, '0');
  const at = new Date(issuedAt);
  const { issuerRef } = requestedCardDetails(seed);
  const token = digest(seed, 'embed-token').toString('base64url');
  return {
    last4,
    expMonth: at.getUTCMonth() + 1,
    expYear: at.getUTCFullYear() + VALIDITY_YEARS,
    panEmbedUrl: `${ISSUER_EMBED_BASE}/${issuerRef}?token=${token}`,
  };
}

/** Sandbox outcome rule: a platformCardId whose last three characters are 002 is rejected by the issuer. */
export function sandboxIssuerRejects(platformCardId: string): boolean {
  return platformCardId.trim().slice(-3) === '002';
}

/**
 * The platformCardId of a card created without one: `card_` and 20 hex digits of a fresh id, drawn again when they
 * would end in the sandbox issuer's rejection value (a platform asks for a rejection by choosing the id; a generated
 * one ended in 002 for about one card in 4,096, which the sandbox issuer then rejected).
 */
export function generatedPlatformCardId(uuid: () => string): string {
  for (;;) {
    const id = `card_${uuid().replace(/-/g, '').slice(0, 20)}`;
    if (!sandboxIssuerRejects(id)) return id;
  }
}
