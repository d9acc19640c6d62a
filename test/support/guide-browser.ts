import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './browser.js';

/**
 * Where a guide's `js browser` blocks run: a Chromium page at `http://localhost:3000` (the service's default
 * WebAuthn origin, relying party `localhost`; the page is served by the test, so nothing listens there), with
 * `@simplewebauthn/browser` loaded and a virtual platform authenticator (user verification on) attached over the
 * DevTools protocol, as a laptop's built-in passkey would be. A block reads what the page got from its backend in
 * `guide` (the guide's variables) and hands back what it sets there (strings). One page per guide: its passkeys
 * stay between the guide's blocks.
 */
export const GUIDE_PAGE_ORIGIN = 'http://localhost:3000';
const PACKAGES: Record<string, string> = { '@simplewebauthn/browser': 'SimpleWebAuthnBrowser' };
const IMPORT = /^import\s*\{([^}]*)\}\s*from\s*'([^']+)';?\s*$/;

/** The block's code with its imports of browser packages turned into reads of the packages' globals. */
export function browserScript(code: string): string {
  return code
    .split('\n')
    .map((line) => {
      const match = IMPORT.exec(line);
      if (!match) {
        if (/^import\s/.test(line)) throw new Error(`a browser block imports only ${Object.keys(PACKAGES)}: ${line}`);
        return line;
      }
      const global = PACKAGES[match[2]];
      if (!global) throw new Error(`a browser block imports only ${Object.keys(PACKAGES)}: ${line}`);
      const names = match[1].replace(/\s+as\s+/g, ': ');
      return `const {${names}} = globalThis.${global};`;
    })
    .join('\n');
}

export class GuideBrowser {
  private browser?: Browser;
  private page?: Page;

  /** Runs `code` in the guide's page with `variables` in `guide`; answers the variables it set or changed. */
  async run(code: string, variables: Record<string, string>): Promise<Record<string, string>> {
    const page = await this.open();
    const script = browserScript(code);
    const after = await page.evaluate(
      async ({ script, variables }) => {
        const guide: Record<string, unknown> = { ...variables };
        const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
          ...args: string[]
        ) => (guide: Record<string, unknown>) => Promise<void>;
        await new AsyncFunction('guide', script)(guide);
        return Object.fromEntries(Object.entries(guide).map(([name, value]) => [name, String(value)]));
      },
      { script, variables },
    );
    return Object.fromEntries(Object.entries(after).filter(([name, value]) => variables[name] !== value));
  }

  async close(): Promise<void> {
    await this.browser?.close();
  }

  private async open(): Promise<Page> {
    if (this.page) return this.page;
    this.browser = await launchChromium();
    const page = await this.browser.newPage();
    await page.route(`${GUIDE_PAGE_ORIGIN}/**`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>guide</title>' }),
    );
    await page.goto(`${GUIDE_PAGE_ORIGIN}/`);
    // The package's own browser bundle (its `exports` name only the module entries, beside which it lies).
    const entry = createRequire(import.meta.url).resolve('@simplewebauthn/browser');
    await page.addScriptTag({ path: join(dirname(entry), '..', 'dist', 'bundle', 'index.umd.min.js') });
    const devtools = await page.context().newCDPSession(page);
    await devtools.send('WebAuthn.enable');
    await devtools.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    this.page = page;
    return page;
  }
}
