import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fmt, startProfile } from './scenario.js';

/** The operations a benchmark process answers over its IPC channel, by name. */
export type Handlers = Record<string, (args: any) => unknown>;

/** The message that gives a load process the targets of one server (`name`) at `baseUrl`. */
export interface TargetsMessage<Target> {
  name: string;
  baseUrl: string;
  auth?: string;
  list: Target[];
}

interface Request {
  id: number;
  op: string;
  args?: unknown;
}

interface Answer {
  id: number;
  result?: unknown;
  error?: string;
}

/**
 * A part of a benchmark (a service, a raw reference, the clients) in a process of its own, driven over the IPC
 * channel of `fork`: nothing is added to the HTTP surface of the server it runs. Besides its own operations each
 * answers `cpu` (its `process.cpuUsage()`, user + system, in µs), and with BENCH_CPU_PROFILE=DIR `profile-start` and
 * `profile-stop`, which write a V8 CPU profile of the window between them to DIR/<label>.cpuprofile.
 */
export interface BenchProcess<Ready> {
  /** What the process answered once started (an address, credentials). */
  ready: Ready;
  call<T = unknown>(op: string, args?: unknown): Promise<T>;
  /** The process's CPU time so far (user + system), µs: all its threads', and its main thread's. */
  cpu(): Promise<CpuTimes>;
  /** Starts a CPU profile of the process (BENCH_CPU_PROFILE only); `stop` writes it. */
  profile(label: string): Promise<{ stop(): Promise<void> }>;
  /** Asks the process to close what it runs and exit, and waits for it. */
  close(): Promise<void>;
}

/**
 * A process's CPU time (user + system) in µs: all its threads' (`process.cpuUsage()`), the part of it spent in the
 * kernel (system: syscalls, waking threads, the network stack, fsync), and its main thread's alone.
 */
export interface CpuTimes {
  total: number;
  kernel: number;
  /** From /proc (Linux, in clock ticks of 10 ms); null elsewhere. */
  mainThread: number | null;
}

/** The main thread's CPU time from /proc/self/task/<pid>/stat (utime + stime, in ticks of 1/100 s), µs. */
function mainThreadMicros(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime) are the 12th and 13th after the command's closing parenthesis.
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}

/** Whether the module at `moduleUrl` (its `import.meta.url`) is the one this process was started with. */
export const isMain = (moduleUrl: string): boolean => process.argv[1] === fileURLToPath(moduleUrl);

/** Forks the module at `moduleUrl` (serving with `serveBenchProcess` when it is the main one), started with `args`. */
export async function startBenchProcess<Ready>(
  moduleUrl: string,
  args: unknown,
  execArgv: string[] = [],
): Promise<BenchProcess<Ready>> {
  const child: ChildProcess = fork(fileURLToPath(moduleUrl), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [...process.execArgv.filter((a) => !a.startsWith('--cpu-prof')), ...execArgv],
  });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let next = 0;
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  void exited.then((code) => {
    for (const { reject } of pending.values()) reject(new Error(`the benchmark process exited with ${code}`));
    pending.clear();
  });
  child.on('message', (answer: Answer) => {
    const waiting = pending.get(answer.id);
    pending.delete(answer.id);
    if (answer.error !== undefined) waiting?.reject(new Error(answer.error));
    else waiting?.resolve(answer.result);
  });
  const call = <T>(op: string, callArgs?: unknown): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (child.exitCode !== null || child.signalCode !== null) return reject(new Error('the process has exited'));
      const id = next++;
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ id, op, args: callArgs } satisfies Request);
    });
  const ready = await call<Ready>('start', args);
  return {
    ready,
    call,
    cpu: () => call<CpuTimes>('cpu'),
    async profile(label) {
      await call('profile-start', label);
      return { stop: () => call<void>('profile-stop') };
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      await call('close').catch(() => undefined);
      await exited;
    },
  };
}

/** A load process (a benchmark's clients in a process of their own): the module at `moduleUrl`, nothing to set up. */
export const startLoadProcess = (moduleUrl: string) =>
  startBenchProcess(moduleUrl, {}) as Promise<BenchProcess<unknown>>;

/** The load process's side, when the module at `moduleUrl` runs as one: the operations `handlers` makes at start. */
export function serveLoadProcess(moduleUrl: string, handlers: () => Handlers): void {
  if (isMain(moduleUrl)) serveBenchProcess(async () => ({ ready: null, handlers: handlers() }));
}

/**
 * The child's side: `start` (the first request) runs `setup` with the parent's arguments, whose answer is `ready`;
 * then each request runs its handler and its result (or error) goes back. `close` runs `setup`'s `close` and exits.
 */
export function serveBenchProcess(
  setup: (args: any) => Promise<{ ready: unknown; handlers: Handlers; close?: () => Promise<void> }>,
): void {
  let started: Awaited<ReturnType<typeof setup>> | undefined;
  let profile: { stop(): Promise<void> } | undefined;
  const builtIn: Handlers = {
    start: async (args) => (started = await setup(args)).ready,
    cpu: (): CpuTimes => {
      const { user, system } = process.cpuUsage();
      return { total: user + system, kernel: system, mainThread: mainThreadMicros() };
    },
    'profile-start': async (label: string) => void (profile = await startProfile(label)),
    'profile-stop': async () => {
      await profile?.stop();
      profile = undefined;
    },
    close: async () => {
      await started?.close?.();
    },
  };
  // A benchmark that ends, however it ends, takes its processes with it.
  process.once('disconnect', () => process.exit(0));
  process.on('message', (request: Request) => {
    const handler = builtIn[request.op] ?? started?.handlers[request.op];
    const answer = async (): Promise<Answer> => {
      if (!handler) return { id: request.id, error: `unknown operation ${request.op}` };
      try {
        return { id: request.id, result: (await handler(request.args)) ?? null };
      } catch (error) {
        return { id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
      }
    };
    // `close` exits once its answer is sent.
    void answer().then((reply) => process.send!(reply, undefined, {}, () => request.op === 'close' && process.exit(0)));
  });
}

/** What a clients' process measured over a window: operations, seconds, each operation's latency (ms). */
export interface Measured {
  ops: number;
  seconds: number;
  latencies: number[];
}

/** A window measured with the CPU time the server spent in it, per operation (µs): all its threads', its main one's. */
export interface ServerMeasured extends Measured {
  cpuPerOpMicros: number;
  /** The part of `cpuPerOpMicros` spent in the kernel. */
  kernelCpuPerOpMicros: number;
  mainThreadCpuPerOpMicros: number | null;
}

/**
 * Runs `measure` (a window of load from a clients' process) and adds the CPU time `server` spent over it, per
 * operation, read from the server's own `process.cpuUsage()` just before and just after; with BENCH_CPU_PROFILE the
 * server's CPU profile of the window is written as `label`.
 */
export async function withServerCpu(
  server: BenchProcess<unknown>,
  label: string,
  measure: () => Promise<Measured>,
): Promise<ServerMeasured> {
  const profile = await server.profile(label);
  try {
    return await cpuOver(server, measure);
  } finally {
    await profile.stop();
  }
}

/** The steady state's test: the last STEADY_WINDOWS windows' CPU per operation spread by at most this part. */
const STEADY_WITHIN = 0.1;
const STEADY_WINDOWS = 3;
const MOST_WARMUP_WINDOWS = 10;

/**
 * Drives windows of the load about to be measured (`window`) until the server's CPU time per operation is steady: the
 * last STEADY_WINDOWS windows within STEADY_WITHIN of the largest of them, and at most MOST_WARMUP_WINDOWS. A service
 * that has been running meets a user's load with its hot code already optimized; a process just started spends its
 * first seconds compiling it (V8's optimizing compiler, on threads of its own, counted in the process's CPU time),
 * which no later operation pays again. Both sides of a comparison warm up this way. `beforeEach` readies each window,
 * outside its measure. Returns each window's CPU time per operation (µs), for the report.
 */
export async function warmUntilSteady(
  server: BenchProcess<unknown>,
  window: () => Promise<Measured>,
  beforeEach?: () => Promise<unknown>,
): Promise<number[]> {
  const perOp: number[] = [];
  const steady = (last: number[]) => {
    const top = Math.max(...last);
    return last.length === STEADY_WINDOWS && top - Math.min(...last) <= STEADY_WITHIN * top;
  };
  while (perOp.length < MOST_WARMUP_WINDOWS && !steady(perOp.slice(-STEADY_WINDOWS))) {
    await beforeEach?.();
    perOp.push(Math.round((await cpuOver(server, window)).cpuPerOpMicros));
  }
  return perOp;
}

/** "6,669 → 4,980 → 4,286 µs": a warm-up's CPU time per operation, window by window. */
export const warmupText = (perOp: number[]): string => `${perOp.map(fmt).join(' → ')} µs`;

/** A comparison's warm-ups in its report: a line (`what`, then each side's windows) and the JSON's two figures. */
export const warmupReport = (what: string, service: number[], raw: number[]) => ({
  line: `${what}: service ${warmupText(service)}; raw ${warmupText(raw)}`,
  figures: { serviceWarmupCpuPerOpMicros: service.join(' '), rawWarmupCpuPerOpMicros: raw.join(' ') },
});

async function cpuOver(server: BenchProcess<unknown>, measure: () => Promise<Measured>): Promise<ServerMeasured> {
  const before = await server.cpu();
  const measured = await measure();
  const after = await server.cpu();
  const ops = Math.max(1, measured.ops);
  const main = after.mainThread === null || before.mainThread === null ? null : after.mainThread - before.mainThread;
  return {
    ...measured,
    cpuPerOpMicros: (after.total - before.total) / ops,
    kernelCpuPerOpMicros: (after.kernel - before.kernel) / ops,
    mainThreadCpuPerOpMicros: main === null ? null : main / ops,
  };
}

/** "server CPU 1,234 µs per <what> (kernel 456, main thread 567)": a window's CPU figures for a report line. */
export const cpuText = (m: ServerMeasured, what: string): string =>
  `server CPU ${fmt(m.cpuPerOpMicros)} µs per ${what} (kernel ${fmt(m.kernelCpuPerOpMicros)}` +
  (m.mainThreadCpuPerOpMicros === null ? ')' : `, main thread ${fmt(m.mainThreadCpuPerOpMicros)})`);
