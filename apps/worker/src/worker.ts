import { Logger } from '@nestjs/common';
import type { Infrastructure } from '../../../libs/application/src/infrastructure.js';

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
  return {
    async close() {
      await infra.projections.stop();
    },
  };
}
