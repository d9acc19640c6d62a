import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import type { Infrastructure } from '#application/infrastructure.js';
import type { AppConfig } from '#config/config.js';
import type { ServiceMetrics } from './metrics.js';
import { checkReadiness } from './readiness.js';

export interface MetricsServer {
  /** The port it listens on (the configured one, or the one the system chose for 0 in tests). */
  port: number;
  close(): Promise<void>;
}

/** The bearer token, compared in constant time; without a configured token every scrape is let in. */
function authorized(req: IncomingMessage, token: string | undefined): boolean {
  if (!token) return true;
  const sent = Buffer.from(req.headers.authorization ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

function send(res: ServerResponse, status: number, contentType: string, body: string): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
  res.end(body);
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  send(res, status, 'application/json', JSON.stringify(body));

/**
 * The process's own port for operators (`METRICS_PORT`): `GET /metrics` (Prometheus text), `GET /health/live` and
 * `GET /health/ready` (the same checks and answers as the API's `/health/*`), so the worker, which serves no API, is
 * scraped and probed the same way. Behind `METRICS_TOKEN` when set; nothing else is served.
 */
export async function startMetricsServer(
  infra: Infrastructure,
  metrics: ServiceMetrics,
  config: AppConfig['observability'],
  port = config.metricsPort,
): Promise<MetricsServer> {
  const bounds = { maxProjectionLag: config.maxProjectionLag, timeoutMs: config.readyTimeoutMs };
  const server: Server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'GET') return json(res, 405, { status: 'error', message: 'only GET is served here' });
      if (!authorized(req, config.metricsToken)) return json(res, 401, { status: 'error', message: 'unauthorized' });
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/metrics') {
        const { contentType, body } = await metrics.exposition();
        return send(res, 200, contentType, body);
      }
      if (path === '/health/live') return json(res, 200, { status: 'ok' });
      if (path === '/health/ready') {
        const { ready, checks } = await checkReadiness(infra, bounds);
        return json(res, ready ? 200 : 503, { status: ready ? 'ok' : 'error', details: checks });
      }
      return json(res, 404, { status: 'error', message: 'not found' });
    })().catch((error: unknown) => json(res, 503, { status: 'error', message: String(error) }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, config.metricsHost, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
