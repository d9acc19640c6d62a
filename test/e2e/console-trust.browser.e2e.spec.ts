import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ManualClock } from '#domain/clock.js';
import { launchChromium, offlinePage } from '../support/browser.js';
import { cardholder, type Cardholder } from '../support/card-fixture.js';
import { poll } from '../support/poll.js';
import { pendingIncoming } from '../support/sandbox-payments.js';
import { startTestService, type TestService } from '../support/service.js';
import { pointWebhooksAt, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { agents, policy } from './agents-support.js';

const SCREENSHOTS = join(process.cwd(), 'test-output', 'console');
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
];

/**
 * What an operator reads in the console can be trusted: at both screen sizes no table is wider than its panel, and
 * every amount is shown in its currency's decimals and symbol, never in minor units.
 */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const name = (e: Element) => e.closest('[id]')?.id ?? e.tagName;
    for (const table of document.querySelectorAll('table')) {
      const section = table.closest('section');
      if (!section || table.offsetParent === null) continue;
      const style = getComputedStyle(section);
      const inner =
        section.getBoundingClientRect().right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
      const right = table.getBoundingClientRect().right;
      if (right > inner + 1) problems.push(`a table in #${name(table)} ends at ${right}, its panel at ${inner}`);
      if (table.scrollWidth > table.clientWidth + 1) problems.push(`a table in #${name(table)} scrolls`);
      if (section.scrollWidth > section.clientWidth + 1) problems.push(`#${section.id} scrolls sideways`);
    }
    const formatted = /^-?[^\d\s-]*\d{1,3}(,\d{3})*(\.\d+)? [A-Z]{3,4}$/;
    for (const cell of document.querySelectorAll('.money, td.num, span.num')) {
      const text = (cell.textContent ?? '').trim();
      if (text !== '' && !formatted.test(text)) problems.push(`#${name(cell)} shows the amount "${text}"`);
    }
    const raw = /(^|\s)-?\d+ [A-Z]{3}\b/.exec(document.body.innerText);
    if (raw) problems.push(`an amount in minor units: "${raw[0].trim()}"`);
    return problems;
  });
}

describe('operations console: amounts, approvals, deliveries and declines an operator can trust', () => {
  const clock = new ManualClock(Date.UTC(2026, 2, 18, 9));
  let t: TestService;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let page: Page;
  let holder: Cardholder;
  let completedId: string;
  let payoutId: string;
  const actions: { id: string; customerId: string }[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    t = await startTestService({ clock });
    // The receiver turns away the agent approval webhooks with 503 (they stay PENDING, retried later), and lets
    // incoming payments wait for an approval (202).
    receiver = await startWebhookReceiver();
    let refuseTests = true;
    receiver.replyWith((r) =>
      r.json?.type === 'AGENT_ACTION.PENDING_APPROVAL' || (refuseTests && r.json?.type === 'TEST')
        ? { status: 503 }
        : String(r.json?.type).startsWith('INCOMING_PAYMENT')
          ? { status: 202 }
          : undefined,
    );
    await pointWebhooksAt(t.api, receiver);
    holder = await cardholder(t, t.api, clock, 'trust-holder');
    const declined = await t.api.post(`/sandbox/cards/${holder.cardId}/simulate/authorization`, {
      amount: 50_000,
      currency: { code: 'USD' },
      merchant: { descriptor: 'AMAZON RETAIL US-002', mcc: '5942', country: 'US' },
    });
    expect(declined.body.code).toBe('INSUFFICIENT_FUNDS');
    completedId = (await pendingIncoming(t.api, holder.customerId, 7_000)).id;
    expect((await t.api.post(`/transactions/${completedId}/approve`)).status).toBe(200);
    // Test sends: more deliveries than the panel's first page, the first refused (FAILED, not retried).
    expect((await t.api.post('/sandbox/webhooks/test')).body.details.response_status).toBe(503);
    refuseTests = false;
    for (let i = 0; i < 8; i++) expect((await t.api.post('/sandbox/webhooks/test')).status).toBe(200);
    // Two agents whose transfers wait: one by its policy's default mode, one above its approval threshold. The clock
    // moves a second before and after them: the deliveries panel lists the newest first, and deliveries made at one
    // time are listed in the order of their random ids, so their approval webhooks are newer than the test sends and
    // older than what follows, which keeps them on the panel's first page.
    clock.advance(1_000);
    const a = agents(t);
    const byMode = await a.connected(policy({ defaultExecutionMode: 'APPROVAL_REQUIRED' }));
    const byThreshold = await a.connected(policy({ approvalThresholds: { currency: 'USD', amount: 1_000 } }));
    for (const [agent, amount] of [
      [byMode, 1_250],
      [byThreshold, 2_575],
    ] as const) {
      const pending = await a.transferOut(agent, amount);
      expect(pending.body.status).toBe('PENDING_APPROVAL');
      actions.push({ id: pending.body.id, customerId: agent.customer.id });
    }
    await poll(
      async () => (await t.api.get('/webhooks/deliveries?type=AGENT_ACTION.PENDING_APPROVAL')).body.data,
      (ds: any[]) => ds.length === 2 && ds.every((d) => d.lastStatusCode === 503),
      { what: 'both approval webhooks answered 503', timeoutMs: 10_000 },
    );
    clock.advance(1_000);
    // A payout to the holder's bank account with a quote: 12.50 USD and its fee.
    const bank = await a.m.external(holder.customerId, 'USD', '777');
    const quote = await t.api.post('/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: holder.usd },
      destination: { destinationType: 'ACCOUNT', accountId: bank },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_250,
    });
    expect(quote.status).toBe(201);
    payoutId = (await t.api.post(`/quotes/${quote.body.id}/execute`)).body.transactionId;
    await pendingIncoming(t.api, holder.customerId, 12_345);
    browser = await launchChromium();
    page = await offlinePage(browser, t.url, errors);
    await page.goto(`${t.url}/dashboard`);
    await page.fill('input[name=tokenId]', t.service.sandbox!.tokenId);
    await page.fill('input[name=secret]', t.service.sandbox!.clientSecret);
    await page.click('#signin button');
    await page.locator('#console').waitFor({ state: 'visible' });
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
  });

  const check = async (what: string, size: { width: number; height: number }, selector: string) => {
    expect({ what, problems: await layoutProblems(page) }).toEqual({ what, problems: [] });
    await page
      .locator(selector)
      .screenshot({ path: join(SCREENSHOTS, `trust-${what}-${size.width}x${size.height}.png`) });
  };
  const search = async (term: string) => {
    await page.fill('#search input', term);
    await page.click('#search button');
  };

  it.each(VIEWPORTS)('pending approvals say what is approved and why, at %o', async (size) => {
    await page.setViewportSize(size);
    const [byMode, byThreshold] = actions.map((x) => page.locator(`#approvals-body tr[data-action="${x.id}"]`));
    await byMode
      .locator('[data-rule=defaultExecutionMode]', { hasText: 'default mode is APPROVAL_REQUIRED' })
      .waitFor();
    expect(await byMode.locator('.money').first().textContent()).toBe('$12.50 USD');
    expect(await byMode.textContent()).toContain('TRANSFER_OUT');
    await byMode.locator(`code[title="${actions[0].customerId}"]`).waitFor();
    expect(await byMode.textContent()).toContain('agent assistant');
    expect(await byThreshold.locator('[data-rule="approvalThresholds.amount"]').textContent()).toBe(
      'above the approval threshold of $10.00 USD',
    );
    expect(await byThreshold.locator('.money').first().textContent()).toBe('$25.75 USD');
    await page.locator('#approvals-body tr[data-payment] .money', { hasText: '$123.45 USD' }).waitFor();
    await check('approvals', size, '#approvals');
  });

  it.each(VIEWPORTS)('webhook deliveries page, fit their panel and read as words, at %o', async (size) => {
    await page.setViewportSize(size);
    await page.reload();
    const rows = page.locator('#webhooks-body tr[data-delivery]');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(20);
    await page.locator('#webhooks-body tr', { hasText: 'delivered after 1 attempt' }).first().waitFor();
    const retrying = page.locator('#webhooks-body tr', { hasText: 'AGENT_ACTION.PENDING_APPROVAL' }).first();
    expect(await retrying.locator('.attempts').textContent()).toMatch(
      /^failed: 503, retrying at \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ \(1 attempt so far\)$/,
    );
    await page.click('#deliveries-more');
    await poll(
      () => rows.count(),
      (n) => n > 20,
    );
    const failed = page.locator('#webhooks-body tr', { hasText: 'failed: 503, not retried (1 attempt)' });
    await failed.locator('button', { hasText: 'Redeliver' }).waitFor();
    await check('webhooks', size, '#webhooks');
  });

  it.each(VIEWPORTS)('a card shows its declined authorization’s reason and who decided, at %o', async (size) => {
    await page.setViewportSize(size);
    await search(holder.cardId);
    const declined = page.locator('#authorizations tr', { hasText: 'AMAZON RETAIL US-002' });
    await declined.locator('.decline-reason', { hasText: 'INSUFFICIENT_FUNDS insufficient funds' }).waitFor();
    expect(await declined.textContent()).toContain('RULES ·');
    expect(await declined.locator('.money').first().textContent()).toBe('$500.00 USD');
    await check('card', size, '#detail');
  });

  it.each(VIEWPORTS)('a transaction shows its fees and ledger legs in its currency, at %o', async (size) => {
    await page.setViewportSize(size);
    await search(completedId);
    await page.locator('#ledger-legs td.num', { hasText: '$70.00 USD' }).first().waitFor();
    expect(await page.textContent('#tx-fees')).toBe('$0.00 USD');
    expect(await layoutProblems(page)).toEqual([]);
    await search(payoutId);
    await page.locator('#tx-fees', { hasText: '$0.50 USD' }).waitFor();
    await page.locator('#ledger-legs td.num', { hasText: '$12.50 USD' }).first().waitFor();
    await check('transaction', size, '#detail');
    expect(errors).toEqual([]);
  });

  it('the layout check itself sees a table wider than its panel and an amount in minor units', async () => {
    await page.evaluate(() => {
      const probe = document.createElement('div');
      probe.id = 'probe';
      probe.innerHTML =
        '<table><tr><td style="white-space:nowrap">' +
        'x'.repeat(400) +
        '</td><td class="num">7000 USD</td></tr></table>';
      document.getElementById('webhooks-body')!.append(probe);
    });
    const problems = await layoutProblems(page);
    await page.evaluate(() => document.getElementById('probe')!.remove());
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^a table in #probe ends at/),
        '#webhooks scrolls sideways',
        '#probe shows the amount "7000 USD"',
        'an amount in minor units: "7000 USD"',
      ]),
    );
  });
});
