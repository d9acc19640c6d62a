/**
 * OpenTelemetry tracing, configured by the standard `OTEL_*` variables alone and off unless asked for: with no
 * `OTEL_TRACES_EXPORTER` (or `none`, or `OTEL_SDK_DISABLED=true`) nothing of the SDK is loaded and no span is made.
 * When asked for, the SDK (`@opentelemetry/sdk-node`, its exporter and endpoint from `OTEL_EXPORTER_OTLP_*`) starts
 * before the rest of the process is imported, so that the instrumentations of HTTP (the server and `http` clients),
 * fetch (undici), ioredis and mongodb see those modules load; `traceProcess` then adds the spans of the command
 * runner, the event store's appends and the projections, carrying the trace in each event's metadata
 * (`traceparent`) so that projecting an event joins the trace of the request that wrote it.
 */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if ((env.OTEL_SDK_DISABLED ?? '').toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((e) => e.trim().toLowerCase());
  return exporters.some((e) => e !== '' && e !== 'none');
}

export interface Tracing {
  /** Exports what is still buffered and stops the SDK. */
  shutdown(): Promise<void>;
}

/** Starts the SDK when `OTEL_*` asks for traces (`serviceName` unless `OTEL_SERVICE_NAME` names it). */
export async function startTracing(serviceName: string): Promise<Tracing | undefined> {
  if (!tracingRequested()) return undefined;
  const [{ NodeSDK }, { HttpInstrumentation }, { UndiciInstrumentation }, { IORedisInstrumentation }, mongodb] =
    await Promise.all([
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-undici'),
      import('@opentelemetry/instrumentation-ioredis'),
      import('@opentelemetry/instrumentation-mongodb'),
    ]);
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME || serviceName,
    instrumentations: [
      new HttpInstrumentation(),
      new UndiciInstrumentation(),
      new IORedisInstrumentation(),
      new mongodb.MongoDBInstrumentation(),
    ],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
