import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, watchedPage } from '../support/browser.js';
import { ManualClock } from '#domain/clock.js';
import { startTestService, type Client, type TestService } from '../support/service.js';
import { pointWebhooksAt, startWebhookReceiver, type ReceivedRequest } from '../support/webhook-receiver.js';
import type { WebhookReceiver } from '../support/webhook-receiver.js';

const SCREENSHOTS = join(process.cwd(), 'test-output', 'kyc');
const HOUR = 3_600_000;

describe('hosted KYC link, completed through the page in a browser', () => {
  const clock = new ManualClock(Date.UTC(2026, 2, 16, 8));
  let t: TestService;
  let api: Client;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  const customer = async (fullName: string, extra: Record<string, unknown> = {}) => {
    const created = await api.post('/customers', {
      customerType: 'INDIVIDUAL',
      platformCustomerId: `kyc-${fullName.replace(/\W/g, '')}`,
      fullName,
      ...extra,
    });
    expect(created.status).toBe(201);
    return created.body as { id: string; kycStatus: string };
  };
  const link = async (customerId: string, body: object = {}, key?: string) =>
    api.request('POST', `/customers/${customerId}/kyc-link`, body, key ? { 'idempotency-key': key } : {});
  /** The page's path under the test service (the link's origin is the one the request came to). */
  const pathOf = (kycUrl: string) => new URL(kycUrl).pathname.replace(/^\/2025-10-13/, '');
  const kycHooks = (customerId: string) => (requests: ReceivedRequest[]) =>
    requests.filter((r) => r.json?.type.startsWith('CUSTOMER.KYC_') && r.json.data.id === customerId);

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    t = await startTestService({ clock });
    api = t.api;
    receiver = await startWebhookReceiver();
    await pointWebhooksAt(api, receiver);
    browser = await launchChromium();
    page = await watchedPage(browser, errors, { width: 900 });
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
  });

  it('a pending customer fills in what is missing on the page and is approved, with its webhook', async () => {
    const c = await customer('Ada Lovelace001');
    expect(c.kycStatus).toBe('PENDING');
    const created = await link(c.id, { redirectUri: 'https://app.example.com/onboarding/done' }, 'kyc-link-1');
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      provider: 'HOSTED',
      expiresAt: new Date(clock.now().getTime() + 24 * HOUR).toISOString(),
    });
    expect(created.body.kycUrl).toMatch(new RegExp(`^${t.url}/kyc/kyc_[0-9a-f-]{36}_[A-Za-z0-9_-]{43}$`));
    // The same Idempotency-Key answers the same link; another call issues another.
    expect((await link(c.id, { redirectUri: 'https://app.example.com/onboarding/done' }, 'kyc-link-1')).body).toEqual(
      created.body,
    );
    expect((await link(c.id)).body.kycUrl).not.toBe(created.body.kycUrl);

    await page.goto(created.body.kycUrl);
    await page.locator('#kyc-form').waitFor();
    const asked = await page.locator('#fields input').evaluateAll((inputs) => inputs.map((i: any) => i.name));
    expect(asked).toEqual([
      'fullName',
      'birthDate',
      'address.line1',
      'address.city',
      'address.postalCode',
      'address.country',
    ]);
    await page.screenshot({ path: join(SCREENSHOTS, '01-form.png') });
    await page.fill('input[name=fullName]', 'Ada Lovelace');
    await page.fill('input[name=birthDate]', '1815-12-10');
    await page.fill('input[name="address.line1"]', '12 St James Square');
    await page.fill('input[name="address.city"]', 'London');
    await page.fill('input[name="address.postalCode"]', 'SW1Y 4JH');
    await page.fill('input[name="address.country"]', 'GB');
    // An identity document added on the page goes to the customer's documents.
    await page.selectOption('select[name=documentType]', 'PASSPORT');
    await page.fill('input[name=documentCountry]', 'gb');
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    await page.setInputFiles('input[name=documentFile]', {
      name: 'passport.pdf',
      mimeType: 'application/pdf',
      buffer: pdf,
    });
    await page.click('#kyc-form button');
    await page.locator('#message.done', { hasText: 'approved' }).waitFor();
    expect(await page.locator('#message a').getAttribute('href')).toBe('https://app.example.com/onboarding/done');
    await page.screenshot({ path: join(SCREENSHOTS, '02-approved.png') });

    const after = (await api.get(`/customers/${c.id}`)).body;
    expect(after).toMatchObject({ kycStatus: 'APPROVED', fullName: 'Ada Lovelace', birthDate: '1815-12-10' });
    expect(after.address).toMatchObject({ city: 'London', country: 'GB' });
    const documents = (await api.get(`/documents?documentHolder=${encodeURIComponent(c.id)}`)).body;
    expect(documents.data).toEqual([
      expect.objectContaining({
        documentType: 'PASSPORT',
        country: 'GB',
        fileName: 'passport.pdf',
        fileSize: pdf.length,
      }),
    ]);
    const verifications = (await api.get(`/verifications?customerId=${encodeURIComponent(c.id)}`)).body;
    expect(verifications.data[0]).toMatchObject({ verificationStatus: 'APPROVED' });
    await receiver.waitFor((r) => kycHooks(c.id)(r).length >= 1, 10_000, 'CUSTOMER.KYC_APPROVED');
    expect(kycHooks(c.id)(receiver.requests).map((h) => h.json!.type)).toEqual(['CUSTOMER.KYC_APPROVED']);

    // Single-use: the page says so, and a second submission changes nothing.
    await page.goto(created.body.kycUrl);
    await page.locator('#message.done', { hasText: 'already submitted' }).waitFor();
    const again = await t.anonymous.post(pathOf(created.body.kycUrl), { fullName: 'Someone Else002' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('KYC_LINK_USED');
    const late = new FormData();
    late.append('documentType', 'PASSPORT');
    late.append('country', 'GB');
    late.append('file', new Blob([pdf], { type: 'application/pdf' }), 'late.pdf');
    const lateDocument = await t.anonymous.post(`${pathOf(created.body.kycUrl)}/documents`, late);
    expect({ status: lateDocument.status, code: lateDocument.body.code }).toEqual({
      status: 409,
      code: 'KYC_LINK_USED',
    });
    expect((await api.get(`/customers/${c.id}`)).body.fullName).toBe('Ada Lovelace');
    expect(errors).toEqual([]);
  });

  it('in the sandbox a last name ending in 002 is rejected through the link', async () => {
    const c = await customer('Grace Hopper001', {
      birthDate: '1906-12-09',
      address: { line1: '1 Navy Way', city: 'Arlington', postalCode: '22202', country: 'US' },
    });
    const { kycUrl } = (await link(c.id)).body;
    const state = await t.anonymous.get(`${pathOf(kycUrl)}/state`);
    expect(state.body).toMatchObject({ customerType: 'INDIVIDUAL', linkStatus: 'ACTIVE', kycStatus: 'PENDING' });
    expect(state.body.missing).toEqual([]);
    expect(JSON.stringify(state.body)).not.toContain('Hopper');
    const submitted = await t.anonymous.post(pathOf(kycUrl), { fullName: 'Grace Hopper002' });
    expect(submitted.status).toBe(200);
    expect(submitted.body).toEqual({ kycStatus: 'REJECTED' });
    await receiver.waitFor((r) => kycHooks(c.id)(r).length >= 1, 10_000, 'CUSTOMER.KYC_REJECTED');
  });

  it('a link expires after a day on the platform clock; bad input changes nothing', async () => {
    const c = await customer('Alan Turing001');
    const { kycUrl } = (await link(c.id)).body;
    const invalid = await t.anonymous.post(pathOf(kycUrl), { birthDate: '10/12/1815', address: 'nowhere' });
    expect(invalid.status).toBe(400);
    expect((await t.anonymous.get(`${pathOf(kycUrl)}/state`)).body.linkStatus).toBe('ACTIVE');
    expect((await api.post('/sandbox/clock/advance', { seconds: 24 * 3600 })).status).toBe(200);
    await page.goto(kycUrl);
    await page.locator('#message.error', { hasText: 'expired' }).waitFor();
    const late = await t.anonymous.post(pathOf(kycUrl), { fullName: 'Alan Turing' });
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('KYC_LINK_EXPIRED');
    expect((await api.get(`/customers/${c.id}`)).body).toMatchObject({
      fullName: 'Alan Turing001',
      kycStatus: 'PENDING',
    });
    expect(errors).toEqual([]);
  });

  it('links are per platform; a forged or unknown token is 404', async () => {
    const c = await customer('Katherine Johnson');
    const other = await t.otherPlatform();
    const foreign = await other.api.post(`/customers/${c.id}/kyc-link`, {});
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('CUSTOMER_NOT_FOUND');
    const { kycUrl } = (await link(c.id)).body;
    const forged = pathOf(kycUrl).replace(/.{4}$/, 'AAAA');
    for (const path of [forged, '/kyc/kyc_not-a-token', `/kyc/${'x'.repeat(300)}`]) {
      const reply = await t.anonymous.get(`${path}/state`);
      expect({ path, status: reply.status, code: reply.body.code }).toEqual({
        path,
        status: 404,
        code: 'KYC_LINK_NOT_FOUND',
      });
    }
    expect((await t.anonymous.post(forged, { fullName: 'X' })).status).toBe(404);
    const badRedirect = await link(c.id, { redirectUri: 'javascript:alert(1)' });
    expect(badRedirect.status).toBe(400);
  });
});
