/**
 * Builds only when the build is missing or older than the sources, so that `npm run cli` and `npm run mcp` start in
 * about a second on a built tree. Plain JavaScript: it runs before anything is compiled.
 *
 *   node scripts/ensure-built.mjs [entry…]   build (`npm run build`) when a source under apps/, libs/ or
 *                                             packages/<name>/src/ (or a tsconfig) is newer than the last build,
 *                                             when there is no finished build, or when an entry is missing
 *   node scripts/ensure-built.mjs --start    (`npm run build`, first step) notes when the build started
 *   node scripts/ensure-built.mjs --stamp    (`npm run build`, last step) marks the build finished as of its start
 *
 * The stamp's time is the build's start, so a source saved while the build ran counts as newer than the build.
 * Build output goes to stderr: the MCP server's stdout is its protocol, the CLI's is its `--json` answer.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const STARTED = join(root, 'dist', '.build-started');
/** The finished build's stamp, relative to the repository root; its modification time is the build's start. */
export const STAMP_PATH = join('dist', '.build-stamp');

/** The newest modification time (ms) of the TypeScript sources and build settings under `dir`. */
function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestUnder(path));
    else if (/\.(ts|json)$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** The source folders a build compiles for the apps: apps/, libs/ and each package's src/. */
function sourceRoots(repo) {
  const packageDir = join(repo, 'packages');
  const packages = existsSync(packageDir) ? readdirSync(packageDir).map((name) => join(packageDir, name, 'src')) : [];
  return [join(repo, 'apps'), join(repo, 'libs'), ...packages].filter((dir) => existsSync(dir));
}

/** Why the build of `repo` is needed, or undefined when its last finished build is newer than every source. */
export function staleness(entries = [], repo = root) {
  const stamp = join(repo, STAMP_PATH);
  if (!existsSync(stamp)) return 'no finished build';
  const missing = entries.find((entry) => !existsSync(resolve(repo, entry)));
  if (missing) return `${missing} is missing`;
  const built = statSync(stamp).mtimeMs;
  const settings = readdirSync(repo).filter((name) => /^tsconfig.*\.json$/.test(name));
  const newest = Math.max(
    ...sourceRoots(repo).map(newestUnder),
    ...settings.map((name) => statSync(join(repo, name)).mtimeMs),
  );
  return newest > built ? 'sources changed since the last build' : undefined;
}

function main(args) {
  if (args[0] === '--start') {
    mkdirSync(dirname(STARTED), { recursive: true });
    writeFileSync(STARTED, '');
    return 0;
  }
  if (args[0] === '--stamp') {
    renameSync(STARTED, join(root, STAMP_PATH));
    return 0;
  }
  const why = staleness(args);
  if (!why) return 0;
  process.stderr.write(`building (${why})…\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const build = spawnSync(npm, ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 2, 2] });
  return build.status ?? 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
