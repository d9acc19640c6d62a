import { readFileSync } from 'node:fs';

/**
 * Where a benchmark's measured window spent its time: `node dist/test/bench/profile-summary.js FILE.cpuprofile`
 * (written by `BENCH_CPU_PROFILE=DIR npm run bench -- <scenario>`). Each sample's time goes to the innermost frame
 * of the call stack that belongs to a named part (a better-sqlite3 call counts for the code that made it, so a
 * commit's fsync is the event store's); the benchmark's own clients and the idle time are set apart, and the shares
 * are also given of the server's time alone. Then the functions with the most self time, and the innermost frames of
 * the project's own code with the most time. `signed-retry`, `cards-freeze` and `quotes` profile the server's process
 * (`-service-…` and `-raw-…` windows: there the server is the raw one); the other scenarios the benchmark's.
 */
interface Frame {
  functionName: string;
  url: string;
  lineNumber?: number;
}
interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Packages of the HTTP platforms (either adapter) and of Nest's routing. */
const HTTP_FRAMEWORK = new RegExp(
  [
    'fastify',
    'find-my-way',
    'light-my-request',
    'avvio',
    'express',
    'router',
    '@nestjs',
    'body-parser',
    'raw-body',
    'finalhandler',
    'on-finished',
    'path-to-regexp',
    '/qs/',
  ].join('|'),
);

/** Parts of the service, innermost first wins; the order matters only where a frame could match two. */
const PARTS: [part: string, test: (frame: Frame) => boolean][] = [
  // The raw references' own code (in a profile of a raw window; node's HTTP and crypto under it count as below).
  ['raw reference server (its own code)', (f) => /\/test\/bench\/raw-/.test(f.url)],
  ['benchmark clients (HTTP client, stamping)', (f) => /\/test\/|undici|@turnkey|@noble|@hpke/.test(f.url)],
  ['stamp verification (wallet)', (f) => /libs\/(domain|application)\/src\/wallet\/.*(stamp|signed)/.test(f.url)],
  ['event store: append, commit (fsync), reads', (f) => /libs\/event-store\//.test(f.url)],
  ['read models: projection writes, queries', (f) => /libs\/read-models\//.test(f.url)],
  ['jobs', (f) => /libs\/jobs\//.test(f.url)],
  ['authentication (Basic, tokens)', (f) => /apps\/api\/src\/http\/auth/.test(f.url)],
  [
    'validation (class-validator, class-transformer)',
    (f) => /class-validator|class-transformer|validator\/lib/.test(f.url),
  ],
  ['command runner, deciders, handlers', (f) => /libs\/(domain|application)\//.test(f.url)],
  ['API edge: controllers, pipes, filters, interceptors', (f) => /apps\/api\//.test(f.url)],
  ['HTTP framework (Fastify or Express, Nest routing)', (f) => HTTP_FRAMEWORK.test(f.url)],
  ['logging (pino)', (f) => /pino/.test(f.url)],
  ['node:crypto', (f) => /crypto/.test(f.url)],
  [
    'node HTTP and streams',
    (f) => /node:(_http|http|net|stream|events)|internal\/(http|streams|stream_base)/.test(f.url),
  ],
];
const SPECIAL = new Map<string, string>([
  ['(garbage collector)', 'garbage collection'],
  ['(idle)', 'idle (waiting for I/O: fsync by the OS, sockets)'],
  ['(program)', 'V8 and native, unattributed'],
]);

export function summarise(profile: Profile): { part: string; ms: number }[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const partOf = new Map<number, string>();
  const classify = (id: number): string => {
    const known = partOf.get(id);
    if (known) return known;
    const frame = byId.get(id)!.callFrame;
    let part = SPECIAL.get(frame.functionName) ?? PARTS.find(([, test]) => test(frame))?.[0];
    if (!part) {
      const up = parent.get(id);
      part = up === undefined ? 'other (JSON, timers, promises)' : classify(up);
      // Builtins such as JSON.parse have no URL and count for their caller; the root's direct work is "other".
    }
    partOf.set(id, part);
    return part;
  };
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const part = classify(id);
    totals.set(part, (totals.get(part) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...totals].map(([part, ms]) => ({ part, ms })).sort((a, b) => b.ms - a.ms);
}

/** The project's own code (not a dependency's, not the benchmark's): where an application-level caller is. */
const APPLICATION = /\/(apps|libs)\/[^/]+\/src\//;

const where = (f: Frame) =>
  `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(node_modules|dist)\//, '')}:${(f.lineNumber ?? 0) + 1}`;

/**
 * The `top` functions by self time (the innermost frame of each sample, idle time left out), and the `top` innermost
 * frames of the project's own code (`apps/`, `libs/`) by the time spent in them and in everything they call.
 */
export function hotspots(profile: Profile, top = 15): { self: [string, number][]; application: [string, number][] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const application = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') return;
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    add(self, where(frame), ms);
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = byId.get(at)!.callFrame;
      if (APPLICATION.test(f.url) && !/node_modules/.test(f.url)) return void add(application, where(f), ms);
    }
    add(application, '(no application frame)', ms);
  });
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, top);
  return { self: sorted(self), application: sorted(application) };
}

if (process.argv[1]?.endsWith('profile-summary.js')) {
  for (const file of process.argv.slice(2)) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    const rows = summarise(profile);
    const total = rows.reduce((sum, r) => sum + r.ms, 0);
    const clients = rows.filter((r) => r.part.startsWith('benchmark clients')).reduce((sum, r) => sum + r.ms, 0);
    const idle = rows.filter((r) => r.part.startsWith('idle')).reduce((sum, r) => sum + r.ms, 0);
    const service = total - clients - idle;
    // In a profile of a raw reference's window, "the server" is the raw server (and node's HTTP and crypto it calls).
    console.log(`${file}: ${total.toFixed(0)} ms sampled, of which the server ${service.toFixed(0)} ms`);
    console.log('      ms | of all |  of server | part');
    for (const { part, ms } of rows) {
      const ofService =
        part.startsWith('benchmark clients') || part.startsWith('idle') ? '' : `${((100 * ms) / service).toFixed(1)}%`;
      const ofAll = `${((100 * ms) / total).toFixed(1).padStart(5)}%`;
      console.log(`${ms.toFixed(0).padStart(8)} | ${ofAll} | ${ofService.padStart(10)} | ${part}`);
    }
    const { self, application } = hotspots(profile);
    console.log('      ms | self time: function');
    for (const [name, ms] of self) console.log(`${ms.toFixed(0).padStart(8)} | ${name}`);
    console.log('      ms | innermost application frame (time in it and what it calls)');
    for (const [name, ms] of application) console.log(`${ms.toFixed(0).padStart(8)} | ${name}`);
  }
}
