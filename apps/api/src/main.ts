import { startTracing } from '../../host/src/observability/tracing.js';

// Tracing, when OTEL_* asks for it, starts before the rest loads, so that its instrumentations see HTTP load.
const tracing = await startTracing('payments-api');
const { runProcess } = await import('#config/run-process.js');
const { startService } = await import('./service.js');

/** `npm start`: API, worker duties and dashboard in one process (embedded defaults unless configured otherwise). */
runProcess('Service', async (config) => {
  const service = await startService(config, { tracing });
  return {
    async close() {
      await service.close();
      await tracing?.shutdown();
    },
  };
});
