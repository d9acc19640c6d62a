import 'reflect-metadata';
import { createInfrastructure } from '../../host/src/infrastructure.js';
import { runProcess } from '#config/run-process.js';
import { systemClock } from '#domain/clock.js';
import { startWorker } from './worker.js';

/** `npm run start:worker`: projections, webhooks, timers and card provisioning as their own process. */
runProcess('Worker', async (config) => {
  const infra = await createInfrastructure(config, systemClock, { writes: true });
  const worker = await startWorker(infra);
  return {
    async close() {
      await worker.close();
      await infra.close();
    },
  };
});
