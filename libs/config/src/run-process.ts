import { Logger } from '@nestjs/common';
import { ConfigError } from './config.js';

/**
 * Runs a long-lived process (the API service, the worker): starts it, closes it cleanly on SIGINT
 * or SIGTERM, and exits non-zero with a readable message when it cannot start.
 */
export function runProcess(name: string, start: () => Promise<{ close(): Promise<void> }>): void {
  start()
    .then((running) => {
      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        Logger.log(`${signal}: shutting down`, name);
        await running.close();
        process.exit(0);
      };
      process.on('SIGINT', () => void stop('SIGINT'));
      process.on('SIGTERM', () => void stop('SIGTERM'));
    })
    .catch((error) => {
      if (error instanceof ConfigError) console.error(`configuration error: ${error.message}`);
      else console.error(error);
      process.exit(1);
    });
}
