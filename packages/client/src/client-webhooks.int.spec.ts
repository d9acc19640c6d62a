import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestService, type TestService } from '../../../test/support/service.js';
import { PaymentsClient } from './client.js';
import { WebhookVerificationError, WebhookVerifier, type WebhookEvent } from './webhooks.js';

interface Delivery {
  body: Buffer;
  headers: IncomingHttpHeaders;
  answered: number;
  event?: WebhookEvent;
  error?: WebhookVerificationError;
}

/** A receiver as an integrator writes it: raw body, WebhookVerifier, 400 for anything that does not verify. */
async function startReceiver(): Promise<{
  url: string;
  deliveries: Delivery[];
  use(v: WebhookVerifier): void;
  server: Server;
}> {
  const deliveries: Delivery[] = [];
  let verifier: WebhookVerifier | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const delivery: Delivery = { body: Buffer.concat(chunks), headers: req.headers, answered: 400 };
      try {
        delivery.event = verifier!.verify(delivery.body, req.headers);
        delivery.answered = 200;
      } catch (error) {
        delivery.error = error as WebhookVerificationError;
      }
      deliveries.push(delivery);
      res.writeHead(delivery.answered, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/webhooks`, deliveries, use: (v) => (verifier = v), server };
}

describe('WebhookVerifier in a receiver of real deliveries', () => {
  let t: TestService;
  let client: PaymentsClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    t = await startTestService();
    const { tokenId, clientSecret } = t.service.sandbox!;
    client = new PaymentsClient({ baseUrl: t.url, tokenId, clientSecret });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    receiver?.server.close();
    receiver?.server.closeAllConnections();
    await t?.close();
  });

  const resend = (body: Buffer | string, headers: IncomingHttpHeaders) =>
    fetch(receiver.url, {
      method: 'POST',
      headers: Object.fromEntries(
        Object.entries(headers).filter(([k, v]) => typeof v === 'string' && !['content-length', 'host'].includes(k)),
      ) as Record<string, string>,
      body: typeof body === 'string' ? body : new Uint8Array(body),
    });

  it('accepts a real delivery with both signatures, rejects tampered copies and says which check failed', async () => {
    const config = await client.patch<{ webhookSigningPublicKey: string; webhookSecret: string }>('/config', {
      webhookEndpoint: receiver.url,
    });
    receiver.use(new WebhookVerifier(config));
    const test = await client.post<{ response_status: number }>('/sandbox/webhooks/test');
    expect(test.response_status).toBe(200);
    expect(receiver.deliveries).toHaveLength(1);
    const [real] = receiver.deliveries;
    expect(real.answered).toBe(200);
    expect(real.event).toMatchObject({ type: 'TEST' });
    expect(typeof real.event!.id).toBe('string');

    // The body changed after signing: the ECDSA signature no longer matches.
    const tampered = Buffer.from(real.body.toString('utf8').replace('"TEST"', '"INCOMING_PAYMENT"'));
    expect(tampered.equals(real.body)).toBe(false);
    expect((await resend(tampered, real.headers)).status).toBe(400);
    expect(receiver.deliveries[1].error).toMatchObject({ check: 'service-signature' });

    // The body intact but the Standard Webhooks signature replaced: the HMAC check refuses it.
    const forged = { ...real.headers, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')}` };
    expect((await resend(real.body, forged)).status).toBe(400);
    expect(receiver.deliveries[2].error).toMatchObject({ check: 'standard-webhooks' });

    // Keys that are not the platform's verify nothing of it.
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const strangerKeys = {
      webhookSigningPublicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      webhookSecret: config.webhookSecret,
    };
    expect(() => new WebhookVerifier(strangerKeys).verify(real.body, real.headers)).toThrow(WebhookVerificationError);
    const wrongSecret = { ...config, webhookSecret: `whsec_${randomBytes(24).toString('base64')}` };
    expect(() => new WebhookVerifier(wrongSecret).verify(real.body, real.headers)).toThrow(/Standard Webhooks/);

    // The untouched delivery still verifies.
    expect((await resend(real.body, real.headers)).status).toBe(200);
  });
});
