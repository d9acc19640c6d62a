import { Logger } from '@nestjs/common';
import { ConfigError, loadConfig, type AppConfig } from './config.js';
import { collectWhenIdle } from './idle-collection.js';

/**
 * Runs a long-lived process (the API service, the worker): loads the configuration, starts it, gives memory back
 * when it goes idle (`IDLE_GC_AFTER_MS`), closes it cleanly on SIGINT or SIGTERM, and exits non-zero with a
 * readable message when it cannot start.
 */
export function runProcess(name: string, start: (config: AppConfig) => Promise<{ close(): Promise<void> }>): void {
  const run = async () => {
    const config = loadConfig();
    const running = await start(config);
    const idle = collectWhenIdle(config.idleGcAfterMs);
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      Logger.log(`${signal}: shutting down`, name);
      idle.stop();
      await running.close();
      process.exit(0);
    };
    process.on('SIGINT', () => void stop('SIGINT'));
    process.on('SIGTERM', () => void stop('SIGTERM'));
  };
  run().catch((error) => {
    if (error instanceof ConfigError) console.error(`configuration error: ${error.message}`);
    else console.error(error);
    process.exit(1);
  });
}
