/**
 * The console's dreams page end to end in real Chromium: a preview that proposes merging two
 * near-duplicates (nothing changed), a run after a confirmation whose diary lists the merge, the
 * run in the list of runs opening its diary, and an undo whose report says what was restored,
 * checked through the API; no serious accessibility violation on the page or the diary.
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

const BASE = '/v1/spaces/default';
const TWINS = ['Alice prefers dark mode in the editor', 'In the editor, Alice prefers dark mode'];

describe.runIf(HAS_CHROMIUM)('console dreams page', () => {
  const browser = useBrowser();

  it('previews a merge, runs it, shows its diary and undoes it', async () => {
    const svc = await startConsole();
    const ids: string[] = [];
    for (const body of [...TWINS, 'The billing service runs on PostgreSQL 15']) {
      const made = await svc.request('POST', `${BASE}/memories`, { json: { body, kind: 'fact' } });
      expect(made.status, made.text).toBe(201);
      ids.push(made.body.memory.id);
    }
    await svc.service.engram.idle();
    const status = async (id: string) =>
      (await svc.request('GET', `${BASE}/memories/${id}`)).body.status;

    const page = await openPage(browser());
    await page.goto(`${svc.url}/dreams`);
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    const merges = page.getByRole('list', { name: 'Proposals of Merge near-duplicates' });
    await merges.waitFor();
    await expect.poll(() => merges.textContent()).toMatch(/dark mode.*merged into.*dark mode/);
    const hrefs = await merges
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs.sort()).toEqual([ids[0], ids[1]].map((id) => `/memories/${id}`).sort());
    expect(await page.getByText('Nothing was changed.').count()).toBe(1);
    expect([await status(ids[0]!), await status(ids[1]!)]).toEqual(['active', 'active']);
    await screenshot(page, 'dreams');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Run now' }).click();
    const result = page.locator('.dream-run-result');
    await result.getByText('Completed: every stage ran to its end.').waitFor();
    const applied = result.getByRole('list', { name: 'Applied entries' });
    expect(await applied.textContent()).toContain('merged into');
    const runs = (await svc.request('GET', `${BASE}/dream/runs`)).body.runs;
    expect(runs).toHaveLength(1);
    const diary = (await svc.request('GET', `${BASE}/dream/runs/${runs[0].id}`)).body;
    const [lesser, keeper] = diary.entries[0].items as [string, string];
    expect(await status(lesser)).toBe('merged');

    const card = page.locator('.dream-run-card');
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.textContent()).toMatch(/completed.*1 applied/);
    await card.getByRole('link').click();
    await page.waitForURL(`**/dreams?run=${runs[0].id}`);
    await page.getByRole('heading', { name: 'Dream run' }).waitFor();
    const entries = page.getByRole('list', { name: 'Applied entries' });
    await expect.poll(() => entries.textContent()).toMatch(/merged into/);
    expect(await entries.getByRole('link').first().getAttribute('href')).toBe(
      `/memories/${lesser}`,
    );
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Undo the run' }).click();
    await page.getByRole('status').filter({ hasText: 'Undone: 1 change restored' }).waitFor();
    expect(await page.getByRole('list', { name: 'Restored' }).textContent()).toContain('merge');
    expect(await status(lesser)).toBe('active');
    expect(await status(keeper)).toBe('active');
    await expect.poll(() => entries.textContent()).toContain('undone');
    expect(pageErrors(page)).toEqual([]);
  });

  it('explains an empty store, and a page without runs, on a phone in the dark theme', async () => {
    const svc = await startConsole();
    const page = await openPage(browser(), { viewport: 'phone', colorScheme: 'dark' });
    await page.goto(`${svc.url}/dreams`);
    await page.getByText('No dream run yet.').waitFor();
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await page.getByText('0 changes proposed').waitFor();
    expect(await page.getByText('A run skips this stage: stale archival is off').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors(page)).toEqual([]);
  });

  it('lets a write token preview but not run or undo', async () => {
    const svc = await startConsole({ server: { tokens: TOKEN_CONFIG } });
    const page = await openPage(browser());
    await signIn(page, svc.url, TOKENS.writerA);
    await page.getByRole('link', { name: 'Dreams' }).click();
    await page.getByText('Running and undoing a dream run need an admin token.').waitFor();
    expect(await page.getByRole('button', { name: 'Run', exact: true }).count()).toBe(0);
    await page.getByLabel('Stages').selectOption('folds');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await page.getByText('0 changes proposed in 1 stage').waitFor();
    expect(pageErrors(page).filter((e) => !e.includes('401'))).toEqual([]);
  });
});
