import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createInfrastructure } from '../../../libs/application/src/infrastructure.js';
import { ConfigError, loadConfig } from '../../../libs/config/src/config.js';
import { OffsetClock } from '../../../libs/domain/src/clock.js';
import { startWorker } from './worker.js';

/** `npm run start:worker`: projections (and the worker's other duties) as their own process. */
async function main() {
  const config = loadConfig();
  const infra = await createInfrastructure(config, new OffsetClock());
  const worker = await startWorker(infra);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    Logger.log(`${signal}: shutting down`, 'Worker');
    await worker.close();
    await infra.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  if (error instanceof ConfigError) console.error(`configuration error: ${error.message}`);
  else console.error(error);
  process.exit(1);
});
