import 'reflect-metadata';
import { startTracing } from '../../host/src/observability/tracing.js';

// Tracing, when OTEL_* asks for it, starts before the rest loads, so that its instrumentations see it load.
const tracing = await startTracing('payments-worker');
const { createInfrastructure } = await import('../../host/src/infrastructure.js');
const { ServiceMetrics } = await import('../../host/src/observability/metrics.js');
const { startMetricsServer } = await import('../../host/src/observability/metrics-server.js');
const { traceProcess } = await import('../../host/src/observability/traced-process.js');
const { allProjections } = await import('#read-models/projections/index.js');
const { runProcess } = await import('#config/run-process.js');
const { systemClock } = await import('#domain/clock.js');
const { startWorker } = await import('./worker.js');

/**
 * `npm run start:worker`: projections, webhooks, timers and card provisioning as their own process; its metrics and
 * health probes on `METRICS_PORT` when set.
 */
runProcess('Worker', async (config) => {
  const infra = await createInfrastructure(config, systemClock, { writes: true });
  const metrics = new ServiceMetrics('worker').instrument(infra);
  if (tracing) traceProcess(infra, allProjections);
  // The worker serves no API: its metrics and probes are on the operators' port alone, up before its duties start.
  const server = config.observability.metricsPort
    ? await startMetricsServer(infra, metrics, config.observability)
    : undefined;
  const worker = await startWorker(infra);
  return {
    async close() {
      await server?.close();
      await worker.close();
      await infra.close();
      await tracing?.shutdown();
    },
  };
});
