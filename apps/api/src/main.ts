import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig } from '../../../libs/config/src/config.js';
import { startService } from './service.js';

/** `npm start`: API, worker duties (projections) and dashboard in one process on embedded defaults. */
async function main() {
  const config = loadConfig();
  const service = await startService(config);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    Logger.log(`${signal}: shutting down`, 'Service');
    await service.close();
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
