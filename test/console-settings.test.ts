/**
 * The console's settings page in real Chromium: an admin changes a runtime setting (its source
 * becomes `runtime`, recall's API sees it) and resets it, a bad value shows the API's error
 * inline, a read-only token sees values and sources but no controls, and axe-core finds no
 * serious violation at desktop and phone sizes.
 */
import { describe, expect, it } from 'vitest';

import {
  HAS_CHROMIUM,
  openPage,
  pageErrors,
  screenshot,
  seriousViolations,
  signIn,
  startConsole,
  useBrowser,
} from './console-helpers.js';
import { TOKEN_CONFIG, TOKENS } from './http-helpers.js';

const KEY = 'recall.weights.keyword';

describe.runIf(HAS_CHROMIUM)('console settings page', () => {
  const browser = useBrowser();

  it('changes a setting at run time, shows its source, resets it, and names a bad value', async () => {
    const svc = await startConsole({ server: { tokens: TOKEN_CONFIG } });
    const page = await openPage(browser());
    await signIn(page, svc.url, TOKENS.admin);
    await page.getByRole('link', { name: 'Settings' }).click();
    const row = page.locator(`li[data-key="${KEY}"]`);
    const badge = row.locator('.badge');
    const input = page.getByLabel(KEY, { exact: true });
    await input.waitFor();
    expect(await badge.textContent()).toContain('default');
    await screenshot(page, 'settings');
    expect(await seriousViolations(page)).toEqual([]);

    await input.fill('0.5');
    await row.getByRole('button', { name: `Save ${KEY}` }).click();
    await expect.poll(() => badge.textContent()).toContain('runtime');
    expect(await row.getByRole('status').textContent()).toBe('Saved.');
    const read = async () =>
      (
        await svc.request('GET', '/v1/spaces/default/settings', { token: TOKENS.admin })
      ).body.sections
        .flatMap((s: { settings: { key: string }[] }) => s.settings)
        .find((s: { key: string }) => s.key === KEY);
    expect(await read()).toMatchObject({ value: 0.5, source: 'runtime' });

    await input.fill('11');
    await row.getByRole('button', { name: `Save ${KEY}` }).click();
    await expect.poll(() => row.getByRole('alert').textContent()).toContain('at most 10');
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(await read()).toMatchObject({ value: 0.5 });

    await row.getByRole('button', { name: `Reset ${KEY}` }).click();
    await expect.poll(() => badge.textContent()).toContain('default');
    expect(await input.inputValue()).toBe('1');
    expect(await read()).toMatchObject({ value: 1, source: 'default' });

    const mode = page.getByLabel('dormant_recall.mode', { exact: true });
    await mode.selectOption('shadow');
    const dormant = page.locator('li[data-key="dormant_recall.mode"]');
    await dormant.getByRole('button', { name: 'Save dormant_recall.mode' }).click();
    await expect.poll(() => dormant.locator('.badge').textContent()).toContain('runtime');
    // The browser logs the refused sign-in check (401) and the refused value (400); nothing else.
    const unexpected = pageErrors(page).filter((e) => !/status of (400|401)/.test(e));
    expect(unexpected).toEqual([]);
  });

  it('shows a read-only token values and sources but no controls', async () => {
    const svc = await startConsole({ server: { tokens: TOKEN_CONFIG } });
    const page = await openPage(browser());
    await signIn(page, svc.url, TOKENS.readerA);
    await page.goto(`${svc.url}/settings`);
    const row = page.locator(`li[data-key="${KEY}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain('admin role can change it here');
    const settings = page.locator('.settings');
    expect(await settings.locator('input, select').count()).toBe(0);
    expect(await settings.getByRole('button').count()).toBe(0);
    await page.getByRole('region', { name: 'Server' }).locator('summary').click();
    const tokens = page.locator('li[data-key="server.tokens"]');
    expect(await tokens.textContent()).toContain('reader-a (read: team-a)');
    expect(await page.content()).not.toContain('sha256:');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('has no serious accessibility violations on a phone, in the dark theme', async () => {
    const svc = await startConsole();
    const page = await openPage(browser(), { viewport: 'phone', colorScheme: 'dark' });
    await page.goto(`${svc.url}/settings`);
    await page.getByLabel(KEY, { exact: true }).waitFor();
    for (const summary of await page.locator('.settings-more summary').all()) await summary.click();
    expect(await seriousViolations(page)).toEqual([]);
    const width = await page.evaluate('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(390);
    expect(pageErrors(page)).toEqual([]);
  });
});
