import { afterAll, expect } from '@jest/globals';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookVerifier } from '@payments-platform/client';
import type { Client } from '../support/service.js';

/** One request a decision receiver got. */
export interface DecisionRequestSeen {
  headers: IncomingHttpHeaders;
  body: string;
  json: { type: string; id: string; timestamp: string; data: Record<string, any> };
}

/** How a receiver answers: a status and a raw body, after `delayMs` of real time (bounded by the deadline). */
export interface DecisionReply {
  status?: number;
  body: unknown;
  delayMs?: number;
}

export interface DecisionReceiver {
  url: string;
  requests: DecisionRequestSeen[];
  answer(reply: DecisionReply | ((request: DecisionRequestSeen) => DecisionReply)): void;
  close(): Promise<void>;
}

/** Decision receivers of a test file (declare at the file's level): each closed after its tests. */
export function useDecisionReceivers() {
  const started: DecisionReceiver[] = [];
  afterAll(async () => {
    for (const receiver of started) await receiver.close();
  });
  return async () => {
    const receiver = await startDecisionReceiver();
    started.push(receiver);
    return receiver;
  };
}

/** A platform's decision endpoint for a test: records what it gets and answers as told (JSON unless a string). */
export async function startDecisionReceiver(): Promise<DecisionReceiver> {
  let reply: DecisionReply | ((request: DecisionRequestSeen) => DecisionReply) = { body: { decision: 'APPROVE' } };
  const requests: DecisionRequestSeen[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const seen = { headers: req.headers, body, json: JSON.parse(body) };
      requests.push(seen);
      const r = typeof reply === 'function' ? reply(seen) : reply;
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(r.status ?? 200, { 'content-type': 'application/json' });
        res.end(typeof r.body === 'string' ? r.body : JSON.stringify(r.body));
      };
      if (!r.delayMs) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, r.delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/decide`,
    requests,
    answer: (r) => {
      reply = r;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Registers the platform's decision endpoints (the whole list) and answers the configuration. */
export async function registerDecisionEndpoints(api: Client, endpoints: Record<string, unknown>[]) {
  const res = await api.patch('/config', { decisionEndpoints: endpoints });
  expect(res.status).toBe(200);
  return res.body;
}

/** The decision type of card authorizations. */
export const CARDS = 'CARD_AUTHORIZATION.REQUEST';

/** Registers `r` as the platform's only decision endpoint, for card authorizations (`extra`: deadline, default). */
export const registerCardEndpoint = (api: Client, r: DecisionReceiver, extra: Record<string, unknown> = {}) =>
  registerDecisionEndpoints(api, [{ type: CARDS, url: r.url, ...extra }]);

/** The platform's webhook verifier (both signatures), from GET /config. */
export async function platformVerifier(api: Client): Promise<WebhookVerifier> {
  const config = (await api.get('/config')).body;
  return new WebhookVerifier({
    webhookSigningPublicKey: config.webhookSigningPublicKey,
    webhookSecret: config.webhookSecret,
  });
}
