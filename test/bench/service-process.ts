import { startService } from '../../apps/api/src/service.js';
import { loadConfig } from '#config/config.js';
import { OffsetClock } from '#domain/clock.js';
import { adapterEnv, basicAuth } from '../support/service.js';
import { isMain, serveBenchProcess, startBenchProcess, type BenchProcess } from './bench-process.js';

/** What the service process answers once it listens: its versioned base URL and the sandbox platform's header. */
export interface ServiceReady {
  url: string;
  auth: string;
}

/**
 * The service for a benchmark, in a process of its own (`fork`), on a data directory of the benchmark's: the load
 * comes from another process, as a user's would. Over the IPC channel it answers `cpu` (for CPU time per operation)
 * and, for a scenario's setup, `advance` (moves its clock by `ms`) and `promoteDue` (runs the jobs then due). With
 * BENCH_SERVICE_CPU_PROF=DIR the process runs with `--cpu-prof`: a profile of its whole life per thread (its commit
 * threads included) in DIR.
 */
export const startServiceProcess = (dataDir: string, env: Record<string, string> = {}) => {
  const dir = process.env.BENCH_SERVICE_CPU_PROF;
  const execArgv = dir ? ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '250'] : [];
  return startBenchProcess<ServiceReady>(import.meta.url, { dataDir, env }, execArgv) as Promise<
    BenchProcess<ServiceReady>
  >;
};

if (isMain(import.meta.url)) {
  serveBenchProcess(async ({ dataDir, env }: { dataDir: string; env: Record<string, string> }) => {
    const clock = new OffsetClock();
    const config = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', ...adapterEnv(), ...env };
    const service = await startService(loadConfig(config), { clock });
    return {
      ready: { url: service.url, auth: basicAuth(service.sandbox!.tokenId, service.sandbox!.clientSecret) },
      handlers: {
        advance: (ms: number) => void clock.advance(ms),
        promoteDue: () => service.infra.jobs.promoteDue(),
      },
      close: () => service.close(),
    };
  });
}
