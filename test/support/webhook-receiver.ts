import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { loadedChecker } from './response-check.js';
import { webhookFindings } from './webhook-findings.js';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * `ok` answers 200, `slow` 200 after SLOW_MS, `error` 500, `conflict` 409, `hang` never answers,
 * `refuse` stops listening (connections are refused until another mode is set).
 */
export type ReceiverMode = 'ok' | 'slow' | 'error' | 'conflict' | 'hang' | 'refuse';

export const SLOW_MS = 500;

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, as signed. */
  body: string;
  /** Parsed envelope, if the body is JSON. */
  json?: { id: string; type: string; timestamp: string; data: Record<string, any> };
  /** What this request was answered (undefined: hung or refused mid-way). */
  answered?: number;
  /** Whether the sender closed the connection of a request left unanswered (it gave up waiting). */
  abandoned?: boolean;
  /** Signature checks, when keys were given with `verifyWith`. */
  ecdsaValid?: boolean;
  standardValid?: boolean;
  receivedAt: number;
}

export interface WebhookReceiver {
  url: string;
  requests: ReceivedRequest[];
  mode: ReceiverMode;
  setMode(mode: ReceiverMode): Promise<void>;
  /** Verifies every later request with the platform's public key (PEM) and Standard Webhooks secret. */
  verifyWith(keys: { publicKeyPem: string; secret: string }): void;
  /** Answers requests the function picks (a status and a JSON body) instead of the mode; undefined: the mode. */
  replyWith(reply?: (request: ReceivedRequest) => { status: number; body?: unknown } | undefined): void;
  /** Requests answered 2xx or 409 (delivered), by webhook id. */
  delivered(): Map<string, ReceivedRequest[]>;
  /** How many webhook ids were delivered (without copying them, for polling under load). */
  deliveredCount(): number;
  /** Polls (real time, bounded) until `condition` holds. */
  waitFor(condition: (requests: ReceivedRequest[]) => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

/** Checks `X-Service-Signature: {"v":"1","s":"<base64 DER>"}` over the raw body with node:crypto. */
export function verifyServiceSignature(publicKey: KeyObject, body: string, header: string | undefined): boolean {
  if (!header) return false;
  try {
    const parsed = JSON.parse(header) as { v?: string; s?: string };
    if (parsed.v !== '1' || typeof parsed.s !== 'string') return false;
    return verify(
      'sha256',
      Buffer.from(body, 'utf8'),
      { key: publicKey, dsaEncoding: 'der' },
      Buffer.from(parsed.s, 'base64'),
    );
  } catch {
    return false;
  }
}

/** A real HTTP receiver on 127.0.0.1 (a free port, kept across `refuse`) that records every request. */
export async function startWebhookReceiver(initial: ReceiverMode = 'ok'): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const deliveredById = new Map<string, ReceivedRequest[]>();
  const sockets = new Set<Socket>();
  let keys: { publicKey: KeyObject; standard: Webhook } | undefined;
  let replier: ((request: ReceivedRequest) => { status: number; body?: unknown } | undefined) | undefined;
  let mode: ReceiverMode = 'ok';
  let server: Server | undefined;
  let port = 0;

  const listen = async () => {
    const s = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const record: ReceivedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body,
          receivedAt: Date.now(),
        };
        try {
          record.json = JSON.parse(body);
        } catch {
          // not JSON: recorded as is
        }
        if (keys) {
          record.ecdsaValid = verifyServiceSignature(
            keys.publicKey,
            body,
            req.headers['x-service-signature'] as string | undefined,
          );
          try {
            keys.standard.verify(body, req.headers as Record<string, string>);
            record.standardValid = true;
          } catch {
            record.standardValid = false;
          }
        }
        // What the service sends is checked against the document's webhooks section (once a client loaded it).
        const checker = loadedChecker();
        if (checker && req.headers['webhook-id'] && record.json) {
          const finding = checker.checkWebhook(record.json);
          if (finding) webhookFindings.push(finding);
        }
        requests.push(record);
        const custom = replier?.(record);
        const status =
          custom?.status ??
          (mode === 'error' ? 500 : mode === 'conflict' ? 409 : mode === 'ok' || mode === 'slow' ? 200 : undefined);
        if (status === undefined) {
          // hang: never answer
          res.once('close', () => (record.abandoned = true));
          return;
        }
        const answer = () => {
          if (res.destroyed) return;
          record.answered = status;
          if (record.json?.id && ((status >= 200 && status < 300) || status === 409))
            deliveredById.set(record.json.id, [...(deliveredById.get(record.json.id) ?? []), record]);
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(custom ? (custom.body ?? {}) : { received: record.json?.id ?? null, status }));
        };
        if (mode === 'slow' && !custom) setTimeout(answer, SLOW_MS);
        else answer();
      });
    });
    s.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    port = (s.address() as AddressInfo).port;
    server = s;
  };

  const stop = async () => {
    const s = server;
    server = undefined;
    if (!s) return;
    const closed = new Promise<void>((resolve) => s.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };

  await listen();
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${port}/webhooks`,
    requests,
    get mode() {
      return mode;
    },
    async setMode(next) {
      if (next === 'refuse') {
        mode = next;
        await stop();
        return;
      }
      // Leaving hang: drop the hung connections so the sender sees them end.
      if (mode === 'hang') for (const socket of sockets) socket.destroy();
      mode = next;
      if (!server) await listen();
    },
    replyWith(reply) {
      replier = reply;
    },
    verifyWith({ publicKeyPem, secret }) {
      keys = { publicKey: createPublicKey(publicKeyPem), standard: new Webhook(secret) };
    },
    delivered() {
      return new Map(deliveredById);
    },
    deliveredCount() {
      return deliveredById.size;
    },
    async waitFor(condition, timeoutMs = 15_000, what = 'condition') {
      const deadline = Date.now() + timeoutMs;
      while (!condition(requests)) {
        if (Date.now() > deadline)
          throw new Error(`webhook receiver: timed out waiting for ${what} (${requests.length} requests so far)`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      await stop();
    },
  };
  await receiver.setMode(initial);
  return receiver;
}

/** Points the platform's webhooks at the receiver and makes it verify both signatures with the platform's keys. */
export async function pointWebhooksAt(
  api: { patch(path: string, body?: unknown): Promise<{ status: number; body: any }> },
  receiver: WebhookReceiver,
): Promise<{
  webhookEndpoint: string;
  webhookSigningPublicKey: string;
  webhookSecret: string;
  createdAt: string;
  updatedAt: string;
}> {
  const res = await api.patch('/config', { webhookEndpoint: receiver.url });
  if (res.status !== 200) throw new Error(`PATCH /config answered ${res.status}: ${JSON.stringify(res.body)}`);
  receiver.verifyWith({ publicKeyPem: res.body.webhookSigningPublicKey, secret: res.body.webhookSecret });
  return res.body;
}

/** Polls GET /webhooks/deliveries/{id} until the delivery has `status`. */
export async function waitForDelivery(
  api: { get(path: string): Promise<{ status: number; body: any }> },
  id: string,
  status: string,
  timeoutMs = 10_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(`/webhooks/deliveries/${id}`);
    if (res.body.status === status) return res.body;
    if (Date.now() > deadline) throw new Error(`delivery ${id} is ${res.body.status}, not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
