// The browser of the console's tests: Debian's Chromium driven by playwright-core (which downloads
// nothing), headless, with no network of its own. .ci/run installs it when it is missing; elsewhere a
// machine without it skips the suite with the reason printed (CI=true makes it required).

import fs from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** The flags of docs/console.md § Tests: no sandbox (CI runs as root), no GPU, nothing fetched by the browser itself. */
export const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** The `skip` option of the console's suites: false when Chromium is there (or CI requires it), else the reason. */
export const needsChromium: false | string = fs.existsSync(CHROMIUM) || process.env.CI === 'true'
  ? false
  : `${CHROMIUM} is missing: the console's browser tests are skipped (apt-get install chromium; CI installs it)`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
}

/** Every request a context's pages made, and their script errors and CSP refusals. */
export interface Watched {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly requests: string[];
  readonly errors: string[];
}

/**
 * A new context (its own sessionStorage: a new tab) whose requests outside `origin` are recorded and
 * refused, so the page works offline or the suite sees what it tried to fetch.
 */
export async function watchedPage(browser: Browser, origin: string, viewport = { width: 1280, height: 800 }, log?: { requests: string[]; errors: string[] }): Promise<Watched> {
  const context = await browser.newContext({ viewport, serviceWorkers: 'block' });
  const requests = log?.requests ?? [];
  const errors = log?.errors ?? [];
  await context.route('**/*', (route) => (new URL(route.request().url()).origin === origin ? route.continue() : route.abort('blockedbyclient')));
  context.on('request', (request) => requests.push(request.url()));
  const page = await context.newPage();
  page.on('pageerror', (err) => errors.push(err.message));
  // What the page's Content-Security-Policy refused shows on the console only.
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) errors.push(message.text());
  });
  page.setDefaultTimeout(20_000);
  return { context, page, requests, errors };
}
