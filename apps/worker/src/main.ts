import 'reflect-metadata';
import { createInfrastructure } from '../../host/src/infrastructure.js';
import { ServiceMetrics } from '../../host/src/observability/metrics.js';
import { startMetricsServer } from '../../host/src/observability/metrics-server.js';
import { runProcess } from '#config/run-process.js';
import { systemClock } from '#domain/clock.js';
import { startWorker } from './worker.js';

/**
 * `npm run start:worker`: projections, webhooks, timers and card provisioning as their own process; its metrics and
 * health probes on `METRICS_PORT` when set.
 */
runProcess('Worker', async (config) => {
  const infra = await createInfrastructure(config, systemClock, { writes: true });
  const metrics = new ServiceMetrics('worker').instrument(infra);
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
    },
  };
});
