import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { startTestService, type TestService } from '../support/service.js';

const run = promisify(execFile);
const ROOT = resolve('.');
const PACKAGE = join(ROOT, 'packages/client');

/**
 * The names of the packages `name` needs at run time, itself included, as the repository's lockfile installed them
 * (each one's folder holds the nested copies of its own that differ).
 */
function dependencyClosure(names: string[]): string[] {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dependencies?: Record<string, string> }>;
  };
  const seen = new Set<string>();
  const queue = [...names];
  while (queue.length > 0) {
    const name = queue.shift()!;
    if (seen.has(name)) continue;
    seen.add(name);
    // Its own entry and those of the copies nested in its folder.
    for (const [path, entry] of Object.entries(lock.packages))
      if (path === `node_modules/${name}` || path.startsWith(`node_modules/${name}/node_modules/`))
        queue.push(...Object.keys(entry.dependencies ?? {}));
  }
  return [...seen];
}

/** An integrator's file: the client from the installed package, a typed body and a typed answer. */
const CALL = `import { PaymentsClient, isPaymentsApiError, type Customer, type paths } from '@payments-platform/client';

type CreateCustomer = paths['/customers']['post']['requestBody']['content']['application/json'];

const [baseUrl, tokenId, clientSecret] = process.argv.slice(2);
const client = new PaymentsClient({ baseUrl, tokenId, clientSecret });
const body: CreateCustomer = { platformCustomerId: 'packed-1', customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' };
// @ts-expect-error the package's types are the document's: customerType is INDIVIDUAL or BUSINESS
const wrong: CreateCustomer = { platformCustomerId: 'packed-2', customerType: 'ROBOT' };
const created: Customer = await client.post<Customer>('/customers', body, { idempotencyKey: 'packed-1' });
const read = await client.get<Customer>(\`/customers/\${created.id}\`);
let refused = '';
try {
  await client.get('/customers/Customer:00000000-0000-4000-8000-000000000000');
} catch (e) {
  if (!isPaymentsApiError(e, 'CUSTOMER_NOT_FOUND')) throw e;
  refused = \`\${e.status} \${e.code}\`;
}
console.log(JSON.stringify({ id: read.id, customerType: read.customerType, refused, unsent: wrong.customerType }));
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    noEmit: true,
    typeRoots: [join(ROOT, 'node_modules/@types')],
    types: ['node'],
  },
  files: ['call.ts'],
};

/**
 * The client package as an integrator gets it: `npm pack` of the built package, installed from the tarball into a
 * project of its own outside the repository, offline, then a TypeScript file of that project type-checked against
 * the installed types and run against the service. The registry is never asked: the package's dependencies are
 * already in the project's node_modules, copied from the repository's installed tree (the versions its lockfile
 * holds), so `npm install --offline` only adds the tarball.
 */
describe('the client package, packed and installed elsewhere', () => {
  let t: TestService;
  let dir: string;

  beforeAll(async () => {
    if (!existsSync(join(PACKAGE, 'dist/index.d.ts'))) throw new Error('packages/client is not built: npm run build');
    t = await startTestService();
    dir = mkdtempSync(join(tmpdir(), 'client-pack-'));
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('packs, installs offline, type-checks an integrator file and makes a typed call with it', async () => {
    const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8'));
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
    await run('npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: PACKAGE });
    const tarball = join(
      dir,
      readdirSync(dir).find((f) => f.endsWith('.tgz'))!,
    );
    expect(tarball).toMatch(/payments-platform-client-\d+\.\d+\.\d+\.tgz$/);

    const app = join(dir, 'app');
    mkdirSync(join(app, 'node_modules'), { recursive: true });
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'integrator', private: true, type: 'module' }));
    for (const name of dependencyClosure(Object.keys(manifest.dependencies)))
      cpSync(join(ROOT, 'node_modules', name), join(app, 'node_modules', name), { recursive: true });
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: app });
    const installed = join(app, 'node_modules/@payments-platform/client');
    expect(JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version).toBe(manifest.version);
    // The package carries its README, its build and its types, not its tests.
    expect(existsSync(join(installed, 'README.md'))).toBe(true);
    expect(existsSync(join(installed, 'dist/generated/openapi.d.ts'))).toBe(true);
    expect(readdirSync(join(installed, 'src')).filter((f) => f.endsWith('.spec.ts'))).toEqual([]);

    writeFileSync(join(app, 'call.ts'), CALL);
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    const checked = await run(process.execPath, [tsc, '--noEmit', '-p', 'tsconfig.json'], { cwd: app }).catch(
      (e: { stdout: string }) => ({ stdout: e.stdout, failed: true }),
    );
    expect(checked).toEqual({ stdout: '', stderr: '' });

    const js = ts.transpileModule(CALL, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    });
    writeFileSync(join(app, 'call.mjs'), js.outputText);
    const { tokenId, clientSecret } = t.service.sandbox!;
    const { stdout } = await run(process.execPath, ['call.mjs', t.url, tokenId, clientSecret], { cwd: app });
    expect(JSON.parse(stdout)).toEqual({
      id: expect.stringMatching(/^Customer:/),
      customerType: 'INDIVIDUAL',
      refused: '404 CUSTOMER_NOT_FOUND',
      unsent: 'ROBOT',
    });
    const listed = (await t.api.get('/customers?platformCustomerId=packed-1')).body;
    expect(listed.data.map((c: { platformCustomerId: string }) => c.platformCustomerId)).toEqual(['packed-1']);
  }, 180_000);
});
