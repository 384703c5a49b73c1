/**
 * The console's health page in real Chromium: the service's components and the space's status
 * with their badges; after a few memories and recalls the four charts draw on their canvases,
 * each with a caption and a table of its numbers; the period is kept in the URL; a new store shows
 * the empty states; no serious accessibility violation at desktop and phone sizes, light and dark.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import {
  HAS_CHROMIUM,
  openPage,
  pageErrors,
  screenshot,
  seriousViolations,
  startConsole,
  useBrowser,
} from './console-helpers.js';
import type { TestService } from './http-helpers.js';

const MEMORIES = [
  { body: 'Deploys happen on Tuesdays after the stand-up.', kind: 'fact' },
  { body: 'Alice prefers short code reviews.', kind: 'preference' },
  { body: 'Never push to main without a review.', kind: 'rule' },
  { body: 'The office moved to Leeds in 2021.', kind: 'fact' },
];

/** A console whose store holds a few memories (one forgotten) and has served a few recalls. */
async function seeded(): Promise<TestService> {
  const svc = await startConsole();
  const ids: string[] = [];
  for (const json of MEMORIES) {
    const res = await svc.request('POST', '/v1/spaces/default/memories', { json });
    expect(res.status, res.text).toBe(201);
    ids.push(res.body.memory.id);
  }
  const forgot = await svc.request('DELETE', `/v1/spaces/default/memories/${ids[3]}`);
  expect(forgot.status, forgot.text).toBe(200);
  for (const query of ['when do we deploy', 'code reviews', 'push to main'])
    expect(
      (await svc.request('POST', '/v1/spaces/default/recall', { json: { query } })).status,
    ).toBe(200);
  return svc;
}

/** The slice of a canvas element the pixel count reads (the tests compile without DOM types). */
interface Canvas {
  width: number;
  height: number;
  getContext(kind: '2d'): {
    getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> };
  } | null;
}

/** How many pixels of a canvas were drawn on (not transparent). */
function paintedPixels(page: Page, index: number): Promise<number> {
  return page
    .locator('.health canvas')
    .nth(index)
    .evaluate((node: unknown) => {
      const canvas = node as Canvas;
      const image = canvas.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height);
      let painted = 0;
      for (let i = 3; i < (image?.data.length ?? 0); i += 4) if (image!.data[i]! > 0) painted++;
      return painted;
    });
}

describe.runIf(HAS_CHROMIUM)('console health page', () => {
  const browser = useBrowser();

  it('shows the components and the space, and draws the four charts', async () => {
    const svc = await seeded();
    const page = await openPage(browser());
    await page.goto(`${svc.url}/health`);
    const store = page.getByRole('region', { name: 'Store' });
    await expect.poll(() => store.textContent()).toContain('sqlite');
    expect(await store.locator('.badge').textContent()).toBe('ok');
    for (const name of ['Service', 'Embedder', 'Knowledge graph', 'Job worker', 'Vectors'])
      await page.getByRole('region', { name }).waitFor();
    await page.getByRole('heading', { name: 'Space default' }).waitFor();
    const space = page.getByRole('region', { name: 'Contents' });
    await expect.poll(() => space.textContent()).toContain('Memories4');

    const canvases = page.locator('.health canvas');
    await expect.poll(() => canvases.count()).toBe(4);
    for (let i = 0; i < 4; i++) await expect.poll(() => paintedPixels(page, i)).toBeGreaterThan(0);
    const names = await page.locator('.health figure h3').allTextContents();
    expect(names).toEqual([
      'Memories by kind',
      'Status changes',
      'Strength of live memories',
      'Recall latency',
    ]);
    const latency = page.getByRole('figure', { name: 'Recall latency' });
    expect(await latency.locator('figcaption').textContent()).toMatch(/3 recalls served/);
    const status = page.getByRole('figure', { name: 'Status changes' });
    expect(await status.locator('figcaption').textContent()).toContain('forgotten 1');

    await screenshot(page, 'health');

    const kinds = page.getByRole('figure', { name: 'Memories by kind' });
    await kinds.getByText('Numbers: memories by kind').click();
    const table = kinds.getByRole('table');
    expect(await table.locator('thead').textContent()).toBe('Dayfactpreferenceruletotal');
    expect(await table.locator('tbody tr').last().textContent()).toMatch(/2114$/);

    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors(page)).toEqual([]);
  });

  it('keeps the period in the URL', async () => {
    const svc = await seeded();
    const page = await openPage(browser());
    await page.goto(`${svc.url}/health`);
    await expect.poll(() => page.locator('.health canvas').count()).toBe(4);
    await page.getByLabel('Period').selectOption('7');
    await page.waitForURL('**/health?days=7');
    // The table's first row is the period's first day: six days before today (UTC).
    const first = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
    const kinds = page.getByRole('figure', { name: 'Memories by kind' });
    await expect.poll(() => kinds.locator('tbody th').first().textContent()).toBe(first);
    expect(await kinds.locator('figcaption').textContent()).toContain(`At the end of ${first}`);
    expect(await page.getByLabel('Period').inputValue()).toBe('7');
    expect(pageErrors(page)).toEqual([]);
  });

  it('shows the empty states on a new store, on a phone in the dark theme', async () => {
    const svc = await startConsole();
    const page = await openPage(browser(), { viewport: 'phone', colorScheme: 'dark' });
    await page.goto(`${svc.url}/health`);
    await page.getByText('No recalls served yet by this process.').waitFor();
    expect(await page.getByText('No memories yet.').count()).toBe(2);
    expect(await page.getByText('No status changes in this period.').count()).toBe(1);
    expect(await page.locator('.health canvas').count()).toBe(0);
    await page.getByRole('region', { name: 'Published model' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors(page)).toEqual([]);
  });
});
