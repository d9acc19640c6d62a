import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { GUIDES } from '../../apps/api/src/docs/docs-site.js';
import { launchChromium, watchedPage } from '../support/browser.js';
import { startTestService, type TestService } from '../support/service.js';

const SCREENSHOTS = join(process.cwd(), 'test-output', 'docs');
const VERBS = ['get', 'post', 'put', 'patch', 'delete'];

describe('API reference and guides in a browser', () => {
  let t: TestService;
  let browser: Browser;
  let page: Page;
  let openapi: {
    paths: Record<string, Record<string, { summary?: string }>>;
    webhooks: Record<string, object>;
    components: { schemas: object };
  };
  const errors: string[] = [];
  const outside: string[] = [];

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    t = await startTestService();
    openapi = (await t.anonymous.get('/openapi.json')).body;
    browser = await launchChromium();
    page = await watchedPage(browser, errors, { timeoutMs: 15_000 });
    // Everything comes from the service itself: a request anywhere else is recorded and refused.
    const origin = new URL(t.url).origin;
    await page.route('**/*', (route) => {
      if (route.request().url().startsWith(origin)) return route.continue();
      outside.push(route.request().url());
      return route.abort();
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders every operation of the document, each with its request and response schemas', async () => {
    await page.goto(`${t.url}/docs`);
    await page.locator('.opblock').first().waitFor();
    const operations = Object.entries(openapi.paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((verb) => VERBS.includes(verb))
        .map((verb) => ({ path, verb })),
    );
    // The webhooks section is rendered after the paths, one block per webhook family.
    const webhooks = Object.keys(openapi.webhooks).map((name) => ({ path: name, verb: 'post' }));
    expect(webhooks.length).toBeGreaterThan(5);
    operations.push(...webhooks);
    // With 150 rows or more Swagger UI renders only the part of the page in view; one tag at a time stays below
    // that: every tag is collapsed, then each is opened in turn, its blocks read and its first operation opened
    // (parameters, body and responses render, no reference left raw).
    const tags: string[] = await page.evaluate(() =>
      (globalThis as any).ui.specSelectors.taggedOperations().keySeq().toArray(),
    );
    const show = (tag: string, shown: boolean) =>
      page.evaluate(([t, on]) => (globalThis as any).ui.layoutActions.show(['operations-tag', t], on), [
        tag,
        shown,
      ] as const);
    for (const tag of tags) await show(tag, false);
    const read = (blocks: ReturnType<Page['locator']>) =>
      blocks.evaluateAll((all) =>
        all.map((b: any) => {
          const path = b.querySelector('.opblock-summary-path')?.textContent?.replace(/\u200b/g, '');
          return `${b.querySelector('.opblock-summary-method')?.textContent?.toLowerCase()} ${path}`;
        }),
      );
    // With every tag closed, what is left in view is the webhooks section.
    await page.locator('.opblock').first().waitFor();
    const listed = new Set<string>(await read(page.locator('.opblock')));
    for (const tag of tags) {
      await show(tag, true);
      const section = page.locator('.opblock-tag-section', { has: page.locator(`h3[data-tag="${tag}"]`) });
      const block = section.locator('.opblock').first();
      await block.waitFor();
      const blocks = await read(section.locator('.opblock'));
      for (const listedBlock of blocks) listed.add(listedBlock);
      await block.locator('.opblock-summary-control').click();
      await block.locator('.responses-table .response').first().waitFor();
      expect({ tag, raw: (await block.innerText()).includes('$ref') }).toEqual({ tag, raw: false });
      await block.locator('.opblock-summary-control').click();
      await show(tag, false);
    }
    expect([...listed].sort()).toEqual(operations.map((o) => `${o.verb} ${o.path}`).sort());
    expect(tags.length).toBeGreaterThan(10);
    await show('Customers', true);
    const create = page.locator('.opblock-post', {
      has: page.locator('.opblock-summary-path', { hasText: /^\/customers$/ }),
    });
    await create.locator('.opblock-summary-control').click();
    await create.locator('.opblock-section-request-body').getByRole('tab', { name: 'Schema' }).click();
    await create.locator('.opblock-section-request-body .model-box').first().waitFor();
    expect(await create.locator('.opblock-section-request-body').innerText()).toContain('customerType');
    await create.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'create-customer.png') });
    await page.locator('.models').scrollIntoViewIfNeeded();
    // The Schemas section opens (Swagger UI renders the schemas in view, so only the first few are counted).
    await page.locator('.models-control').click();
    await page.locator('.models .models-virtual-item').first().waitFor();
    expect(await page.locator('.models .models-virtual-item').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'reference.png') });
    expect({ errors, outside }).toEqual({ errors: [], outside: [] });
  }, 120_000);

  it('serves every guide with the navigation, and a missing guide answers 404 JSON', async () => {
    await page.goto(`${t.url}/docs`);
    const links = await page.locator('header.site nav a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    // the API reference, then every guide
    expect(links).toHaveLength(GUIDES.length + 1);
    for (const href of links.slice(1)) {
      await page.goto(new URL(href!, t.url).toString());
      await page.locator('main.guide h1').waitFor();
      expect(await page.locator('header.site nav a[aria-current=page]').getAttribute('href')).toBe(href);
      expect(await page.locator('main.guide pre').count()).toBeGreaterThan(0);
    }
    await page.goto(`${t.url}/docs/guides/wallet-sessions`);
    expect(await page.locator('main.guide').innerText()).toContain('decryptCredentialBundle');
    await page.screenshot({ path: join(SCREENSHOTS, 'guide-wallet-sessions.png'), fullPage: true });
    const missing = await t.anonymous.get('/docs/guides/nope');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'GUIDE_NOT_FOUND' });
    expect((await t.anonymous.get('/docs/assets/..%2Fpackage.json')).status).toBe(404);
    expect({ errors, outside }).toEqual({ errors: [], outside: [] });
  });
});
