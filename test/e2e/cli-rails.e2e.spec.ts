import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { cli, cliFailure as failure, cliJson as json } from '../support/cli.js';
import { useTestService } from '../support/fixture.js';
import type { Client } from '../support/service.js';
import { RailDriver, USD_RAIL } from './bank-rail-support.js';

const USD_ARGS = ['--currency', 'USD', '--account-number', '7000123456', '--routing-number', '021000021'];
const DAY = '2026-03-09';
const NOW = `${DAY}T12:00:00Z`;

/** The bank rail from the operators' CLI: a production platform's rails set, and the bank played on their folders. */
describe('the CLI’s bank rail commands', () => {
  const t = useTestService({ env: { RAILS_POLL_MS: '20' } });
  let prod: { platformId: string; api: Client };
  let rail: RailDriver;

  const run = (command: string, ...args: string[]) => json(t.dataDir, command, '--platform', prod.platformId, ...args);
  const bank = (command: string, ...args: string[]) => run(command, '--currency', 'USD', ...args);

  beforeAll(async () => {
    prod = await t.otherPlatform({ sandbox: false });
    const set = await run(
      'rails:set',
      ...USD_ARGS,
      '--name',
      USD_RAIL.account.name,
      '--creditor-scheme-id',
      USD_RAIL.creditorSchemeId,
    );
    const state = join(set.outboxFolder, '..', 'bank-state.json');
    rail = new RailDriver(prod.api, { outbox: set.outboxFolder, inbox: set.inboxFolder, state });
  });

  it('sets, lists and removes rails as PATCH /config does, refusing what the API refuses', async () => {
    const folder = join(t.dataDir, 'rails', prod.platformId.split(':')[1]);
    const usd = {
      ...USD_RAIL,
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
    const c = await rail.customer();
    const pull = await rail.pull(c.id, c.usd, 10_000);
    await rail.outboxHolds(pull.reconciliationInstructions.reference);
    const first = await bank('bank:simulate', '--now', NOW);
    expect(first.taken.length).toBeGreaterThan(0);
    expect(first.written.length).toBeGreaterThan(0);
    expect(await readdir(first.outboxFolder)).toEqual(['taken']);
    await rail.settles(pull.id, 'COMPLETED');
    await rail.holds(c.usd, 10_000);

    const out = await rail.transferOut(c.usd, await rail.external(c.id, '201'), 4_000);
    await rail.outboxHolds(out.reconciliationInstructions.reference);
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
    await rail.settles(out.id, 'COMPLETED');
    await rail.holds(c.usd, 6_000);
  });

  it('bank:pay-in with an account’s funding reference credits that account', async () => {
    const c = await rail.customer();
    const paid = await bank('bank:pay-in', '--amount', '2500', '--remittance', `top-up ${c.reference}`, '--now', NOW);
    expect(paid).toMatchObject({ currency: 'USD', amount: '2500', written: [expect.stringMatching(/camt\.054/)] });
    await rail.holds(c.usd, 2_500);
    expect((await prod.api.get('/bank-rails/USD/exceptions')).body.data).toEqual([]);
  });

  it('bank:statement writes the day’s camt.053, which the service reconciles', async () => {
    const day = '2026-03-10';
    const c = await rail.customer();
    await bank('bank:pay-in', '--amount', '700', '--remittance', c.reference, '--now', `${day}T09:00:00Z`);
    await rail.holds(c.usd, 700);
    const statement = await bank('bank:statement', '--date', day);
    expect(statement.written).toEqual([expect.stringMatching(new RegExp(`camt\\.053\\.${day}`))]);
    const reconciled = await rail.reconciled(day);
    expect(reconciled).toMatchObject({ date: day, breaks: [], closed: true });
    expect(BigInt(reconciled.closingBalance) - BigInt(reconciled.openingBalance)).toBe(700n);
  });
});
