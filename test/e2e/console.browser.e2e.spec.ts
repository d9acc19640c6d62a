import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, offlinePage } from '../support/browser.js';
import { ManualClock } from '#domain/clock.js';
import { cardholder, type Cardholder } from '../support/card-fixture.js';
import { pendingIncoming } from '../support/sandbox-payments.js';
import { startTestService, type Client, type TestService } from '../support/service.js';
import { signedRequest } from '../support/wallet-session.js';
import { pointWebhooksAt, startWebhookReceiver } from '../support/webhook-receiver.js';
import type { ReceivedRequest, WebhookReceiver } from '../support/webhook-receiver.js';

const SCREENSHOTS = join(process.cwd(), 'test-output', 'console');
const START = Date.UTC(2026, 2, 16, 8);
const HOUR = 3_600_000;

describe('operations console in a browser', () => {
  const clock = new ManualClock(START);
  let t: TestService;
  let api: Client;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let page: Page;
  let holder: Cardholder;
  let pendingPaymentId: string;
  let failedDeliveryId: string;
  const errors: string[] = [];
  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    t = await startTestService({ clock });
    api = t.api;
    // A cardholder whose card is frozen through the signed-retry flow.
    holder = await cardholder(t, api, clock, 'console-holder');
    // Besides the fixture's settled 5.00 purchase: a 12.50 one still held and one the network declines.
    const simulate = (descriptor: string, amount: number) =>
      api.post(`/sandbox/cards/${holder.cardId}/simulate/authorization`, {
        amount,
        currency: { code: 'USD' },
        merchant: { descriptor, mcc: '5814', country: 'US' },
      });
    clock.advance(30_000);
    expect((await simulate('BLUE BOTTLE COFFEE SF', 1250)).body.status).toBe('AUTHORIZED');
    expect((await simulate('AMAZON RETAIL US-002', 50_000)).body.code).toBe('INSUFFICIENT_FUNDS');
    clock.advance(60_000);
    const frozen = await signedRequest(api, 'PATCH', `/cards/${holder.cardId}`, { state: 'FROZEN' }, holder.wallet);
    expect(frozen.result.status).toBe(200);
    // An incoming UMA payment that waits for the platform's approval (sandbox sender prefix `$pending`).
    pendingPaymentId = (await pendingIncoming(api, holder.customerId, 7_000)).id;
    // A failed webhook delivery: the TEST send to a receiver answering 500.
    receiver = await startWebhookReceiver();
    await pointWebhooksAt(api, receiver);
    await receiver.setMode('error');
    expect((await api.post('/sandbox/webhooks/test')).body.details.response_status).toBe(500);
    await receiver.setMode('ok');
    const failed = await api.get('/webhooks/deliveries?type=TEST&status=FAILED');
    failedDeliveryId = failed.body.data[0].id;

    browser = await launchChromium();
    // The console must work offline: any request leaving the service is a failure.
    page = await offlinePage(browser, t.url, errors);
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
  });

  it('refuses wrong credentials, then signs in', async () => {
    await page.goto(`${t.url}/dashboard`);
    await page.fill('input[name=tokenId]', t.service.sandbox!.tokenId);
    await page.fill('input[name=secret]', 'wrong');
    await page.click('#signin button');
    await page.locator('#signin-error', { hasText: 'refused' }).waitFor();
    await page.fill('input[name=tokenId]', t.service.sandbox!.tokenId);
    await page.fill('input[name=secret]', t.service.sandbox!.clientSecret);
    await page.click('#signin button');
    await page
      .locator('#console')
      .waitFor({ state: 'visible' })
      .catch(async (e) => {
        await shot('00-failed-sign-in');
        throw new Error(`${e.message}; page errors: ${errors.join(' | ')}`);
      });
    expect(await page.textContent('#who')).toBe(t.service.sandbox!.tokenId);
    await shot('01-signed-in');
  });

  it('finds a customer by platformCustomerId and by email, and shows balances with symbol and decimals', async () => {
    await page.fill('#search input', 'console-holder@example.com');
    await page.click('#search button');
    await page.locator('#results code', { hasText: holder.customerId }).waitFor();
    await page.fill('#search input', 'console-holder');
    await page.click('#search button');
    // The fixture funded 100.00 USD and cleared a 5.00 purchase.
    await page.locator('#detail-body .balance', { hasText: '$95.00 USD' }).waitFor();
    await shot('02-customer');
  });

  it('opens the card history and sees the freeze', async () => {
    await page.click(`a[data-card="${holder.cardId}"]`);
    const history = page.locator('#subdetail .history');
    await history.locator('tr', { hasText: 'CardStateChanged' }).locator('.status-FROZEN').waitFor();
    expect(await history.locator('tr', { hasText: 'CardCreated' }).count()).toBe(1);
    // The card's spend from GET /cards/{id}/transactions: the settled 5.00 purchase and the held 12.50 one.
    const spend = page.locator('#card-transactions');
    await spend.locator('tr', { hasText: 'CORNER COFFEE' }).locator('.status-SETTLED').waitFor();
    const held = spend.locator('tr', { hasText: 'BLUE BOTTLE COFFEE SF' });
    await held.locator('.status-AUTHORIZED').waitFor();
    expect(await held.locator('td.num').first().textContent()).toBe('$12.50 USD');
    expect(await spend.locator('tr[data-card-transaction]').count()).toBe(2);
    // No controls of its own and no platform default.
    expect(await page.locator('#card-spending-controls p').textContent()).toBe('Spending controls: none');
    expect(await spend.locator('p').textContent()).toContain(
      '2 transaction(s): spent $5.00 USD net (settled $5.00 USD, refunded $0.00 USD, held $12.50 USD)',
    );
    // The audit view still lists every authorization, the declined one included.
    await page.locator('#authorizations tr', { hasText: '$500.00 USD' }).first().waitFor();
    await page.locator('#authorizations tr', { hasText: 'AMAZON RETAIL US-002' }).locator('.status-DECLINED').waitFor();
    // Without a decision endpoint the service's rules decided each one.
    await page.locator('#authorizations tr', { hasText: 'RULES ·' }).first().waitFor();
    await shot('03-card-history');
  });

  it('finds a card by its last four digits and opens its history', async () => {
    const last4 = (await api.get(`/cards/${holder.cardId}`)).body.last4;
    expect(last4).toMatch(/^\d{4}$/);
    await page.fill('#search input', last4);
    await page.click('#search button');
    await page.locator(`#results tr[data-card="${holder.cardId}"]`).waitFor();
    await page.locator('#detail-body #authorizations').waitFor();
    await page.locator('#detail-body #card-transactions tr[data-card-transaction]').first().waitFor();
    await shot('03b-card-by-last-four');
  });

  it('approves the incoming payment pending approval', async () => {
    const row = page.locator(`#approvals-body tr[data-payment="${pendingPaymentId}"]`);
    await row.locator('button[data-act=approve]').click();
    await row.waitFor({ state: 'detached' });
    expect((await api.get(`/transactions/${pendingPaymentId}`)).body.status).toBe('COMPLETED');
    await page.locator('#toast', { hasText: 'COMPLETED' }).waitFor();
    // The customer's transactions now show it completed; its detail has status and no failure reason.
    await page.fill('#search input', 'console-holder');
    await page.click('#search button');
    await page.click(`#detail-body tr[data-tx="${pendingPaymentId}"]`);
    await page.locator('#tx-status', { hasText: 'COMPLETED' }).waitFor();
    expect(await page.textContent('#tx-failure')).toBe('—');
    await shot('04-approved');
  });

  it('finds the transaction by id and shows its ledger legs, and an account’s postings', async () => {
    await page.fill('#search input', pendingPaymentId);
    await page.click('#search button');
    await page.locator('#ledger-legs tr', { hasText: '$70.00 USD' }).first().waitFor();
    await page.locator('#tx-status', { hasText: 'COMPLETED' }).waitFor();
    await shot('04b-transaction-legs');
    await page.fill('#search input', 'console-holder');
    await page.click('#search button');
    await page.click(`#detail-body tr[data-account="${holder.usd}"]`);
    const postings = page.locator('#postings tr');
    // Funding, the card purchase and the approved payment: the running balance ends at $165.00.
    await postings.filter({ hasText: '$165.00 USD' }).first().waitFor();
    expect(await postings.count()).toBeGreaterThan(2);
    await shot('04c-postings');
  });

  it('shows the webhook endpoint and sends a test webhook', async () => {
    const config = (await api.get('/config')).body;
    expect(await page.inputValue('#endpoint-form input[name=url]')).toBe(config.webhookEndpoint);
    await page.click('#test-send');
    await page.locator('#test-result', { hasText: 'answered 200' }).waitFor();
    // Decision endpoints are set and removed beside it.
    await page.fill('#decision-form input[name=url]', 'https://decisions.example.com/cards');
    await page.click('#decision-form button');
    await page.locator('#decision-endpoints tr', { hasText: 'CARD_AUTHORIZATION.REQUEST' }).waitFor();
    expect((await api.get('/config')).body.decisionEndpoints).toEqual([
      {
        type: 'CARD_AUTHORIZATION.REQUEST',
        url: 'https://decisions.example.com/cards',
        deadlineMs: 2000,
        defaultDecision: 'DECLINE',
      },
    ]);
    await page.click('#decision-endpoints button[data-remove]');
    await page.locator('#decision-endpoints', { hasText: 'None.' }).waitFor();
    await shot('05a-endpoint');
  });

  it('shows the log head, projection lag and the platform’s queue depth', async () => {
    await page.locator('#log-head').waitFor();
    expect(Number(await page.textContent('#log-head'))).toBeGreaterThan(0);
    for (const queue of ['webhooks', 'timers', 'card-provisioning']) {
      await page.locator('#queue-depth tr', { hasText: queue }).waitFor();
    }
  });

  it('redelivers the failed webhook', async () => {
    await page.locator(`#webhooks-body tr[data-delivery="${failedDeliveryId}"] button`).click();
    await page.locator('#toast', { hasText: `Redelivery of ${failedDeliveryId}: PENDING` }).waitFor();
    const tests = (await api.get(`/webhooks/deliveries?type=TEST&limit=100`)).body.data;
    const webhookId = tests.find((d: any) => d.id === failedDeliveryId).webhookId;
    const answered = (r: ReceivedRequest[]) => r.some((x) => x.json?.id === webhookId && x.answered === 200);
    await receiver.waitFor(answered, 10_000, 'the redelivered TEST');
    await shot('05-redelivered');
  });

  it('draws volume per currency per day and webhook outcomes with Chart.js', async () => {
    await page.reload();
    await page.locator('#webhooks-body table').waitFor();
    const chart = (id: string) =>
      page.evaluate((canvas) => {
        const c = (window as any).Chart.getChart(canvas);
        if (!c) return null;
        return { labels: c.data.labels, series: c.data.datasets.map((d: any) => ({ label: d.label, data: d.data })) };
      }, id);
    const drawn = () =>
      ['volume-chart', 'webhook-chart', 'failure-chart', 'latency-chart'].every((id) =>
        (window as any).Chart?.getChart(id),
      );
    await page.waitForFunction(drawn);
    // The platform's one transaction: the 70.00 USD incoming payment (fundings and card purchases are not).
    const volume = await chart('volume-chart');
    expect(volume).toEqual({ labels: ['2026-03-16'], series: [{ label: 'USD', data: [70] }] });
    const outcomes = await chart('webhook-chart');
    expect(outcomes!.labels).toContain('DELIVERED');
    // No payment of the platform failed; latency is charted as p50 and p95.
    expect((await chart('failure-chart'))!.series).toEqual([{ label: 'failed %', data: [0] }]);
    expect((await chart('latency-chart'))!.series.map((s: any) => s.label)).toEqual(['p50 ms', 'p95 ms']);
    expect(await page.textContent('#charts-error')).toBe('');
    await page.locator('#charts').scrollIntoViewIfNeeded();
    await shot('06-charts');
  });

  it('moves the sandbox clock', async () => {
    expect(await page.textContent('#clock-offset')).toBe('0');
    await page.fill('#advance input[name=seconds]', '3600');
    await page.click('#advance button');
    await page.locator('#clock-offset', { hasText: String(HOUR) }).waitFor();
    expect((await api.get('/sandbox/clock')).body.offsetMs).toBe(HOUR);
    await shot('07-clock');
  });
});
