import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { trace } from '@opentelemetry/api';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tracingRequested } from '../../apps/host/src/observability/tracing.js';
import { startChildService, type ChildService } from '../support/child-service.js';
import { useDataDir, useTestService } from '../support/fixture.js';
import { poll } from '../support/poll.js';
import { uniqueValue } from '../support/sequence.js';
import { accountQuoteBody } from './money-support.js';

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
}

/** A local OTLP/HTTP receiver (JSON encoding): the spans it was sent, in arrival order. */
async function otlpReceiver(): Promise<{ url: string; spans: ExportedSpan[]; server: Server }> {
  const spans: ExportedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as {
          resourceSpans: { scopeSpans: { spans: ExportedSpan[] }[] }[];
        };
        for (const r of body.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, server };
}

/** The spans of a trace that hang from none of its others. */
function rootsOf(spans: ExportedSpan[]): ExportedSpan[] {
  const ids = new Set(spans.map((s) => s.spanId));
  return spans.filter((s) => !s.parentSpanId || !ids.has(s.parentSpanId));
}

describe('traces with OTEL_TRACES_EXPORTER=otlp', () => {
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
  let service: ChildService | undefined;
  const dataDir = useDataDir('tracing-', () => service?.kill());

  beforeAll(async () => {
    receiver = await otlpReceiver();
    service = await startChildService(dataDir, {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
      OTEL_BSP_SCHEDULE_DELAY: '50',
    });
  });
  afterAll(() => new Promise<void>((resolve) => receiver.server.close(() => resolve())));

  it('makes one trace of a payment: its HTTP request, the commands, the appends and the projections', async () => {
    const api = service!.api;
    const customer = async () => {
      const body = { customerType: 'INDIVIDUAL', platformCustomerId: uniqueValue('t'), fullName: 'Ada Trace' };
      const created = await api.post('/customers', body);
      const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(created.body.id)}`);
      return accounts.body.data[0].id as string;
    };
    // Webhooks to the receiver too (it answers 200 to any path): their delivery jobs make spans of their own.
    expect((await api.patch('/config', { webhookEndpoint: `${receiver.url}/hooks` })).status).toBe(200);
    const [payer, payee] = [await customer(), await customer()];
    expect((await api.post(`/sandbox/internal-accounts/${payer}/fund`, { amount: 50_000 })).status).toBe(200);
    const paid = await api.post('/quotes', accountQuoteBody(payer, payee, 12_345, { immediatelyExecute: true }));
    expect(paid.status).toBe(201);
    // The request log line names the request's trace.
    const line = await poll(
      async () =>
        service!
          .output()
          .split('\n')
          .find((l) => l.includes('"route":"/2025-10-13/quotes"')),
      (found) => found !== undefined,
      { what: 'the log line of POST /quotes' },
    );
    const traceId = (JSON.parse(line!) as { traceId: string }).traceId;
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    // Spans are exported as they end, and some end after the response (a projection the request did not wait for):
    // the trace is read until every span asserted below has arrived and each of them hangs from another of it.
    const expected = [
      'POST /2025-10-13/quotes',
      'event-store append',
      'project quotes',
      'project transactions',
      'project internal-accounts',
    ];
    const spans = await poll(
      async () => receiver.spans.filter((s) => s.traceId === traceId),
      (found) => {
        const names = found.map((s) => s.name);
        return (
          expected.every((name) => names.includes(name)) &&
          names.some((name) => name.startsWith('command ')) &&
          rootsOf(found).length === 1
        );
      },
      { timeoutMs: 15_000 },
    );
    const names = spans.map((s) => s.name);
    expect(names.some((n) => n.startsWith('command '))).toBe(true);
    expect(names).toEqual(expect.arrayContaining(expected));
    // One trace: every span of it hangs from another of it, except the HTTP server span at its root.
    expect(rootsOf(spans).map((s) => s.name)).toEqual(['POST /2025-10-13/quotes']);
    // Each job the worker runs is a span (a root of its own), with the commands it runs beneath it.
    await poll(
      async () => receiver.spans.map((s) => s.name),
      (n) => n.some((x) => x.startsWith('job webhooks ')),
      { what: 'a webhook delivery job span', timeoutMs: 15_000 },
    );
  });
});

describe('with no OTEL_TRACES_EXPORTER', () => {
  const fixture = useTestService();

  it('loads no tracer: spans are not recorded and no provider is registered', async () => {
    expect((await fixture.api.get('/health/live')).status).toBe(200);
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    const span = trace.getTracer('check').startSpan('check');
    expect(span.isRecording()).toBe(false);
    span.end();
    const registered = Object.getOwnPropertySymbols(globalThis).map((s) => s.description ?? '');
    const api = registered.find((d) => d.startsWith('opentelemetry.js.api'));
    const providers = api ? Object.keys((globalThis as Record<symbol, object>)[Symbol.for(api)] ?? {}) : [];
    expect(providers).not.toContain('trace');
  });
});
