import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommandBus } from '@nestjs/cqrs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { CreatePlatformCommand, type IssuedToken } from '#application/platforms/platform-commands.js';
import { BankSimulator } from '#rails/bank-simulator.js';
import { writeFileAtomically } from '#rails/file-exchange.js';
import { launchChromium, offlinePage } from '../support/browser.js';
import { useTestService } from '../support/fixture.js';
import { poll } from '../support/poll.js';
import { basicAuth, client, type Client } from '../support/service.js';
import { uniqueValue } from '../support/sequence.js';

const SCREENSHOTS = join(process.cwd(), 'test-output', 'console');
const ACCOUNT = { name: 'Console Rail Payments', accountNumber: '7000333222', routingNumber: '021000021' };
const PAYER = { name: 'Charles Babbage', accountNumber: '4400012345', routingNumber: '021000021' };
const DAY_1 = '2026-03-10';
const DAY_2 = '2026-03-11';
/** Text the console must show as text, never as markup. */
const REMITTANCE = 'invoice <b>77</b> & co';

/** The console's bank rail view of a production platform: credits in suspense, reconciliations and the bank's files. */
describe('operations console: bank rails', () => {
  const t = useTestService({ env: { RAILS_POLL_MS: '20' } });
  const bank = BankSimulator.create([{ account: ACCOUNT, currency: 'USD', balance: 0n }]);
  let prod: { token: IssuedToken; api: Client };
  let inbox: string;
  let accountId: string;
  let lostReference: string;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const shot = (name: string) =>
    page.locator('#bank-rails').screenshot({ path: join(SCREENSHOTS, `console-rails-${name}.png`) });

  /** Runs the bank on `day`; `deliver` false loses its notifications on the way (the statement still books them). */
  const bankRun = async (day: string, deliver = true) => {
    for (const file of bank.process({ files: [], now: new Date(`${day}T10:00:00Z`) }))
      if (deliver) await writeFileAtomically(inbox, file.name, file.xml);
  };
  const statement = async (day: string) => {
    const file = bank.endOfDay(day);
    await writeFileAtomically(inbox, file.name, file.xml);
  };
  const paidIn = (amount: bigint, remittance: string) =>
    bank.incomingCredit({
      account: ACCOUNT,
      amount: { minor: amount, currency: 'USD' },
      remittanceInformation: remittance,
      debtor: PAYER,
    });
  const reconciled = (date: string): Promise<any> =>
    poll<any>(
      async () => (await prod.api.get('/bank-rails/USD/reconciliations')).body.data.find((r: any) => r.date === date),
      Boolean,
      { what: `the reconciliation of ${date}`, timeoutMs: 10_000, intervalMs: 20 },
    );
  const signIn = async (tokenId: string, secret: string) => {
    await page.goto(`${t.url}/dashboard`);
    await page.fill('input[name=tokenId]', tokenId);
    await page.fill('input[name=secret]', secret);
    await page.click('#signin button');
    await page.locator('#console').waitFor({ state: 'visible' });
  };

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    // A production platform of the file's own, signed in to with its token in the browser.
    const created: { platformId: string; token: IssuedToken } = await t.service.app
      .get(CommandBus)
      .execute(new CreatePlatformCommand({ name: 'Rails', sandbox: false, umaDomain: 'rails.example.com' }, 'test'));
    await t.service.infra.projections.waitForPosition(await t.service.infra.eventStore.headPosition(), 5000);
    prod = { token: created.token, api: client(t.url, basicAuth(created.token.id, created.token.clientSecret)) };
    const patched = await prod.api.patch('/config', {
      rails: [{ currency: 'USD', type: 'ISO20022_FILES', account: ACCOUNT }],
    });
    expect(patched.status).toBe(200);
    inbox = patched.body.rails[0].inboxFolder;
    const customer = await prod.api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: uniqueValue('rails-console'),
      fullName: 'Ada Lovelace',
      kycStatus: 'APPROVED',
    });
    const accounts = await prod.api.get(
      `/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}`,
    );
    accountId = accounts.body.data.find((a: any) => a.balance.currency.code === 'USD').id;

    // Day 1: nothing moves; its statement closes.
    await statement(DAY_1);
    await reconciled(DAY_1);
    // Day 2: a credit that names nothing waits in suspense; a second one's notification is lost, so the day's
    // statement carries an entry the ledger lacks.
    paidIn(5_000n, REMITTANCE);
    await bankRun(DAY_2);
    paidIn(4_200n, 'wire without notice');
    await bankRun(DAY_2, false);
    await statement(DAY_2);
    const day2 = await reconciled(DAY_2);
    expect(day2.breaks).toEqual([expect.objectContaining({ kind: 'ENTRY_NOT_IN_LEDGER', statementAmount: '4200' })]);
    lostReference = day2.breaks[0].reference;
    // A file the service cannot read is quarantined with its reason.
    await writeFileAtomically(inbox, 'not-iso.xml', '<hello>not a bank message</hello>');
    await poll(
      async () => (await prod.api.get('/bank-rails/USD/inbox')).body.data,
      (files: any[]) => files.some((f) => f.fileName === 'not-iso.xml' && f.status === 'QUARANTINED'),
      { what: 'the quarantined file', timeoutMs: 10_000, intervalMs: 20 },
    );

    browser = await launchChromium();
    page = await offlinePage(browser, t.url, errors);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('says a sandbox platform has no bank rail', async () => {
    await signIn(t.service.sandbox!.tokenId, t.service.sandbox!.clientSecret);
    await page.locator('#no-rails', { hasText: 'Sandbox platforms have none' }).waitFor();
    await shot('01-sandbox');
    await page.click('#signout');
  });

  it('shows the credit in suspense, the day’s break, the closed day and the quarantined file', async () => {
    await signIn(prod.token.id, prod.token.clientSecret);
    const rail = page.locator('.rail[data-currency="USD"]');
    const credit = rail.locator('.rail-exceptions tr[data-credit]');
    await credit.locator('.status-OPEN').waitFor();
    expect(await credit.count()).toBe(1);
    // The remittance is shown as the text it is (escaped), with the amount in dollars.
    expect(await credit.locator('td').nth(5).textContent()).toBe(REMITTANCE);
    expect(await credit.locator('b').count()).toBe(0);
    expect(await credit.locator('td.num').textContent()).toBe('$50.00 USD');

    const recon = rail.locator('.rail-reconciliations');
    await recon.locator(`tr[data-date="${DAY_1}"] .status-CLOSED`).waitFor();
    await recon.locator(`tr[data-date="${DAY_2}"]`, { hasText: '1 break' }).waitFor();
    const breaks = recon.locator(`tr[data-breaks="${DAY_2}"] li`);
    expect(await breaks.count()).toBe(1);
    const line = await breaks.textContent();
    expect(line).toContain('ENTRY_NOT_IN_LEDGER');
    expect(line).toContain(lostReference);
    expect(line).toContain('statement $42.00 USD');
    expect(await recon.locator(`tr[data-breaks="${DAY_1}"]`).count()).toBe(0);

    const quarantined = rail.locator('.rail-inbox tr[data-file="not-iso.xml"]');
    await quarantined.locator('.status-QUARANTINED').waitFor();
    expect((await quarantined.locator('.quarantine-reason').textContent())!.length).toBeGreaterThan(0);
    expect(await rail.locator('.rail-inbox .status-APPLIED').count()).toBeGreaterThan(0);
    await shot('02-production');
  });

  it('shows the API’s refusals of a malformed and an unknown account, then assigns the credit', async () => {
    const credit = page.locator('.rail[data-currency="USD"] .rail-exceptions tr[data-credit]');
    const creditId = await credit.getAttribute('data-credit');
    await credit.locator('input[name=accountId]').fill('nope');
    await credit.locator('button[name=assign]').click();
    const refusal = credit.locator('.assign-error');
    await refusal.filter({ hasText: 'INVALID_INPUT' }).waitFor();
    expect(await refusal.textContent()).toContain('accountId must have the form InternalAccount:<uuid>');
    await shot('03-refused');
    await credit.locator('input[name=accountId]').fill('InternalAccount:00000000-0000-4000-8000-000000000000');
    await credit.locator('button[name=assign]').click();
    await refusal.filter({ hasText: '404' }).waitFor();
    await credit.locator('input[name=accountId]').fill(accountId);
    await credit.locator('button[name=assign]').click();
    await credit.locator('.status-ASSIGNED').waitFor();
    expect(await credit.locator('code', { hasText: accountId }).count()).toBe(1);
    expect(await credit.locator('form').count()).toBe(0);
    await page.locator('#toast', { hasText: `${creditId} is ASSIGNED` }).waitFor();
    const listed = (await prod.api.get('/bank-rails/USD/exceptions')).body.data;
    expect(listed).toEqual([expect.objectContaining({ id: creditId, status: 'ASSIGNED', assignedTo: accountId })]);
    await shot('04-assigned');
    // The browser logs the refused request itself; no script of the console failed.
    expect(errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
  });

  it('sends a credit back to its payer from the console', async () => {
    paidIn(3_300n, 'who is this');
    await bankRun(DAY_2);
    await poll(
      async () => (await prod.api.get('/bank-rails/USD/exceptions')).body.data as any[],
      (data) => data.some((e) => e.remittanceInformation === 'who is this'),
      { what: 'the second credit in suspense', timeoutMs: 10_000, intervalMs: 20 },
    );
    await page.reload();
    await page.locator('#console').waitFor({ state: 'visible' });
    const credit = page.locator('.rail[data-currency="USD"] .rail-exceptions tr[data-credit]', {
      hasText: 'who is this',
    });
    await credit.locator('button[name=return]').click();
    await credit.locator('.status-RETURNING').waitFor();
    expect(await credit.locator('form').count()).toBe(0);
    await shot('05-returning');
    expect(errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);
  });
});
