import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, offlinePage } from '../support/browser.js';
import { startTestService, type TestService } from '../support/service.js';

const SCREENSHOTS = join(process.cwd(), 'test-output', 'docs');
const VERBS = ['get', 'post', 'put', 'patch', 'delete'];
/** How long a deep link may take from navigation until its operation is open and in view (best of three). */
const DEEP_LINK_BUDGET_MS = 3_000;

interface Operation {
  path: string;
  verb: string;
  tag: string;
  operationId: string;
  summary: string;
}

/** The reference page: a deep link opens its operation at once, and the search box finds operations. */
describe('API reference: deep links and search', () => {
  let t: TestService;
  let browser: Browser;
  let page: Page;
  let operations: Operation[];
  const errors: string[] = [];
  /**
   * Script and console errors, less the notice Swagger UI logs for every deep link whose operation id holds `_` (it
   * once stood for a space in tags; this document's ids are `Controller_method`).
   */
  const pageErrors = () => errors.filter((e) => !e.startsWith('Deprecated: escaping deep link whitespace'));

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    t = await startTestService();
    // The document is built once per process, on its first request (or the page's): built before the clock starts.
    const openapi = (await t.anonymous.get('/openapi.json')).body as {
      paths: Record<string, Record<string, { tags: string[]; operationId: string; summary?: string }>>;
    };
    operations = Object.entries(openapi.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([verb]) => VERBS.includes(verb))
        .map(([verb, op]) => ({ path, verb, tag: op.tags[0], operationId: op.operationId, summary: op.summary ?? '' })),
    );
    browser = await launchChromium();
    page = await offlinePage(browser, t.url, errors);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const blockId = (op: Operation) => `operations-${op.tag.replace(/\s/g, '_')}-${op.operationId}`;
  const shown = () =>
    page
      .locator('.opblock-tag-section .opblock')
      .evaluateAll((blocks) => blocks.map((b) => b.id))
      .then((ids) => ids.sort());

  it(`a deep link to the page's last operation opens it in view within ${DEEP_LINK_BUDGET_MS} ms`, async () => {
    const last = operations.filter((op) => op.tag === operations.at(-1)!.tag).at(-1)!;
    const id = blockId(last);
    /** One cold load of the deep link: navigation until the operation is open and in view. */
    const coldLoad = async () => {
      await page.goto('about:blank');
      const started = Date.now();
      await page.goto(`${t.url}/docs#/${encodeURIComponent(last.tag.replace(/\s/g, '_'))}/${last.operationId}`);
      await page.waitForFunction(
        (blockId) => {
          const block = document.getElementById(blockId);
          const box = block?.getBoundingClientRect();
          return !!block?.querySelector('.responses-table .response') && box!.bottom > 0 && box!.top < innerHeight;
        },
        id,
        { timeout: 30_000, polling: 20 },
      );
      return Date.now() - started;
    };
    // The best of up to three cold loads, so that one slow moment of a shared machine does not decide it.
    const loads = [await coldLoad()];
    while (loads.length < 3 && Math.min(...loads) >= DEEP_LINK_BUDGET_MS) loads.push(await coldLoad());
    const elapsed = Math.min(...loads);
    await page.screenshot({ path: join(SCREENSHOTS, 'deep-link.png') });
    expect(elapsed).toBeLessThan(DEEP_LINK_BUDGET_MS);
    // Its schemas are resolved: no reference is left for the reader to follow.
    expect(await page.locator(`[id="${id}"]`).innerText()).not.toContain('$ref');
    expect(pageErrors()).toEqual([]);
  }, 60_000);

  it('the search box finds operations by path, summary, tag or operation id, and says when none matches', async () => {
    await page.goto(`${t.url}/docs`);
    const search = page.locator('.operation-filter-input');
    await search.waitFor();
    expect(await search.getAttribute('placeholder')).toMatch(/^Search operations/);
    const matching = (...words: string[]) =>
      operations
        .filter((op) =>
          words.every((w) =>
            [op.tag, op.verb, op.path, op.summary, op.operationId].join(' ').toLowerCase().includes(w.toLowerCase()),
          ),
        )
        .map(blockId)
        .sort();
    const find = async (phrase: string, expected: string[]) => {
      await search.fill(phrase);
      await page.waitForFunction(
        (count) => document.querySelectorAll('.opblock-tag-section .opblock').length === count,
        expected.length,
      );
      expect({ phrase, shown: await shown() }).toEqual({ phrase, shown: expected });
    };
    // A word of a summary, in any case; a path with its parameter; an operation id; two words that must both match.
    const backtest = matching('backtest');
    expect(backtest.length).toBeGreaterThan(1);
    await find('BACKTEST', backtest);
    await page.screenshot({ path: join(SCREENSHOTS, 'search.png') });
    const withParameter = operations.find((op) => op.path.includes('{'))!;
    await find(withParameter.path, matching(withParameter.path));
    await find('Cards_backtest', matching('Cards_backtest'));
    await find('post customers', matching('post', 'customers'));
    expect(matching('post', 'customers').length).toBeGreaterThan(1);
    // A result opens like any operation.
    await find('Cards_backtest', matching('Cards_backtest'));
    const block = page.locator('.opblock-tag-section .opblock').first();
    await block.locator('.opblock-summary-control').click();
    await block.locator('.responses-table .response').first().waitFor();
    await find('no operation has this', []);
    // Cleared, the whole reference is back from its first tag (a list this long Swagger UI renders as it comes into
    // view, without the sections a search result has).
    await search.fill('');
    await page.evaluate(() => scrollTo(0, 0));
    await page.waitForFunction(
      () => document.querySelectorAll('.opblock-tag').length > 0 && document.querySelectorAll('.opblock').length >= 5,
    );
    expect(await page.evaluate(() => (globalThis as any).ui.layoutSelectors.currentFilter())).toBe('');
    expect(pageErrors()).toEqual([]);
  }, 120_000);
});
