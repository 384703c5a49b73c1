/**
 * Helpers of the web console's end-to-end tests: a real engram service (HTTP socket on 127.0.0.1,
 * the console built into dist/web by the global setup) and a real headless Chromium (Debian's
 * `chromium`, driven by playwright-core; never a downloaded browser), an accessibility check with
 * axe-core, and screenshots for docs/console.md.
 * See chromium.ts for where the browser comes from.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';

import type { ConfigInput } from '../src/config/schema.js';
import { CHROMIUM } from './chromium.js';
import { startTestService, type TestService } from './http-helpers.js';

export { HAS_CHROMIUM } from './chromium.js';

let browser: Browser | undefined;
const contexts: BrowserContext[] = [];

/** Launches one browser for the file; closes pages after each test and the browser after all. */
export function useBrowser(): () => Browser {
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
  });
  afterEach(async () => {
    while (contexts.length) await contexts.pop()!.close();
  });
  afterAll(async () => {
    await browser?.close();
    browser = undefined;
  });
  return () => {
    if (!browser) throw new Error('the browser is not running');
    return browser;
  };
}

/** Options of a console page. */
export interface PageOptions {
  /** Viewport: desktop 1280x800 (default) or phone 390x844. */
  viewport?: 'desktop' | 'phone';
  colorScheme?: 'light' | 'dark';
}

/** A new page in a fresh context (its own session storage), failing the test on a page error. */
export async function openPage(b: Browser, options: PageOptions = {}): Promise<Page> {
  const size =
    options.viewport === 'phone' ? { width: 390, height: 844 } : { width: 1280, height: 800 };
  const context = await b.newContext({
    viewport: size,
    colorScheme: options.colorScheme ?? 'light',
  });
  contexts.push(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  (page as Page & { errors: string[] }).errors = errors;
  return page;
}

/** Console errors and uncaught page errors seen so far on a page opened by openPage. */
export function pageErrors(page: Page): string[] {
  return (page as Page & { errors?: string[] }).errors ?? [];
}

/** A running engram service with the console, on a fresh store. */
export async function startConsole(extra: ConfigInput = {}): Promise<TestService> {
  return startTestService(extra);
}

/** Signs in with a token on the sign-in form (for servers with tokens). */
export async function signIn(page: Page, url: string, token: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Pages' }).waitFor();
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** One accessibility violation axe-core found. */
export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** Runs axe-core (WCAG 2 A and AA rules) on the page; returns serious and critical violations. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async () => {
    type Found = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };
    const axe = (
      globalThis as unknown as { axe: { run(o: object): Promise<{ violations: Found[] }> } }
    ).axe;
    const result = await axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

const SHOTS = join(import.meta.dirname, '..', 'docs', 'console');

/** Saves a screenshot for docs/console.md (docs/console/<name>.png) when ENGRAM_SCREENSHOTS=1. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.ENGRAM_SCREENSHOTS !== '1') return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: false });
}
