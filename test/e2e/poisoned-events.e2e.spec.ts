import { beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { ManualClock } from '#domain/clock.js';
import { streams } from '#domain/primitives.js';
import { launchChromium, watchedPage } from '../support/browser.js';
import { money } from './money-support.js';
import { DEFAULT_START, useDataDir } from '../support/fixture.js';
import { poll } from '../support/poll.js';
import { basicAuth, client, startTestService, type Client, type TestService } from '../support/service.js';
import { pointWebhooksAt, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const MAX = Number.MAX_SAFE_INTEGER;
const SCREENSHOTS = join(process.cwd(), 'test-output', 'console');

/**
 * No balance may leave the range the API can state, and no single event may stop a shared processor: the second
 * funding of 2^53-1 is refused; an event written before that check (planted here) that the webhook dispatcher cannot
 * turn into a webhook is set aside with its error, shown in the console, and every other webhook keeps arriving,
 * also after a restart on the same data.
 */
describe('a poisoned event stops no platform', () => {
  const clock = new ManualClock(DEFAULT_START);
  let t: TestService | undefined;
  const receivers: WebhookReceiver[] = [];
  const dataDir = useDataDir('payments-poisoned-', async () => {
    await t?.close();
    await Promise.all(receivers.map((r) => r.close()));
  });
  const service = () => t!;

  beforeAll(async () => {
    t = await startTestService({ clock, dataDir });
  });

  const receiverFor = async (api: Client) => {
    const receiver = await startWebhookReceiver();
    receivers.push(receiver);
    await pointWebhooksAt(api, receiver);
    return receiver;
  };
  let customers = 0;
  const usdAccount = async (api: Client): Promise<string> => {
    const customer = await api.post('/customers', {
      platformCustomerId: `poisoned-${++customers}`,
      customerType: 'INDIVIDUAL',
      currencies: ['USD'],
    });
    expect(customer.status).toBe(201);
    const accounts = await api.get(`/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}`);
    return accounts.body.data[0].id;
  };
  const fund = (api: Client, account: string, amount: number) =>
    api.post(`/sandbox/internal-accounts/${account}/fund`, { amount });
  const balanceUpdate = (receiver: WebhookReceiver, account: string, amount: number) =>
    receiver.waitFor(
      (requests) =>
        requests.some(
          (r) =>
            r.json?.type === 'INTERNAL_ACCOUNT.BALANCE_UPDATED' &&
            r.json.data.id === account &&
            r.json.data.balance?.amount === amount,
        ),
      15_000,
      `the balance update of ${account} to ${amount}`,
    );
  const setAside = async (api: Client) => (await api.get('/audit/set-aside-events')).body.data as any[];

  it('refuses the second funding of 2^53-1 with 400 and moves nothing', async () => {
    const api = (await service().otherPlatform()).api;
    const account = await usdAccount(api);
    expect((await fund(api, account, MAX)).status).toBe(200);
    const settlement = async () => (await api.get('/platform/internal-accounts?currency=USD')).body.data[0];
    const refused = await fund(api, account, MAX);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: 400, code: 'AMOUNT_OUT_OF_RANGE' });
    expect(refused.body.message).toContain('2^53-1');
    expect((await api.get(`/internal-accounts/${account}`)).body.balance.amount).toBe(MAX);
    expect((await settlement()).balance.amount).toBe(-MAX);
    // The settlement account mirrors every funding: another account's funding would take it past the range too.
    expect((await fund(api, await usdAccount(api), 1)).body.code).toBe('AMOUNT_OUT_OF_RANGE');
    expect((await settlement()).balance.amount).toBe(-MAX);
    const history = await api.get(`/audit/internal-accounts/${account}/history`);
    expect(history.status).toBe(200);
    expect(history.body.data.map((p: any) => p.balance)).toEqual([MAX]);
  });

  it('refuses a payment whose credit would pass 2^53-1 before anything moves', async () => {
    const api = (await service().otherPlatform()).api;
    const m = money(service(), api);
    const ada = await m.funded(10_000);
    const bob = await m.customer(['EUR']);
    await m.fund(bob.accounts.EUR, MAX);
    const quote = await m.accountQuote(ada.accounts.USD, bob.accounts.EUR, 10_000);
    expect(quote.status).toBe(201);
    const executed = await api.post(`/quotes/${quote.body.id}/execute`);
    expect(executed.status).toBe(400);
    expect(executed.body.code).toBe('AMOUNT_OUT_OF_RANGE');
    expect(await m.balance(ada.accounts.USD)).toBe(10_000);
    expect(await m.balance(bob.accounts.EUR)).toBe(MAX);
    expect((await m.transaction(quote.body.transactionId)).status).toBe('PENDING');
  });

  it('sets aside an event the dispatcher cannot deliver, shows it, delivers the rest, also after restart', async () => {
    // The sandbox platform is the poisoned one; another platform's webhooks must keep arriving.
    const poisoned = service().api;
    const poisonedId = service().service.sandbox!.platformId;
    const poisonedReceiver = await receiverFor(poisoned);
    const account = await usdAccount(poisoned);
    expect((await fund(poisoned, account, MAX)).status).toBe(200);
    await balanceUpdate(poisonedReceiver, account, MAX);

    const other = await service().otherPlatform();
    const token = (await other.api.post('/tokens', { name: 'poisoned-events' })).body;
    let otherApi = other.api;
    const otherReceiver = await receiverFor(otherApi);
    const otherAccount = await usdAccount(otherApi);

    // A second funding of 2^53-1 as a log written before the range check holds it: the balance becomes 2^54-2,
    // which no webhook can state.
    const ledger = streams.ledger(poisonedId);
    const events = await service().service.infra.eventStore.readStream(ledger);
    const funding = events.find((e) => e.type === 'TransferCreated' && e.data.creditAccountId === account)!;
    await service().service.infra.eventStore.appendToStream(
      ledger,
      [
        {
          type: 'TransferCreated',
          data: { ...funding.data, id: 'planted-before-the-range-check' },
          metadata: { platformId: poisonedId, actor: 'system:test', correlationId: 'planted' },
        },
      ],
      { expectedRevision: 'any' },
    );

    const parked = await poll(
      () => setAside(poisoned),
      (list) => list.length > 0,
      { what: 'the planted event to be set aside', timeoutMs: 15_000, intervalMs: 50 },
    );
    expect(parked).toEqual([
      expect.objectContaining({
        processor: 'webhook-dispatcher',
        eventType: 'TransferCreated',
        stream: ledger,
        attempts: 3,
        error: expect.stringMatching(/^RangeError: amount 18014398509481982 does not fit a JSON number/),
      }),
    ]);
    // Another platform sees none of it.
    expect(await setAside(otherApi)).toEqual([]);

    // The others go on: the other platform's funding and the poisoned platform's other accounts.
    expect((await fund(otherApi, otherAccount, 700)).status).toBe(200);
    await balanceUpdate(otherReceiver, otherAccount, 700);
    const second = await usdAccount(poisoned);
    // Its settlement account is already past the range in that log: no funding of the platform moves now.
    expect((await fund(poisoned, second, 5)).body.code).toBe('AMOUNT_OUT_OF_RANGE');

    // The history states what fits and the exact decimal of what does not.
    const history = await poisoned.get(`/audit/internal-accounts/${account}/history`);
    expect(history.status).toBe(200);
    expect(history.body.data.map((p: any) => [p.balance, p.balanceExact])).toEqual([
      [MAX, undefined],
      [null, '18014398509481982'],
    ]);
    // Every other reader of that account answers too.
    const asOf = encodeURIComponent(new Date(clock.now().getTime() + 60_000).toISOString());
    for (const path of [
      `/internal-accounts/${account}`,
      `/audit/internal-accounts/${account}/state?asOf=${asOf}`,
      '/audit/overview',
      '/platform/internal-accounts?currency=USD',
    ])
      expect({ path, status: (await poisoned.get(path)).status }).toEqual({ path, status: 200 });

    // The console shows it.
    mkdirSync(SCREENSHOTS, { recursive: true });
    const errors: string[] = [];
    const failed: string[] = [];
    const browser: Browser = await launchChromium();
    try {
      const page = await watchedPage(browser, errors);
      // Every request of the page answers (the browser's own favicon request is not one of them).
      page.on('response', (r) => (r.status() >= 400 ? failed.push(`${r.url()} ${r.status()}`) : undefined));
      await page.goto(`${service().url}/dashboard`);
      await page.fill('input[name=tokenId]', service().service.sandbox!.tokenId);
      await page.fill('input[name=secret]', service().service.sandbox!.clientSecret);
      await page.click('#signin button');
      const row = page.locator(`#set-aside-body tr[data-position="${parked[0].position}"]`);
      await row.waitFor();
      const text = await row.innerText();
      expect(text).toContain('webhook-dispatcher');
      expect(text).toContain('TransferCreated');
      expect(text).toContain('RangeError: amount 18014398509481982 does not fit a JSON number');
      await page.locator('#set-aside').screenshot({ path: join(SCREENSHOTS, 'set-aside-events.png') });
    } finally {
      await browser.close();
    }
    expect(failed).toEqual([]);
    expect(errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([]);

    // After a restart on the same data the dispatcher goes on from where it was: the event stays set aside once.
    await service().close();
    t = await startTestService({ clock, dataDir });
    otherApi = client(service().url, basicAuth(token.id, token.clientSecret));
    expect((await fund(otherApi, otherAccount, 300)).status).toBe(200);
    await balanceUpdate(otherReceiver, otherAccount, 1000);
    expect(await setAside(service().api)).toEqual(parked);
    expect((await service().api.get(`/audit/internal-accounts/${account}/history`)).status).toBe(200);
  });
});
