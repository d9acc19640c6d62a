import 'reflect-metadata';
import { Logger, type INestApplication, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import { createInfrastructure, type Infrastructure } from '../../../libs/application/src/infrastructure.js';
import type { AppConfig } from '../../../libs/config/src/config.js';
import { OffsetClock, type Clock } from '../../../libs/domain/src/clock.js';
import { randomIds, type IdGenerator } from '../../../libs/domain/src/ids.js';
import { startWorker } from '../../worker/src/worker.js';
import { ApiModule } from './app.module.js';
import { BASE_PATH } from './http/base-path.js';
import { bodyErrorMiddleware } from './http/errors.js';
import { jsonBody } from './http/json-body.js';
import { ServiceLogger } from './http/startup-logger.js';
import { validationPipe } from './http/validation.js';
import { ensureSandboxPlatform, type SandboxCredentials } from './sandbox/sandbox-platform.js';


export interface RunningService {
  app: INestApplication;
  infra: Infrastructure;
  clock: Clock;
  url: string;
  sandbox?: SandboxCredentials;
  close(): Promise<void>;
}

const LEVELS: Record<AppConfig['logLevel'], LogLevel[]> = {
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  log: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
};

/** Builds the Nest application on the configured adapters, without listening. */
export async function createApp(config: AppConfig, deps: { clock?: Clock; ids?: IdGenerator } = {}) {
  const clock = deps.clock ?? new OffsetClock();
  const ids = deps.ids ?? randomIds;
  const infra = await createInfrastructure(config, clock);
  const app = await NestFactory.create<NestExpressApplication>(ApiModule.register({ config, infra, clock, ids }), {
    bodyParser: false,
    logger: new ServiceLogger(LEVELS[config.logLevel]),
  });
  app.use(jsonBody());
  app.use(bodyErrorMiddleware);
  app.setGlobalPrefix(BASE_PATH);
  app.useGlobalPipes(validationPipe());
  return { app, infra, clock };
}

/** Starts everything on the configured adapters: projections, the sandbox platform, then HTTP. */
export async function startService(config: AppConfig, deps: { clock?: Clock; ids?: IdGenerator } = {}): Promise<RunningService> {
  const { app, infra, clock } = await createApp(config, deps);
  const worker = config.runWorker ? await startWorker(infra) : undefined;
  await app.init();
  const sandbox = config.sandbox ? await ensureSandboxPlatform(app, config) : undefined;
  await app.listen(config.port, config.host);
  const address = app.getHttpServer().address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${host}:${address.port}/${BASE_PATH}`;
  Logger.log(`listening on ${url}`, 'Service');
  let closed = false;
  return {
    app,
    infra,
    clock,
    url,
    sandbox,
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      await worker?.close();
      await infra.close();
    },
  };
}
