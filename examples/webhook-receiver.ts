/**
 * A webhook receiver: a small node:http server that checks both signatures of every delivery and registers
 * itself as the platform's webhook endpoint.
 *
 * Every delivery is signed twice (keys from `PATCH /config` or `GET /config`):
 * - Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`), HMAC with
 *   `webhookSecret`: the `standardwebhooks` package checks them and refuses stale timestamps (replays);
 * - `X-Service-Signature: {"v":"1","s":"<base64 DER>"}`, ECDSA P-256 with SHA-256 over the raw body,
 *   checked with `webhookSigningPublicKey` (PEM) by node:crypto.
 * `WebhookVerifier` of `@payments-platform/client` checks both. Verify the raw bytes as received, before parsing.
 * Delivery is at least once: dedupe on the envelope `id`
 * and answer 2xx (or 409) quickly; anything else is retried with backoff.
 *
 * On start it sends itself the sandbox test webhook (`POST /sandbox/webhooks/test`) and stops with exit code 1
 * unless that arrives verified. Then it prints each verified event until SIGINT/SIGTERM (exit code 0).
 *
 *   WEBHOOK_PORT        port to listen on (default 4000; 0 picks a free one)
 *   WEBHOOK_HOST        address to listen on (default 127.0.0.1)
 *   WEBHOOK_PUBLIC_URL  the URL the service should call, if not http://WEBHOOK_HOST:port/webhooks (e.g. a tunnel)
 *
 * The service refuses loopback and private endpoints unless allowed: start it with
 * `WEBHOOK_ALLOWED_HOSTS=127.0.0.1 npm start` to receive on this machine.
 *
 * Run: node dist/examples/webhook-receiver.js   (environment: see setup.ts)
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookVerifier, type WebhookEvent } from '@payments-platform/client';
import { check, errorMessage, PaymentsApiError, platformClient, show, step } from './setup.js';

interface WebhookConfig {
  webhookEndpoint: string | null;
  webhookSigningPublicKey: string;
  webhookSecret: string;
}

const MAX_BODY_BYTES = 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function answer(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function main(): Promise<void> {
  const client = platformClient();
  let verifier: WebhookVerifier | undefined;
  const seen = new Set<string>(); // webhook ids already handled (keep them in your database)
  let verifiedTests = 0;

  const server = createServer((req, res) => {
    if (req.method !== 'POST') return answer(res, 405, { error: 'POST only' });
    readBody(req).then(
      (rawBody) => {
        if (!verifier) return answer(res, 503, { error: 'not configured yet' });
        let event: WebhookEvent<{ id?: string }>;
        try {
          // Throws WebhookVerificationError for a wrong signature, missing headers or a timestamp too far off.
          event = verifier.verify(rawBody, req.headers);
        } catch (error) {
          console.log(`✗ rejected a delivery: ${errorMessage(error)}`);
          return answer(res, 400, { error: 'invalid signature' });
        }
        if (seen.has(event.id)) return answer(res, 200, { duplicate: event.id });
        seen.add(event.id);
        if (event.type === 'TEST') verifiedTests += 1;
        // Do the real work here (or queue it), then answer 2xx.
        console.log(`✓ verified ${event.type} ${event.id}${event.data.id ? ` ${event.data.id}` : ''}`);
        answer(res, 200, { received: event.id });
      },
      (error: unknown) => answer(res, 400, { error: errorMessage(error) }),
    );
  });

  step('Listen for webhooks');
  const host = process.env.WEBHOOK_HOST ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(process.env.WEBHOOK_PORT ?? 4000), host, () => resolve());
  });
  const stop = () => {
    server.close();
    server.closeAllConnections();
  };
  try {
    const { port } = server.address() as AddressInfo;
    const url = process.env.WEBHOOK_PUBLIC_URL ?? `http://${host}:${port}/webhooks`;
    show('listening on', `${host}:${port}`);

    step('Register as the platform’s webhook endpoint');
    const config = await client.patch<WebhookConfig>('/config', { webhookEndpoint: url });
    check(config.webhookEndpoint === url, `the endpoint is ${config.webhookEndpoint}`);
    verifier = new WebhookVerifier(config);
    show('endpoint', url);

    step('Send the sandbox test webhook to this receiver');
    try {
      const test = await client.post<{ response_status: number; error?: string }>('/sandbox/webhooks/test');
      const answered = `${test.response_status}${test.error ? ` (${test.error})` : ''}`;
      check(test.response_status === 200 && verifiedTests === 1, `the test webhook was not verified: got ${answered}`);
      show('test webhook', 'delivered and verified');
    } catch (error) {
      // Production platforms have no sandbox test webhook; real events still arrive.
      if (!(error instanceof PaymentsApiError && error.status === 403)) throw error;
      show('test webhook', 'skipped (not a sandbox platform)');
    }
  } catch (error) {
    stop();
    throw error;
  }

  console.log(`\nready: printing verified webhooks (Ctrl-C to stop)`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      console.log(`\n${signal}: stopping after ${seen.size} webhook(s)`);
      stop();
    });
}

main().catch((error: unknown) => {
  console.error(`\n✗ webhook-receiver failed: ${errorMessage(error)}`);
  process.exitCode = 1;
});
