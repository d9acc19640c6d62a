import { createECDH, createPrivateKey, sign } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { client, type Client } from '../support/service.js';
import { signedRequest } from '../support/wallet-session.js';
import { serveLoadProcess, startLoadProcess, type Measured, type TargetsMessage } from './bench-process.js';
import { NO_CHECK } from './scenario.js';

/** A card as the clients' process gets it: its id and its owner's session key pair (hex). */
export interface CardTarget {
  id: string;
  publicKey: string;
  privateKey: string;
}

interface Card {
  id: string;
  stamp(payloadToSign: string): Promise<string>;
}

/**
 * The card freeze/unfreeze benchmark's clients, in a process of their own: one virtual user per card, each doing
 * freeze then unfreeze, both signed-retry steps with real stamps. Operations: `targets` (a server's cards, by name),
 * `drive` (every user for `ms`; an operation is a round trip, its latencies those of each signed operation).
 */
export const startCardsLoad = () => startLoadProcess(import.meta.url);

/**
 * The same stamp `ApiKeyStamper` makes (the e2e tests use it), signed with node:crypto: the stamper's JavaScript
 * ECDSA costs about 1.4 ms per stamp and would make the clients, not the servers, the bottleneck.
 */
export function nodeStamper(publicKey: string, privateKey: string): (payloadToSign: string) => Promise<string> {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(privateKey, 'hex'));
  const point = ecdh.getPublicKey();
  const b64 = (bytes: Buffer) => bytes.toString('base64url');
  const key = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: b64(ecdh.getPrivateKey()),
      x: b64(point.subarray(1, 33)),
      y: b64(point.subarray(33)),
    },
    format: 'jwk',
  });
  return async (payloadToSign) => {
    const signature = sign('sha256', Buffer.from(payloadToSign, 'utf8'), { key, dsaEncoding: 'der' }).toString('hex');
    return Buffer.from(JSON.stringify({ publicKey, scheme: 'SIGNATURE_SCHEME_TK_API_P256', signature })).toString(
      'base64url',
    );
  };
}

async function drive(api: Client, cards: Card[], ms: number): Promise<Measured> {
  const latencies: number[] = [];
  let roundTrips = 0;
  const signed = async (card: Card, state: string) => {
    const t0 = performance.now();
    const { challenge, result } = await signedRequest(api, 'PATCH', `/cards/${card.id}`, { state }, card);
    if (challenge.status !== 202 || result.status !== 200 || result.body.state !== state) {
      throw new Error(`${state}: ${challenge.status}/${result.status} ${JSON.stringify(result.body)}`);
    }
    latencies.push(performance.now() - t0);
  };
  const started = performance.now();
  await Promise.all(
    cards.map(async (card) => {
      while (performance.now() - started < ms) {
        await signed(card, 'FROZEN');
        await signed(card, 'ACTIVE');
        roundTrips += 1;
      }
    }),
  );
  return { ops: roundTrips, seconds: (performance.now() - started) / 1000, latencies };
}

serveLoadProcess(import.meta.url, () => {
  const sets = new Map<string, { api: Client; cards: Card[] }>();
  return {
    targets: ({ name, baseUrl, auth, list }: TargetsMessage<CardTarget>) =>
      void sets.set(name, {
        api: client(baseUrl, auth, NO_CHECK),
        cards: list.map((c) => ({ id: c.id, stamp: nodeStamper(c.publicKey, c.privateKey) })),
      }),
    drive: ({ name, ms }: { name: string; ms: number }) => drive(sets.get(name)!.api, sets.get(name)!.cards, ms),
  };
});
