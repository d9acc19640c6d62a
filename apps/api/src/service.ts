import 'reflect-metadata';
import { Logger, type INestApplication, type LogLevel } from '@nestjs/common';
import { DocsController } from './docs/docs.controller.js';
import type { AddressInfo } from 'node:net';
import type { DestinationStream } from 'pino';
import type { Infrastructure } from '#application/infrastructure.js';
import { createInfrastructure } from '../../host/src/infrastructure.js';
import { ServiceMetrics } from '../../host/src/observability/metrics.js';
import { startMetricsServer, type MetricsServer } from '../../host/src/observability/metrics-server.js';
import { traceProcess } from '../../host/src/observability/traced-process.js';
import type { Tracing } from '../../host/src/observability/tracing.js';
import { allProjections } from '#read-models/projections/index.js';
import { createPlatformDecisions } from '../../host/src/decisions/http-platform-decisions.js';
import { createKycProvider } from '../../host/src/kyc-provider/http-kyc-provider.js';
import type { AppConfig } from '#config/config.js';
import { systemClock, type Clock } from '#domain/clock.js';
import { randomIds, type IdGenerator } from '#domain/primitives.js';
import { startWorker } from '../../worker/src/worker.js';
import { createWebhookDeliverer } from '../../worker/src/webhooks/index.js';
import { ApiModule } from './app.module.js';
import { BASE_PATH } from './http/base-path.js';
import { answerUnknownPaths, createHttpApp } from './http/adapters.js';
import { applyServerLimits } from './http/http-server.js';
import { createRequestLogger, requestLogging } from './http/request-log.js';
import { ServiceLogger, startupAddresses } from './http/startup-logger.js';
import { validationPipe } from './http/validation.js';
import { ensureSandboxPlatform, type SandboxCredentials } from './sandbox/sandbox-platform.js';

export interface RunningService {
  app: INestApplication;
  infra: Infrastructure;
  clock: Clock;
  url: string;
  sandbox?: SandboxCredentials;
  metrics: ServiceMetrics;
  /** The operators' port (`METRICS_PORT`), when configured. */
  metricsServer?: MetricsServer;
  close(): Promise<void>;
}

const LEVELS: Record<AppConfig['logLevel'], LogLevel[]> = {
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  log: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
};

export interface ServiceDeps {
  clock?: Clock;
  ids?: IdGenerator;
  /** Where the request log goes (stdout by default). */
  logDestination?: DestinationStream;
  /** The started tracing SDK (`startTracing`), when OTEL_* asked for traces: the process's own spans are added. */
  tracing?: Tracing;
  /** The monotonic clock decisions are timed on (milliseconds; performance.now by default). */
  monotonic?: () => number;
}

/** Builds the Nest application on the configured adapters, without listening. */
export async function createApp(config: AppConfig, deps: ServiceDeps = {}) {
  const clock = deps.clock ?? systemClock;
  const ids = deps.ids ?? randomIds;
  const infra = await createInfrastructure(config, clock, { writes: true });
  const metrics = new ServiceMetrics('api').instrument(infra);
  if (deps.tracing) traceProcess(infra, allProjections);
  // The synchronous test send (POST /webhooks/test) attempts with the worker's deliverer, on the process's runner.
  const webhookAttempts = createWebhookDeliverer(infra.runner, infra.clocks, config, infra.observers);
  // Card authorizations and agent actions ask the platforms' decision endpoints in the request.
  const platformDecisions = createPlatformDecisions(infra, config, deps.monotonic);
  // Production verifications waiting for review go to the platform's KYC provider, when it has one.
  const kycProvider = createKycProvider(config);
  const application = { config, infra, clock, ids, webhookAttempts, platformDecisions, kycProvider };
  const app = await createHttpApp(config, ApiModule.register(application), {
    logger: new ServiceLogger(LEVELS[config.logLevel]),
    requestLog: requestLogging(
      createRequestLogger(config, deps.logDestination, (line) => metrics.observeRequest(line)),
    ),
  });
  app.setGlobalPrefix(BASE_PATH);
  app.useGlobalPipes(validationPipe());
  app.get(DocsController).describe(app);
  return { app, infra, clock, metrics };
}

const hostOf = (address: AddressInfo) => (address.family === 'IPv6' ? `[${address.address}]` : address.address);

/** Starts everything on the configured adapters: projections, the sandbox platform, then HTTP. */
export async function startService(config: AppConfig, deps: ServiceDeps = {}): Promise<RunningService> {
  const { app, infra, clock, metrics } = await createApp(config, deps);
  const worker = config.runWorker ? await startWorker(infra) : undefined;
  await app.init();
  answerUnknownPaths(app, config);
  const sandbox = config.sandbox ? await ensureSandboxPlatform(app, config) : undefined;
  applyServerLimits(app.getHttpServer(), config.http);
  await app.listen(config.port, config.host);
  const address = app.getHttpServer().address() as AddressInfo;
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const url = `http://${wildcard ? '127.0.0.1' : hostOf(address)}:${address.port}/${BASE_PATH}`;
  const bound = `http://${hostOf(address)}:${address.port}/${BASE_PATH}`;
  Logger.log(wildcard ? `listening on ${bound} (every interface; locally ${url})` : `listening on ${bound}`, 'Service');
  Logger.log(startupAddresses(url), 'Service');
  const metricsServer = config.observability.metricsPort
    ? await startMetricsServer(infra, metrics, config.observability)
    : undefined;
  if (metricsServer) Logger.log(`metrics and health probes on port ${metricsServer.port}`, 'Service');
  let closed = false;
  return {
    app,
    infra,
    clock,
    url,
    sandbox,
    metrics,
    metricsServer,
    async close() {
      if (closed) return;
      closed = true;
      await metricsServer?.close();
      await app.close();
      await worker?.close();
      await infra.close();
    },
  };
}
