import { Logger } from '@nestjs/common';
import type { Infrastructure } from '#application/infrastructure.js';
import { startWebhooks } from './webhooks/index.js';
import { startTimerProcessor } from './timers/timer-processor.js';
import { startCardWorker } from './cards/card-worker.js';
import { startRails } from './rails/rail-worker.js';
import { startBulkImports } from '#application/customers/bulk-import-worker.js';
import { validateCreateCustomer } from '../../api/src/customers/customer.dto.js';

export interface RunningWorker {
  close(): Promise<void>;
}

/**
 * The worker's duties, without HTTP: projections from the event log into the read models. The
 * embedded default runs them inside the API process; production runs `apps/worker` on its own.
 */
export async function startWorker(infra: Infrastructure): Promise<RunningWorker> {
  const logger = new Logger('Worker');
  await infra.projections.start();
  logger.log(`projections running from position ${infra.projections.position}`);
  const webhooks = await startWebhooks(infra, infra.config);
  // Durable timers: quote deadlines and delayed payment outcomes, each on its platform's clock.
  const timers = await startTimerProcessor({
    eventStore: infra.eventStore,
    jobs: infra.jobs,
    clocks: infra.clocks,
    runner: infra.runner,
  });
  // Card provisioning timers and reactions to holder KYC approvals.
  const cards = await startCardWorker(infra);
  // Bulk customer imports: each row validated as POST /customers validates its body.
  const imports = await startBulkImports(infra, validateCreateCustomer);
  // Production platforms' bank rails: instructions out as files, the bank's files in.
  const rails = await startRails(infra);
  return {
    async close() {
      await rails.close();
      // Before the projections: the dispatcher and timers may be waiting for them.
      await imports.close();
      await cards.close();
      await timers.close();
      await webhooks.close();
      await infra.projections.stop();
    },
  };
}
