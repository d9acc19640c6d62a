import 'reflect-metadata';
import { createInfrastructure } from '../../../libs/application/src/infrastructure.js';
import { loadConfig } from '../../../libs/config/src/config.js';
import { runProcess } from '../../../libs/config/src/run-process.js';
import { systemClock } from '../../../libs/domain/src/clock.js';
import { startWorker } from './worker.js';

/** `npm run start:worker`: projections, webhooks, timers and card provisioning as their own process. */
runProcess('Worker', async () => {
  const infra = await createInfrastructure(loadConfig(), systemClock);
  const worker = await startWorker(infra);
  return {
    async close() {
      await worker.close();
      await infra.close();
    },
  };
});
