/**
 * The web console end to end in real Chromium: served at `/` by engram serve with every asset from
 * engram itself, sign-in with a token kept in session storage (never the URL), a token of one space
 * never seeing another, search with per-channel ranks opening a memory, and no serious
 * accessibility violation on the search page at desktop and phone sizes.
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

describe.runIf(HAS_CHROMIUM)('web console', () => {
  const browser = useBrowser();

  it('serves the console at / with only same-origin assets, and keeps the API under /v1', async () => {
    const svc = await startConsole();
    const root = await svc.request('GET', '/');
    expect(root.status).toBe(200);
    expect(root.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(root.text).toContain('<div id="app">');
    const deep = await svc.request('GET', '/memories/some-id');
    expect(deep.status).toBe(200);
    expect((await svc.request('GET', '/assets/missing.js')).status).toBe(404);
    expect((await svc.request('GET', '/v1/nope')).body.error.code).toBe('NOT_FOUND');
    const page = await openPage(browser());
    const origins = new Set<string>();
    page.on('request', (r) => origins.add(new URL(r.url()).origin));
    await page.goto(svc.url);
    await page.getByRole('searchbox', { name: 'Query' }).waitFor();
    expect([...origins]).toEqual([svc.url]);
    expect(pageErrors(page)).toEqual([]);
  });

  it('signs in with a token kept in session storage, and refuses a wrong one', async () => {
    const svc = await startConsole({ server: { tokens: TOKEN_CONFIG } });
    const page = await openPage(browser());
    await page.goto(svc.url);
    await page.getByLabel('API token').fill('not-a-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('That token was not accepted');
    await signIn(page, svc.url, TOKENS.writerA);
    expect(page.url()).not.toContain(TOKENS.writerA);
    const stored = () => page.evaluate('sessionStorage.getItem("engram.token")');
    expect(await stored()).toBe(TOKENS.writerA);
    expect(await page.evaluate('localStorage.length')).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API token').waitFor();
    expect(await stored()).toBeNull();
  });

  it('shows a token of space A only space A, and never space B memories', async () => {
    const svc = await startConsole({ server: { tokens: TOKEN_CONFIG } });
    for (const [space, token, body] of [
      ['team-a', TOKENS.writerA, 'Alpha team deploys on Tuesdays.'],
      ['team-b', TOKENS.writerB, 'Beta team deploys on Tuesdays too.'],
    ] as const)
      expect(
        (await svc.request('POST', `/v1/spaces/${space}/memories`, { token, json: { body } }))
          .status,
      ).toBe(201);
    const page = await openPage(browser());
    await signIn(page, svc.url, TOKENS.writerA);
    const options = await page.getByLabel('Space').locator('option').allTextContents();
    expect(options).toEqual(['team-a (1)']);
    await page.getByRole('searchbox', { name: 'Query' }).fill('deploys Tuesdays');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.locator('.hit').first().waitFor();
    const text = await page.locator('.hits').textContent();
    expect(text).toContain('Alpha team');
    expect(text).not.toContain('Beta team');
  });

  it('searches, shows the channels of each hit, and opens a hit', async () => {
    const svc = await startConsole();
    const body = 'Carol prefers tea during long planning meetings.';
    const made = await svc.request('POST', '/v1/spaces/default/memories', {
      json: { body, kind: 'preference', area: 'people' },
    });
    const page = await openPage(browser());
    await page.goto(`${svc.url}/?q=${encodeURIComponent('what does Carol drink in meetings')}`);
    const hit = page.locator('.hit').first();
    await hit.waitFor();
    expect(await hit.textContent()).toContain('Carol prefers tea');
    const channels = await hit.getByRole('list', { name: 'Channels that found it' }).textContent();
    expect(channels).toMatch(/keyword: rank 1|vector: rank 1/);
    await screenshot(page, 'search');
    expect(await seriousViolations(page)).toEqual([]);
    await hit.getByRole('link').click();
    await page.waitForURL(`**/memories/${made.body.memory.id}`);
    expect(pageErrors(page)).toEqual([]);
  });

  it('has no serious accessibility violations on a phone, in the dark theme', async () => {
    const svc = await startConsole();
    const page = await openPage(browser(), { viewport: 'phone', colorScheme: 'dark' });
    await page.goto(svc.url);
    await page.getByRole('searchbox', { name: 'Query' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
