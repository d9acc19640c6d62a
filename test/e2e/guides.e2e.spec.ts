import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { useTestService } from '../support/fixture.js';
import { guideBlocks, typescriptModule, type GuideBlock } from '../support/guide-blocks.js';
import { GuideBrowser } from '../support/guide-browser.js';

/**
 * Every guide's code runs against the service, in the order a reader follows it, so a guide that drifts from the
 * service fails here with the guide's name and the block's number. `sh`/`bash` blocks run with
 * `bash -euo pipefail` from the repository root, `curl` failing on any answer that is not 2xx; the variables and
 * functions a block sets are there for the guide's later blocks (and in `process.env` for its TypeScript).
 * Consecutive `ts` blocks run as one module through the client package `@payments-platform/client` (and are
 * typechecked with the repository's tsconfig); `js browser` blocks run in Chromium at `http://localhost:3000` with a
 * virtual passkey authenticator (test/support/guide-browser.ts). What a TypeScript block sets in `process.env`, or a
 * browser block in `guide`, is a variable of the guide's later blocks. The environment is what the guides tell a
 * reader to set:
 * PAYMENTS_API_URL, PAYMENTS_TOKEN_ID and PAYMENTS_CLIENT_SECRET of the sandbox platform. Blocks of other
 * languages (`json`, `http`, `text`) and `no-run: <reason>` blocks are not run (test/support/guide-blocks.ts).
 * GUIDES_VERBOSE=1 prints what each shell block printed.
 */
const GUIDES = resolve('docs/guides');
const WORK = resolve('test/.guide-blocks');
const names = readdirSync(GUIDES)
  .filter((file) => file.endsWith('.md'))
  .map((file) => file.replace(/\.md$/, ''))
  .sort();

/** Runs before each shell block: the state the guide's earlier blocks left, and curl that fails on >= 400. */
const PRELUDE = `__before=" $(compgen -v | tr '\\n' ' ') "
curl() {
  local __out __rc=0
  __out=$(command curl --fail-with-body -sS "$@") || __rc=$?
  printf '%s\n' "$__out"
  if [ "$__rc" != 0 ]; then printf 'curl %s\n%s\n' "$*" "$__out" >&2; fi
  return "$__rc"
}
source "$GUIDE_STATE"
`;
/** Runs after it: every variable the guide set, for the next block (bash) and for TypeScript (NUL-separated). */
const SAVE = `
for __v in $(compgen -v); do
  case "$__before" in *" $__v "*) continue ;; esac
  case "$__v" in __*) continue ;; esac
  declare -p "$__v" | sed 's/^declare -[^ ]* /declare -gx /'
done > "$GUIDE_STATE.next"
for __f in $(compgen -A function); do [ "$__f" = curl ] || declare -f "$__f"; done >> "$GUIDE_STATE.next"
for __v in $(compgen -v); do
  case "$__before" in *" $__v "*) continue ;; esac
  case "$__v" in __*) continue ;; esac
  printf '%s=%s\\0' "$__v" "\${!__v}"
done > "$GUIDE_STATE.env"
mv "$GUIDE_STATE.next" "$GUIDE_STATE"
`;

function runShell(block: GuideBlock, env: Record<string, string>): Promise<void> {
  const script = `${PRELUDE}\n${block.code}\n${SAVE}`;
  return new Promise((done, fail) => {
    execFile(
      'bash',
      ['-euo', 'pipefail', '-c', script],
      { env, cwd: resolve('.'), timeout: 60_000, maxBuffer: 16 << 20 },
      (error, stdout, stderr) => {
        if (process.env.GUIDES_VERBOSE) console.log(`block ${block.number}:\n${stdout}${stderr}`);
        return error ? fail(new Error(`exit ${error.code}\n${stderr}\n${stdout}`.trimEnd())) : done();
      },
    );
  });
}

function readGuideEnv(state: string): Record<string, string> {
  const pairs = readFileSync(`${state}.env`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

/** Consecutive runnable blocks of one language: one shell block, or the TypeScript blocks between shell blocks. */
function steps(blocks: GuideBlock[]): GuideBlock[][] {
  const out: GuideBlock[][] = [];
  for (const block of blocks.filter((b) => b.runs)) {
    const last = out.at(-1);
    if (block.runs !== 'sh' && last && last[0].runs === block.runs) last.push(block);
    else out.push([block]);
  }
  return out;
}

/** Imports the blocks as one module with `env` in `process.env`; a failure names the block that was running. */
async function runTypescript(
  file: string,
  group: GuideBlock[],
  env: Record<string, string>,
  where: (block: number) => string,
): Promise<Record<string, string>> {
  const path = join(WORK, `${file}.ts`);
  writeFileSync(
    path,
    typescriptModule(group, (n) => `(globalThis as { __guideBlock?: number }).__guideBlock = ${n};`),
  );
  const g = globalThis as { __guideBlock?: number };
  const before = { ...process.env };
  Object.assign(process.env, env);
  const during = { ...process.env };
  try {
    await import(pathToFileURL(path).href);
    return Object.fromEntries(
      Object.entries(process.env).filter((entry): entry is [string, string] => during[entry[0]] !== entry[1]),
    );
  } catch (error) {
    throw new Error(`${where(g.__guideBlock ?? group[0].number)} failed: ${(error as Error).stack}`, { cause: error });
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in before)) delete process.env[key];
    Object.assign(process.env, before);
  }
}

/** Adds `variables` to the guide's state: shell variables of its later blocks, and their environment. */
function saveVariables(state: string, variables: Record<string, string>): void {
  const quoted = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
  for (const [name, value] of Object.entries(variables)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`a guide variable needs a shell name: ${name}`);
    appendFileSync(state, `declare -gx ${name}=${quoted(value)}\n`);
    appendFileSync(`${state}.env`, `${name}=${value}\0`);
  }
}

describe('docs/guides: every code block runs against the service', () => {
  const t = useTestService({ env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } });
  let base: Record<string, string>;
  beforeAll(() => {
    rmSync(WORK, { recursive: true, force: true });
    mkdirSync(WORK, { recursive: true });
    const { tokenId, clientSecret } = t.service.sandbox!;
    base = { PAYMENTS_API_URL: t.url, PAYMENTS_TOKEN_ID: tokenId, PAYMENTS_CLIENT_SECRET: clientSecret };
  });
  afterAll(() => rmSync(WORK, { recursive: true, force: true }));

  it('finds the guides', () => expect(names.length).toBeGreaterThanOrEqual(7));

  // The service's clock follows real time from step to step, as a reader's does (a sandbox ID token's times are
  // the reader's machine's).
  const realTime = () => t.clock.set(new Date());

  it.each(names)('%s', async (name) => {
    await runGuide(`docs/guides/${name}.md`, readFileSync(join(GUIDES, `${name}.md`), 'utf8'), base, realTime);
  });

  it('names the guide, the block and its line when a block fails, shell, TypeScript or browser', async () => {
    const shell = '# Broken\n\n```sh\nA=1\n```\n\n```sh\ntest "$A" = 2\n```\n';
    await expect(runGuide('broken.md', shell, base)).rejects.toThrow('broken.md block 2 (line 7) failed: exit 1');
    const typescript = '```sh\nA=1\n```\n```ts\nconsole.log(process.env.A);\n```\n```ts\nthrow new Error(`no`);\n```';
    await expect(runGuide('broken-ts.md', typescript, base)).rejects.toThrow('broken-ts.md block 3 (line 7) failed');
    // What a browser block sets is the later blocks' variable (block 3 checks it).
    const browser = [
      '```js browser\nguide.A = "1";\n```\n',
      '```js browser no-run: a sample\n```',
      '```sh\ntest "$A" = 1\n```',
      '```js browser\nthrow new Error(`no`);\n```',
    ].join('\n');
    await expect(runGuide('broken-browser.md', browser, base)).rejects.toThrow(
      'broken-browser.md block 4 (line 10) failed: page.evaluate: Error: no',
    );
  });

  it("typechecks the guides' TypeScript", async () => {
    const dir = join(WORK, 'typecheck');
    mkdirSync(dir, { recursive: true });
    for (const name of names) {
      const blocks = guideBlocks(readFileSync(join(GUIDES, `${name}.md`), 'utf8'), `${name}.md`);
      for (const [index, group] of steps(blocks).entries()) {
        if (group[0].runs === 'ts')
          writeFileSync(
            join(dir, `${name}-${index}.ts`),
            typescriptModule(group, () => ''),
          );
      }
    }
    const config = { extends: '../../../tsconfig.json', compilerOptions: { noEmit: true, incremental: false } };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ ...config, include: ['*.ts'] }));
    const tsc = resolve('node_modules/typescript/bin/tsc');
    const output = await new Promise<string>((done) =>
      execFile(process.execPath, [tsc, '-p', dir], { timeout: 120_000 }, (error, stdout) =>
        done(error ? stdout || error.message : ''),
      ),
    );
    expect(output).toBe('');
  });
});

/** Runs one guide's blocks in order; throws naming the guide, the block and its line at the first that fails. */
async function runGuide(
  guide: string,
  markdown: string,
  base: Record<string, string>,
  beforeStep: () => void = () => undefined,
): Promise<void> {
  const blocks = guideBlocks(markdown, guide);
  const file = guide.replace(/^.*\//, '').replace(/\.md$/, '');
  const state = join(WORK, `${file}.state`);
  writeFileSync(state, '');
  writeFileSync(`${state}.env`, '');
  const browser = new GuideBrowser();
  try {
    for (const [index, group] of steps(blocks).entries()) {
      beforeStep();
      const where = (n: number) => `${guide} block ${n} (line ${blocks[n - 1].line})`;
      if (group[0].runs === 'sh') {
        const env = { ...(process.env as Record<string, string>), ...base, GUIDE_STATE: state };
        await runShell(group[0], env).catch((error: Error) => {
          throw new Error(`${where(group[0].number)} failed: ${error.message}`, { cause: error });
        });
        continue;
      }
      const variables = { ...readGuideEnv(state), ...base };
      if (group[0].runs === 'browser') {
        const code = group.map((block) => block.code).join('\n');
        const set = await browser.run(code, variables).catch((error: Error) => {
          throw new Error(`${where(group[0].number)} failed: ${error.message}`, { cause: error });
        });
        saveVariables(state, set);
        continue;
      }
      saveVariables(state, await runTypescript(`${file}-${index}`, group, variables, where));
    }
  } finally {
    await browser.close();
  }
}
