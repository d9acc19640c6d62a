import { execFile } from 'node:child_process';
import { readFile, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { useTestService } from '../support/fixture.js';
import { poll } from '../support/poll.js';
import type { Client } from '../support/service.js';
import { uniqueDigits, uniqueValue } from '../support/sequence.js';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run cli -- <args>` on the test service's data directory, asynchronously: the service keeps working. */
function cli(dataDir: string, ...args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [resolve('dist/apps/api/src/cli.js'), ...args],
      { env: { ...process.env, NODE_OPTIONS: '', DATA_DIR: dataDir }, encoding: 'utf8' },
      (error, stdout, stderr) => done({ status: error ? (error.code as number) : 0, stdout, stderr }),
    );
  });
}

async function json(dataDir: string, ...args: string[]): Promise<any> {
  const run = await cli(dataDir, ...args, '--json');
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  return JSON.parse(run.stdout);
}

async function failure(dataDir: string, ...args: string[]): Promise<{ status: number | null; error: any }> {
  const run = await cli(dataDir, ...args, '--json');
  expect(run.stdout).toBe('');
  return { status: run.status, error: JSON.parse(run.stderr) };
}

const USD_ACCOUNT = { name: 'Acme Payments Inc', accountNumber: '7000123456', routingNumber: '021000021' };
const USD_ARGS = ['--currency', 'USD', '--account-number', '7000123456', '--routing-number', '021000021'];
const DAY = '2026-03-09';
const NOW = `${DAY}T12:00:00Z`;

/** The bank rail from the operators' CLI: a production platform's rails set, and the bank played on their folders. */
describe('the CLI’s bank rail commands', () => {
  const t = useTestService({ env: { RAILS_POLL_MS: '20' } });
  let prod: { platformId: string; api: Client };
  let outbox: string;

  const run = (command: string, ...args: string[]) => json(t.dataDir, command, '--platform', prod.platformId, ...args);
  const bank = (command: string, ...args: string[]) => run(command, '--currency', 'USD', ...args);
  const customer = async () => {
    const res = await prod.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: uniqueValue('cli-rail'),
      fullName: 'Ada Lovelace',
      kycStatus: 'APPROVED',
    });
    expect(res.status).toBe(201);
    const accounts = await prod.api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(res.body.id)}`);
    return { id: res.body.id as string, usd: accounts.body.data.find((a: any) => a.balance.currency.code === 'USD') };
  };
  const external = async (customerId: string, suffix: string) => {
    const res = await prod.api.post('/customers/external-accounts', {
      customerId,
      currency: 'USD',
      accountInfo: {
        accountType: 'USD_ACCOUNT',
        accountNumber: uniqueDigits('cli-rail-ext', 7) + suffix,
        routingNumber: '021000021',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
      },
      directDebitMandate: { mandateId: uniqueValue('MANDATE'), signedOn: '2026-01-15' },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const settles = (id: string, status: string) =>
    poll(
      async () => (await prod.api.get(`/transactions/${id}`)).body,
      (tx) => tx.status === status,
      { what: `${id} ${status}`, timeoutMs: 10_000, intervalMs: 20 },
    );
  const balance = (id: string, amount: number) =>
    poll(
      async () => (await prod.api.get(`/internal-accounts/${id}`)).body.balance.amount,
      (n) => n === amount,
      { what: `${id} holding ${amount}`, timeoutMs: 10_000, intervalMs: 20 },
    );
  /** Waits until the service's rail has written its file naming `endToEndId` into the outbox. */
  const outboxHolds = (endToEndId: string) =>
    poll(
      async () => {
        const names = (await readdir(outbox)).filter((n) => n.endsWith('.xml'));
        const texts = await Promise.all(names.map((n) => readFile(join(outbox, n), 'utf8')));
        return texts.some((x) => x.includes(`<EndToEndId>${endToEndId}</EndToEndId>`));
      },
      Boolean,
      { what: `an outbox file with ${endToEndId}`, timeoutMs: 10_000, intervalMs: 20 },
    );

  beforeAll(async () => {
    prod = await t.otherPlatform({ sandbox: false });
    const rail = await run('rails:set', ...USD_ARGS, '--name', USD_ACCOUNT.name, '--creditor-scheme-id', 'ACME0001');
    outbox = rail.outboxFolder;
  });

  it('sets, lists and removes rails as PATCH /config does, refusing what the API refuses', async () => {
    const folder = join(t.dataDir, 'rails', prod.platformId.split(':')[1]);
    const usd = {
      currency: 'USD',
      type: 'ISO20022_FILES',
      account: USD_ACCOUNT,
      creditorSchemeId: 'ACME0001',
      outboxFolder: join(folder, 'USD', 'outbox'),
      inboxFolder: join(folder, 'USD', 'inbox'),
    };
    expect(await run('rails:list')).toEqual([usd]);
    const iban = ['--iban', 'DE89370400440532013000', '--bic', 'DEUTDEFF'];
    const eur = await run('rails:set', '--currency', 'EUR', ...iban, '--name', 'Acme GmbH');
    expect(eur).toEqual({
      currency: 'EUR',
      type: 'ISO20022_FILES',
      account: { name: 'Acme GmbH', iban: 'DE89370400440532013000', bic: 'DEUTDEFF' },
      outboxFolder: join(folder, 'EUR', 'outbox'),
      inboxFolder: join(folder, 'EUR', 'inbox'),
    });
    expect((await stat(eur.inboxFolder)).isDirectory()).toBe(true);
    expect((await prod.api.get('/config')).body.rails).toEqual([usd, eur]);
    const text = await cli(t.dataDir, 'rails:list', '--platform', prod.platformId);
    expect(text.stdout.split('\n')[0]).toMatch(/^currency\s+holder\s+account\s+creditor scheme id\s+outbox\s+inbox$/);
    expect(text.stdout).toContain('DE89370400440532013000 DEUTDEFF');

    // A malformed account is refused with the API's error, and nothing changes.
    const badIban = ['--currency', 'EUR', '--iban', 'DE89370400440532013001', '--name', 'Acme GmbH'];
    const refused = await failure(t.dataDir, 'rails:set', '--platform', prod.platformId, ...badIban);
    const { outboxFolder: _o, inboxFolder: _i, ...usdRail } = usd;
    const eurRail = { currency: 'EUR', type: 'ISO20022_FILES', account: { name: 'Acme GmbH', iban: badIban[3] } };
    const api = await prod.api.patch('/config', { rails: [usdRail, eurRail] });
    expect(refused).toEqual({ status: 1, error: api.body });
    expect(refused.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('account.iban') });
    const badRouting = ['--currency', 'USD', '--account-number', '7000123456', '--routing-number', '021000022'];
    const routing = await failure(t.dataDir, 'rails:set', '--platform', prod.platformId, ...badRouting, '--name', 'X');
    expect(routing).toMatchObject({
      status: 1,
      error: { status: 400, code: 'INVALID_INPUT', message: expect.stringContaining('account.routingNumber') },
    });
    expect(await run('rails:list')).toEqual([usd, eur]);

    // Sandbox platforms move money by the sandbox's rules.
    const sandboxId = t.service.sandbox!.platformId;
    const sandbox = await failure(t.dataDir, 'rails:set', '--platform', sandboxId, ...USD_ARGS, '--name', 'Sandbox');
    expect(sandbox).toEqual({ status: 1, error: (await t.api.patch('/config', { rails: [usdRail] })).body });
    expect(sandbox.error.code).toBe('INVALID_INPUT');

    expect(await run('rails:remove', '--currency', 'EUR')).toEqual([usd]);
    expect(await failure(t.dataDir, 'rails:remove', '--platform', prod.platformId, '--currency', 'EUR')).toEqual({
      status: 1,
      error: { status: 404, code: 'BANK_RAIL_NOT_FOUND', message: 'bank rail EUR not found' },
    });
    const noRail = await failure(t.dataDir, 'bank:simulate', '--platform', prod.platformId, '--currency', 'EUR');
    expect([noRail.status, noRail.error.code]).toEqual([1, 'UNSUPPORTED_PAYMENT_RAIL']);
  });

  it('plays the bank on the rail’s folders: a pull and a payout made through the API complete', async () => {
    const c = await customer();
    const pull = await prod.api.post('/transfer-in', {
      source: { accountId: await external(c.id, '101') },
      destination: { accountId: c.usd.id },
      amount: 10_000,
    });
    expect([pull.status, pull.body.status]).toEqual([201, 'PROCESSING']);
    await outboxHolds(pull.body.reconciliationInstructions.reference);
    const first = await bank('bank:simulate', '--now', NOW);
    expect(first.taken.length).toBeGreaterThan(0);
    expect(first.written.length).toBeGreaterThan(0);
    expect(await readdir(first.outboxFolder)).toEqual(['taken']);
    await settles(pull.body.id, 'COMPLETED');
    await balance(c.usd.id, 10_000);

    const out = await prod.api.post('/transfer-out', {
      source: { accountId: c.usd.id },
      destination: { accountId: await external(c.id, '201') },
      amount: 4_000,
    });
    expect([out.status, out.body.status]).toEqual([201, 'PROCESSING']);
    await outboxHolds(out.body.reconciliationInstructions.reference);
    const text = await cli(
      t.dataDir,
      'bank:simulate',
      '--platform',
      prod.platformId,
      '--currency',
      'USD',
      '--now',
      NOW,
    );
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^took from .*outbox:\n {2}\S+\.xml\n/);
    expect(text.stdout).toMatch(/wrote into .*inbox:\n {2}bank-\S+\.pain\.002\./);
    await settles(out.body.id, 'COMPLETED');
    await balance(c.usd.id, 6_000);
  });

  it('bank:pay-in with an account’s funding reference credits that account', async () => {
    const c = await customer();
    const reference = c.usd.fundingPaymentInstructions[0].accountOrWalletInfo.reference;
    const paid = await bank('bank:pay-in', '--amount', '2500', '--remittance', `top-up ${reference}`, '--now', NOW);
    expect(paid).toMatchObject({ currency: 'USD', amount: '2500', written: [expect.stringMatching(/camt\.054/)] });
    await balance(c.usd.id, 2_500);
    expect((await prod.api.get('/bank-rails/USD/exceptions')).body.data).toEqual([]);
  });

  it('bank:statement writes the day’s camt.053, which the service reconciles', async () => {
    const day = '2026-03-10';
    const c = await customer();
    const reference = c.usd.fundingPaymentInstructions[0].accountOrWalletInfo.reference;
    await bank('bank:pay-in', '--amount', '700', '--remittance', reference, '--now', `${day}T09:00:00Z`);
    await balance(c.usd.id, 700);
    const statement = await bank('bank:statement', '--date', day);
    expect(statement.written).toEqual([expect.stringMatching(new RegExp(`camt\\.053\\.${day}`))]);
    const reconciled = await poll<any>(
      async () => (await prod.api.get('/bank-rails/USD/reconciliations')).body.data.find((r: any) => r.date === day),
      Boolean,
      { what: `the reconciliation of ${day}`, timeoutMs: 10_000, intervalMs: 20 },
    );
    expect(reconciled).toMatchObject({ date: day, breaks: [], closed: true });
    expect(BigInt(reconciled.closingBalance) - BigInt(reconciled.openingBalance)).toBe(700n);
  });
});
