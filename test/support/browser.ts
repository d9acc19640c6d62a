import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium (installed by .ci/run with apt-get); the tests never download a browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** Launches Debian's Chromium headless with the flags every browser test uses. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium); .ci/run does this`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

/** A new page of `browser` (`width` by 900) whose script errors and console errors are added to `errors`. */
export async function watchedPage(
  browser: Browser,
  errors: string[],
  { width = 1280, timeoutMs = 10_000 }: { width?: number; timeoutMs?: number } = {},
): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  page.setDefaultTimeout(timeoutMs);
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => (m.type() === 'error' ? errors.push(m.text()) : undefined));
  return page;
}

/**
 * A watched page (`watchedPage`) that must work offline: any request leaving `url`'s origin is aborted, and so fails.
 */
export async function offlinePage(browser: Browser, url: string, errors: string[]): Promise<Page> {
  const page = await watchedPage(browser, errors);
  const origin = new URL(url).origin;
  await page.route('**/*', (route) => (route.request().url().startsWith(origin) ? route.continue() : route.abort()));
  return page;
}
