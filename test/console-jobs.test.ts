/**
 * The console's jobs page end to end in real Chromium: an admin sees the empty state, then the
 * background jobs with their state, a failure grouped with its error, cancels a queued job and
 * retries it (checked through the API), filters by state, and the page refreshes itself only while
 * a job is queued or running and never after it is left; a token that is not an admin of every
 * space sees neither Jobs nor Models, and a clear page when it opens `/jobs`; no serious
 * accessibility violation at desktop and phone sizes.
 */
import type { Page } from 'playwright-core';
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

const DAY_MS = 86_400_000;
const admin = { token: TOKENS.admin };

/** The card of the job whose details name this id. */
function card(page: Page, id: string) {
  return page.locator('li.job').filter({ has: page.locator(`code:text-is("${id}")`) });
}

describe.runIf(HAS_CHROMIUM)('web console: jobs', () => {
  const browser = useBrowser();

  it('lists jobs with their state, cancels and retries a job, and filters', async () => {
    const svc = await startConsole({ server: { tokens: TOKEN_CONFIG } });
    const { engram } = svc.service;
    const page = await openPage(browser());
    await signIn(page, svc.url, TOKENS.admin);
    const signedIn = pageErrors(page).length; // the 401 before signing in
    await page.getByRole('link', { name: 'Jobs' }).click();
    await page.getByText('No background jobs yet').waitFor();

    // A job not due for a day (it waits), and one that fails for good.
    const { job: later } = await engram.enqueueJob({
      kind: 'graph.rebuild',
      space: 'team-a',
      delay_ms: DAY_MS,
    });
    const failed = await engram.runJobHere({ kind: 'models.rebuild', payload: {} });
    expect(failed.state).toBe('failed');

    await page.getByRole('button', { name: 'Refresh' }).click();
    const waiting = card(page, later.id);
    await waiting.waitFor();
    expect(await waiting.locator('.badge').first().textContent()).toBe('queued');
    const broken = card(page, failed.id);
    expect(await broken.locator('.job-error').textContent()).toContain('the job names no model');
    const groups = page.getByRole('list', { name: 'Failed jobs, grouped by error' });
    expect(await groups.textContent()).toContain('the job names no model');
    const counts = page.getByRole('list', { name: 'Job counts' });
    expect(await counts.getByRole('link', { name: /queued/ }).textContent()).toContain('1');
    expect(await counts.getByRole('link', { name: /failed/ }).textContent()).toContain('1');
    expect(await page.locator('.refresh-note').textContent()).toContain('Refreshing every');

    await waiting.getByRole('button', { name: 'Details' }).click();
    const details = waiting.locator('.job-details');
    await details.waitFor();
    expect(await details.textContent()).toContain('team-a');
    await screenshot(page, 'jobs');
    expect(await seriousViolations(page)).toEqual([]);

    // Cancel, confirmed in the dialog; the API agrees.
    await waiting.getByRole('button', { name: 'Cancel job' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, cancel it' }).click();
    await page.getByRole('status').filter({ hasText: 'job is cancelled' }).waitFor();
    expect((await svc.request('GET', `/v1/jobs/${later.id}`, admin)).body.state).toBe('cancelled');
    await expect.poll(() => waiting.locator('.badge').first().textContent()).toBe('cancelled');

    // Retry: queued again at once; the worker runs it and the page follows it to its end.
    await waiting.getByRole('button', { name: 'Retry job' }).click();
    await page.getByRole('status').filter({ hasText: 'is queued again' }).waitFor();
    expect((await svc.request('GET', `/v1/jobs/${later.id}`, admin)).body.state).toMatch(
      /^(queued|running|succeeded)$/u,
    );
    await expect
      .poll(() => waiting.locator('.badge').first().textContent(), { timeout: 20_000 })
      .toBe('succeeded');

    // Filter by state: the URL keeps it, only failed jobs are listed.
    await page.getByLabel('State').selectOption('failed');
    await page.waitForURL('**/jobs?state=failed');
    await expect.poll(() => page.locator('li.job').count()).toBe(1);
    expect(await page.locator('li.job .job-kind').textContent()).toBe('models.rebuild');
    await page.getByLabel('Kind').selectOption('dream.run');
    await page.getByText('No jobs match these filters.').waitFor();
    expect(pageErrors(page).slice(signedIn)).toEqual([]);
  });

  it('opens one job by its id, and refreshes only while work runs, never after the page is left', async () => {
    const svc = await startConsole({ worker: { enabled: false } });
    const { job } = await svc.service.engram.enqueueJob({
      kind: 'graph.rebuild',
      space: 'default',
    });
    const page = await openPage(browser(), { viewport: 'phone', colorScheme: 'dark' });
    await page.clock.install();
    let reads = 0;
    page.on('request', (r) => {
      if (r.method() === 'GET' && new URL(r.url()).pathname.startsWith('/v1/jobs')) reads += 1;
    });
    await page.goto(`${svc.url}/jobs?job=${job.id}`);
    const opened = page.getByRole('region', { name: `Job ${job.id}` });
    await opened.locator('li.job').waitFor();
    expect(await page.locator('.job-worker').textContent()).toContain('worker.enabled: false');
    expect(await seriousViolations(page)).toEqual([]);

    // A queued job: the page reads again every few seconds.
    const before = reads;
    await page.clock.runFor(7_000);
    await expect.poll(() => reads).toBeGreaterThan(before);

    // Left for another page: no timer reads jobs any more.
    await page.getByRole('link', { name: 'Search' }).click();
    await page.getByRole('searchbox', { name: 'Query' }).waitFor();
    const after = reads;
    await page.clock.runFor(30_000);
    await page.getByRole('searchbox', { name: 'Query' }).fill('still here');
    expect(reads).toBe(after);
    expect(pageErrors(page)).toEqual([]);
  });

  it('hides Jobs and Models from a token that is not an admin, and answers it at /jobs', async () => {
    const svc = await startConsole({ server: { tokens: TOKEN_CONFIG } });
    const page = await openPage(browser());
    await signIn(page, svc.url, TOKENS.writerA);
    const nav = page.getByRole('navigation', { name: 'Pages' });
    const links = await nav.getByRole('link').allTextContents();
    expect(links).toContain('Search');
    expect(links).not.toContain('Jobs');
    expect(links).not.toContain('Models');
    await page.goto(`${svc.url}/jobs`);
    await page.getByRole('heading', { name: 'Admins only' }).waitFor();
    expect(await page.locator('main').textContent()).toContain('needs an admin token');
    expect((await svc.request('GET', '/v1/jobs', { token: TOKENS.writerA })).status).toBe(403);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
