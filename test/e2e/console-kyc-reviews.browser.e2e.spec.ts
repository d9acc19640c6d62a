import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CommandBus } from '@nestjs/cqrs';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { CreatePlatformCommand, type IssuedToken } from '#application/platforms/platform-commands.js';
import { launchChromium, offlinePage } from '../support/browser.js';
import { useTestService } from '../support/fixture.js';
import { basicAuth, client, type Client } from '../support/service.js';
import { upload } from './documents-support.js';
import { businessWithOwner, submit } from './kyc-review-support.js';

const SCREENSHOTS = join(process.cwd(), 'test-output', 'console');

/** A real PNG of `width` × `height` in one colour, so that the console's inline viewer shows a picture. */
function png(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

/** An operator works a production platform's KYC review queue in the console: one business approved, one rejected. */
describe('operations console: KYC reviews', () => {
  const t = useTestService();
  let prod: { token: IssuedToken; api: Client };
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const shot = (name: string) =>
    page.locator('#kyc-reviews').screenshot({ path: join(SCREENSHOTS, `console-kyc-${name}.png`) });

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const created: { platformId: string; token: IssuedToken } = await t.service.app
      .get(CommandBus)
      .execute(
        new CreatePlatformCommand({ name: 'Reviews', sandbox: false, umaDomain: 'reviews.example.com' }, 'test'),
      );
    await t.service.infra.projections.waitForPosition(await t.service.infra.eventStore.headPosition(), 5000);
    prod = { token: created.token, api: client(t.url, basicAuth(created.token.id, created.token.clientSecret)) };
    browser = await launchChromium();
    page = await offlinePage(browser, t.url, errors);
    await page.setViewportSize({ width: 1280, height: 800 });
  });
  afterAll(async () => {
    await browser?.close();
  });

  const signIn = async () => {
    await page.goto(`${t.url}/dashboard`);
    await page.fill('input[name=tokenId]', prod.token.id);
    await page.fill('input[name=secret]', prod.token.clientSecret);
    await page.click('#signin button');
    await page.locator('#console').waitFor({ state: 'visible' });
  };

  it('shows a business with its owner and documents, views a document and approves it', async () => {
    const { business, owner } = await businessWithOwner(prod.api, 'Acme Widgets Ltd');
    const scan = png(240, 150, [46, 125, 196]);
    const idCard = await upload(
      prod.api,
      { documentHolder: owner.id, documentType: 'NATIONAL_ID', country: 'GB' },
      { bytes: scan, name: 'national-id.png', type: 'image/png' },
    );
    expect(idCard.status).toBe(201);
    const review = await submit(prod.api, business.id);
    await signIn();
    const row = page.locator(`#kyc-reviews tr[data-review="${review.id}"]`);
    await row.click();
    const detail = page.locator('#review-detail');
    await detail.locator('h3', { hasText: 'Acme Widgets Ltd' }).waitFor();
    await detail.locator(`.review-owner[data-owner="${owner.id}"]`, { hasText: 'Lovelace' }).waitFor();
    expect(await detail.locator('tr[data-document]').count()).toBe(5);
    await detail.locator(`tr[data-document="${idCard.body.id}"] button[data-view]`).click();
    const image = page.locator('#review-viewer img');
    await image.waitFor();
    await page.waitForFunction(() => (document.querySelector('#review-viewer img') as HTMLImageElement)?.naturalWidth);
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240);
    expect(await page.locator('#review-open').getAttribute('target')).toBe('_blank');
    await shot('01-business');
    await page.fill('#review-decision input[name=reason]', 'registry and owner documents match');
    await page.click('#review-decision button[data-decide=approve]');
    await page.locator('#review-decided .status-APPROVED').waitFor();
    await shot('02-approved');
    expect((await prod.api.get(`/customers/${business.id}`)).body.kybStatus).toBe('APPROVED');
    expect(await page.locator(`#kyc-reviews tr[data-review="${review.id}"]`).count()).toBe(0);
  });

  it('rejects another business with its reason', async () => {
    const { business } = await businessWithOwner(prod.api, 'Shady Holdings Ltd');
    const review = await submit(prod.api, business.id);
    await page.click('#signout');
    await signIn();
    await page.locator(`#kyc-reviews tr[data-review="${review.id}"]`).click();
    await page.locator('#review-detail h3', { hasText: 'Shady Holdings Ltd' }).waitFor();
    // Rejecting without a reason is refused in the page; nothing is sent.
    await page.click('#review-decision button[data-decide=reject]');
    await page.locator('#toast', { hasText: 'A rejection needs a reason.' }).waitFor();
    const reason = 'registry excerpt names <b>another</b> company';
    await page.fill('#review-decision input[name=reason]', reason);
    await page.click('#review-decision button[data-decide=reject]');
    await page.locator('#review-decided .status-REJECTED').waitFor();
    expect(await page.locator('#review-decided').textContent()).toContain(reason);
    expect(await page.locator('#review-decided b').count()).toBe(0);
    await shot('03-rejected');
    const customer = (await prod.api.get(`/customers/${business.id}`)).body;
    expect(customer.kybStatus).toBe('REJECTED');
    const history = (await prod.api.get(`/audit/customers/${business.id}/history?limit=100`)).body.data;
    expect(history.find((e: any) => e.type === 'KycReviewDecided')).toMatchObject({
      actor: prod.token.id,
      changes: { decision: 'REJECTED', reason },
    });
    await page.locator('#no-reviews').waitFor();
    expect(errors).toEqual([]);
  });
});
