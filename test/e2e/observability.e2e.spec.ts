import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { checkReadiness } from '../../apps/host/src/observability/readiness.js';
import { startMetricsServer, type MetricsServer } from '../../apps/host/src/observability/metrics-server.js';
import { startChildWorker, type ChildWorker } from '../support/child-service.js';
import { useDataDir, useTestService } from '../support/fixture.js';
import { freePort } from '../support/ports.js';
import { accountQuoteBody } from './money-support.js';

const TOKEN = 'scrape-token-for-tests';

const scrape = (port: number, auth = `Bearer ${TOKEN}`) =>
  fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: auth } });

/** The sum of the samples of `name` whose labels include every one of `labels` (undefined when there is none). */
function sample(text: string, name: string, labels: Record<string, string | RegExp>): number | undefined {
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    const match = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...match[2].matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const fits = Object.entries(labels).every(([k, v]) =>
      typeof v === 'string' ? found[k] === v : v.test(found[k] ?? ''),
    );
    if (fits) sum = (sum ?? 0) + Number(match[3]);
  }
  return sum;
}

describe('metrics and health probes of the API process', () => {
  const fixture = useTestService({ webhooks: 'ok' });
  let server: MetricsServer;

  beforeAll(async () => {
    const { infra, metrics } = fixture.service;
    server = await startMetricsServer(
      infra,
      metrics,
      { ...infra.config.observability, metricsToken: TOKEN, metricsHost: '127.0.0.1' },
      0,
    );
  });
  afterAll(() => server.close());

  it('counts HTTP requests by route and status, commands by stream kind, type and outcome, and appends', async () => {
    const created = await fixture.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: 'metrics-1',
      fullName: 'Ada Metrics',
    });
    expect(created.status).toBe(201);
    const reply = await scrape(server.port);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toContain('text/plain');
    const text = await reply.text();
    const route = /customers$/;
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'POST', route, status: '201' })).toBe(1);
    // No id reaches a label: the route is the pattern.
    expect(text).not.toContain(created.body.id);
    expect(
      sample(text, 'command_duration_seconds_count', { stream: 'customer', outcome: 'ok', process: 'api' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'event_append_duration_seconds_count', { outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'event_append_batch_events_count', {})).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'projection_checkpoint_lag', { projection: /.+/ })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'job_queue_jobs', { queue: 'webhooks', state: 'dead' })).toBe(0);
    expect(sample(text, 'job_queue_oldest_due_age_seconds', { queue: 'timers' })).toBeGreaterThanOrEqual(0);
    expect(text).toMatch(/^process_resident_memory_bytes\{process="api"\} \d+/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds\{process="api"\}/m);
  });

  it('moves the counters and histograms with a payment', async () => {
    const account = async (name: string) => {
      const body = { customerType: 'INDIVIDUAL', platformCustomerId: `metrics-${name}`, fullName: name };
      const created = await fixture.api.post('/customers', body);
      const listed = await fixture.api.get(`/customers/internal-accounts?customerId=${created.body.id}`);
      return listed.body.data[0].id as string;
    };
    const [payer, payee] = [await account('payer'), await account('payee')];
    expect((await fixture.api.post(`/sandbox/internal-accounts/${payer}/fund`, { amount: 10_000 })).status).toBe(200);
    const counts = async () => {
      const text = await (await scrape(server.port)).text();
      return {
        quotes: sample(text, 'http_request_duration_seconds_count', { method: 'POST', route: /quotes$/ }) ?? 0,
        ledger: sample(text, 'command_duration_seconds_count', { stream: 'ledger', outcome: 'ok' }) ?? 0,
        quote: sample(text, 'command_duration_seconds_count', { stream: 'quote', outcome: 'ok' }) ?? 0,
        appends: sample(text, 'event_append_duration_seconds_count', { outcome: 'ok' }) ?? 0,
        slowest: sample(text, 'http_request_duration_seconds_bucket', { route: /quotes$/, le: '+Inf' }) ?? 0,
      };
    };
    const before = await counts();
    const paid = await fixture.api.post('/quotes', accountQuoteBody(payer, payee, 2_500, { immediatelyExecute: true }));
    expect(paid.status).toBe(201);
    const after = await counts();
    expect(after.quotes - before.quotes).toBe(1);
    expect(after.slowest - before.slowest).toBe(1);
    expect(after.ledger).toBeGreaterThan(before.ledger);
    expect(after.quote).toBeGreaterThan(before.quote);
    expect(after.appends).toBeGreaterThan(before.appends);
  });

  it('times webhook delivery attempts by outcome', async () => {
    const delivered = async () =>
      sample(await (await scrape(server.port)).text(), 'webhook_attempt_duration_seconds_count', {
        outcome: 'DELIVERED',
      }) ?? 0;
    const before = await delivered();
    const sent = await fixture.api.post('/sandbox/webhooks/test', {});
    expect(sent.body.response_status).toBe(200);
    expect(await delivered()).toBeGreaterThan(before);
  });

  it("names only metrics the process exposes in the operations guide's Grafana dashboard", async () => {
    const text = await (await scrape(server.port)).text();
    const exposed = new Set([...text.matchAll(/^([a-z_]+)[{ ]/gm)].map((m) => m[1]));
    const dashboard = JSON.parse(readFileSync('docs/monitoring/grafana-dashboard.json', 'utf8')) as {
      panels: { targets: { expr: string }[] }[];
    };
    const named = dashboard.panels.flatMap((p) =>
      p.targets.flatMap((t) => [...t.expr.matchAll(/\b([a-z]+_[a-z_]+)(?=[{[)])/g)].map((m) => m[1])),
    );
    expect(named.length).toBeGreaterThan(8);
    expect(named.filter((name) => !exposed.has(name))).toEqual([]);
  });

  it('refuses a scrape without the bearer token, and anything but GET', async () => {
    expect((await scrape(server.port, '')).status).toBe(401);
    expect((await scrape(server.port, 'Bearer wrong')).status).toBe(401);
    const post = await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('answers liveness and readiness on the API and on the operators port alike', async () => {
    const live = await fixture.anonymous.get('/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    const ready = await fixture.anonymous.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ok');
    expect(Object.keys(ready.body.details).sort()).toEqual(['eventStore', 'jobs', 'projections', 'readModels']);
    const probe = await fetch(`http://127.0.0.1:${server.port}/health/ready`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(probe.status).toBe(200);
  });

  it('is not ready while the event store fails, and ready again once it answers', async () => {
    const store = fixture.service.infra.eventStore;
    const headPosition = store.headPosition;
    store.headPosition = () => Promise.reject(new Error('connection refused'));
    try {
      const down = await fixture.anonymous.get('/health/ready');
      expect(down.status).toBe(503);
      expect(down.body.status).toBe('error');
      expect(down.body.details.eventStore).toEqual({ status: 'down', message: 'connection refused' });
      expect(down.body.details.readModels.status).toBe('up');
    } finally {
      store.headPosition = headPosition;
    }
    expect((await fixture.anonymous.get('/health/ready')).status).toBe(200);
  });

  it('is not ready while a projection lags beyond the bound or a store does not answer in time', async () => {
    const { eventStore, jobs } = fixture.service.infra;
    const head = await eventStore.headPosition();
    const lagging = { getCheckpoint: () => Promise.resolve(head - 10n) };
    const behind = await checkReadiness(
      { eventStore, jobs, readModels: lagging as never },
      { maxProjectionLag: 5, timeoutMs: 1000 },
    );
    expect(behind.ready).toBe(false);
    expect(behind.checks.projections).toMatchObject({ status: 'down', maxLag: '10', bound: 5 });
    const within = await checkReadiness(
      { eventStore, jobs, readModels: lagging as never },
      { maxProjectionLag: 10, timeoutMs: 1000 },
    );
    expect(within.ready).toBe(true);
    const silent = { getCheckpoint: () => new Promise<never>(() => undefined) };
    const stuck = await checkReadiness(
      { eventStore, jobs, readModels: silent as never },
      { maxProjectionLag: 10, timeoutMs: 50 },
    );
    expect(stuck.checks.readModels).toEqual({
      status: 'down',
      message: 'the read-model store did not answer within 50 ms',
    });
  });
});

describe('metrics and health probes of the worker process', () => {
  let worker: ChildWorker | undefined;
  const dataDir = useDataDir('observability-worker-', () => worker?.kill());

  it('serves its metrics and probes on METRICS_PORT, labelled as the worker', async () => {
    const port = await freePort();
    worker = await startChildWorker(dataDir, { METRICS_PORT: String(port), METRICS_TOKEN: TOKEN });
    const text = await (await scrape(port)).text();
    expect(text).toMatch(/^process_resident_memory_bytes\{process="worker"\} \d+/m);
    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(ready.status).toBe(200);
  });
});
