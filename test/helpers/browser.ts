import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import type { Test } from 'tap';
import { inCI } from './redis.ts';
import { projectRoot } from './serverProcess.ts';

/** Where browser tests keep their screenshots (git-ignored, like everything under .data/). */
export const screenshotDir = join(projectRoot, '.data', 'screenshots');

/**
 * The Chromium binary: CHROMIUM_BIN, else Debian's `chromium` (what .ci/run installs) or another Chromium on PATH.
 * playwright-core drives it; it never downloads a browser of its own.
 */
export function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_BIN) return process.env.CHROMIUM_BIN;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome']) {
    const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
    if (found.status === 0 && found.stdout.trim() !== '') return found.stdout.trim();
  }
  return undefined;
}

/**
 * A headless Chromium, closed when `t` ends; undefined when none is installed (then `t` records a skip, or under
 * CI=true a failure: CI installs `chromium`, so a missing one is a broken CI, never a silent skip).
 */
export async function launchChromium(t: Pick<Test, 'fail' | 'skip' | 'teardown'>): Promise<Browser | undefined> {
  const executablePath = chromiumPath();
  if (!executablePath) {
    const reason = "no Chromium found (install Debian's chromium, or set CHROMIUM_BIN)";
    if (inCI) t.fail(`${reason}; CI=true requires it`);
    else t.skip(reason, () => undefined);
    return undefined;
  }
  // --no-sandbox: CI and these machines run as root, where Chromium's sandbox refuses to start.
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  t.teardown(() => browser.close());
  mkdirSync(screenshotDir, { recursive: true });
  return browser;
}

/** What a page did that a test asserts on: requests to other origins (aborted) and console errors. */
export interface PageWatch {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Every URL the page requested, in order. */
  readonly requested: string[];
  /** URLs outside `origin` the page tried to load; each was aborted. */
  readonly foreign: string[];
  /** console.error messages, uncaught exceptions and resource failures (CSP violations among them). */
  readonly errors: string[];
}

/** A fresh context and page whose requests outside `origin` are aborted and recorded, and whose errors are recorded. */
export async function watchedPage(browser: Browser, origin: string): Promise<PageWatch> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const requested: string[] = [];
  const foreign: string[] = [];
  const errors: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    requested.push(url);
    if (new URL(url).origin === origin) await route.continue();
    else {
      foreign.push(url);
      await route.abort('blockedbyclient');
    }
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return { page, context, requested, foreign, errors };
}
