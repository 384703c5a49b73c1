/**
 * The console's browse page end to end in real Chromium: filters that narrow the list and survive
 * a reload, cursor paging forward and back, bulk tag and bulk forget applied to the selected rows
 * only (a failing row failing alone), a read-only token seeing no selection, and no serious
 * accessibility violation (desktop, and a phone in the dark theme).
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
import { type TestService, TOKEN_CONFIG, TOKENS } from './http-helpers.js';

const MEMORIES = '/v1/spaces/default/memories';

/** Stores memories in one batch; returns their ids in order. */
async function rememberAll(svc: TestService, items: object[]): Promise<string[]> {
  const reply = await svc.request('POST', `${MEMORIES}/batch`, { json: { items } });
  expect(reply.status).toBe(200);
  return reply.body.results.map((r: { ok: boolean; memory: { id: string } }) => {
    expect(r.ok).toBe(true);
    return r.memory.id;
  });
}

/** The memory as the API returns it now. */
async function read(svc: TestService, id: string) {
  return (await svc.request('GET', `${MEMORIES}/${id}`)).body;
}

/** The titles of the rows shown, in order. */
async function rows(page: Page): Promise<string[]> {
  return page.locator('.browse-table tbody tr .browse-memory a').allTextContents();
}

/** Waits until the list shows exactly `titles` (in any order). */
async function expectRows(page: Page, titles: string[]): Promise<void> {
  await expect.poll(async () => (await rows(page)).sort()).toEqual([...titles].sort());
}

const TEAM = [
  { body: 'Ana reviews the billing code.', kind: 'fact', area: 'people', tags: ['billing'] },
  { body: 'Ben prefers morning standups.', kind: 'preference', area: 'people', tags: [] },
  { body: 'Never deploy on Fridays.', kind: 'rule', area: 'projects/ops', tags: ['deploys'] },
  { body: 'Tag releases with semver.', kind: 'rule', area: 'projects/ops', tags: ['releases'] },
  {
    body: 'Billing runs nightly at two.',
    kind: 'fact',
    area: 'projects/billing',
    tags: ['billing'],
  },
];

describe.runIf(HAS_CHROMIUM)('console browse page', () => {
  const browser = useBrowser();

  it('narrows the list with filters kept in the URL, and clears them from the empty state', async () => {
    const svc = await startConsole();
    await rememberAll(svc, TEAM);
    const page = await openPage(browser());
    await page.goto(`${svc.url}/browse`);
    await expectRows(
      page,
      TEAM.map((m) => m.body),
    );

    await page.getByLabel('Kind').selectOption('rule');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expectRows(page, ['Never deploy on Fridays.', 'Tag releases with semver.']);
    expect(page.url()).toContain('kind=rule');

    await page.getByLabel('Tag', { exact: true }).fill('deploys');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expectRows(page, ['Never deploy on Fridays.']);
    await page.reload();
    await expectRows(page, ['Never deploy on Fridays.']);
    expect(await page.getByLabel('Kind').inputValue()).toBe('rule');
    expect(await page.getByLabel('Tag', { exact: true }).inputValue()).toBe('deploys');

    await page.goto(`${svc.url}/browse?area=people`);
    await expectRows(page, ['Ana reviews the billing code.', 'Ben prefers morning standups.']);
    await page.getByLabel('Area', { exact: true }).fill('nowhere');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No memories match these filters.').waitFor();
    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await expectRows(
      page,
      TEAM.map((m) => m.body),
    );
    expect(new URL(page.url()).search).toBe('');
    expect(pageErrors(page)).toEqual([]);
  });

  it('walks cursor pages forward and back', async () => {
    const svc = await startConsole();
    const bodies = Array.from({ length: 7 }, (_, i) => `Paged memory number ${i + 1}.`);
    await rememberAll(
      svc,
      bodies.map((body) => ({ body })),
    );
    const page = await openPage(browser());
    await page.goto(`${svc.url}/browse?limit=3&order=created`);
    const pager = page.getByRole('navigation', { name: 'Pages of the list' });
    await expect.poll(() => rows(page)).toHaveLength(3);
    const first = await rows(page);
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('Page 2').waitFor();
    // The next page's rows, once they replaced the first page's (never a half-drawn list).
    const turned = async (from: string[], size: number) => {
      const now = await rows(page);
      return now.length === size && now.join('\n') !== from.join('\n') ? now : null;
    };
    await expect.poll(() => turned(first, 3)).not.toBeNull();
    const second = (await turned(first, 3))!;
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('Page 3').waitFor();
    await expect.poll(() => turned(second, 1)).not.toBeNull();
    const third = (await turned(second, 1))!;
    expect(new Set([...first, ...second, ...third])).toEqual(new Set(bodies));
    expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);

    await pager.getByRole('button', { name: 'Previous' }).click();
    await pager.getByText('Page 2').waitFor();
    await expect.poll(() => rows(page)).toEqual(second);
    await pager.getByRole('button', { name: 'Previous' }).click();
    await pager.getByText('Page 1').waitFor();
    await expect.poll(() => rows(page)).toEqual(first);
    expect(await pager.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    expect(pageErrors(page)).toEqual([]);
  });

  it('tags and forgets the selected rows only, and names a row that failed', async () => {
    const svc = await startConsole();
    const ids = await rememberAll(svc, TEAM);
    const page = await openPage(browser());
    await page.goto(`${svc.url}/browse`);
    await expectRows(
      page,
      TEAM.map((m) => m.body),
    );
    const select = (body: string) => page.getByRole('checkbox', { name: `Select ${body}` }).check();

    await select(TEAM[0]!.body);
    await select(TEAM[1]!.body);
    await page.getByLabel('Tag to add to the selected memories').fill('bulk');
    await page.getByRole('button', { name: 'Add tag' }).click();
    await page.getByRole('status').filter({ hasText: 'Tagged bulk: 2 of 2 memories.' }).waitFor();
    const tagged = await Promise.all(ids.map(async (id) => (await read(svc, id)).tags));
    expect(tagged.map((t: string[]) => t.includes('bulk'))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);

    expect(await page.getByRole('checkbox', { checked: true }).count()).toBe(0);
    await select(TEAM[2]!.body);
    await select(TEAM[3]!.body);
    await page.getByRole('button', { name: 'Forget', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Forget 2 memories?' })
      .getByRole('button', { name: 'Forget 2 memories' })
      .click();
    await page.getByRole('status').filter({ hasText: 'Forgotten: 2 of 2 memories.' }).waitFor();
    const statuses = await Promise.all(ids.map(async (id) => (await read(svc, id)).status));
    expect(statuses).toEqual(['active', 'active', 'forgotten', 'forgotten', 'active']);
    await expectRows(page, [TEAM[0]!.body, TEAM[1]!.body, TEAM[4]!.body]);

    // A row purged behind the page's back fails alone; the other row is moved.
    await select(TEAM[0]!.body);
    await select(TEAM[4]!.body);
    expect((await svc.request('POST', `${MEMORIES}/${ids[4]}/purge`, { json: {} })).status).toBe(
      200,
    );
    await page.getByLabel('Area to move the selected memories to').fill('archive/old');
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    const failures = page.getByRole('alert');
    await failures.filter({ hasText: '1 of 2 failed' }).waitFor();
    expect(await failures.textContent()).toContain(TEAM[4]!.body);
    await page.getByRole('status').filter({ hasText: 'Moved to archive/old: 1 of 2' }).waitFor();
    expect((await read(svc, ids[0]!)).area).toBe('archive/old');
    expect(pageErrors(page).filter((e) => !e.includes('404'))).toEqual([]);
  });

  it('shows a read-only token the list without selection or bulk actions', async () => {
    const svc = await startConsole({ server: { tokens: TOKEN_CONFIG } });
    await svc.request('POST', '/v1/spaces/team-a/memories', {
      token: TOKENS.writerA,
      json: { body: 'Team A ships on Fridays.' },
    });
    const page = await openPage(browser());
    await signIn(page, svc.url, TOKENS.readerA);
    await page.getByRole('link', { name: 'Browse' }).click();
    await expectRows(page, ['Team A ships on Fridays.']);
    expect(await page.getByRole('checkbox').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Forget' }).count()).toBe(0);
  });

  it('has no serious accessibility violations, on a desktop and on a phone in the dark', async () => {
    const svc = await startConsole();
    const ids = await rememberAll(svc, TEAM);
    await svc.request('POST', `${MEMORIES}/${ids[2]}/pin`, { json: {} });
    const desktop = await openPage(browser());
    await desktop.goto(`${svc.url}/browse`);
    await expectRows(
      desktop,
      TEAM.map((m) => m.body),
    );
    await desktop.getByRole('checkbox', { name: `Select ${TEAM[1]!.body}` }).check();
    await screenshot(desktop, 'browse');
    expect(await seriousViolations(desktop)).toEqual([]);

    const phone = await openPage(browser(), { viewport: 'phone', colorScheme: 'dark' });
    await phone.goto(`${svc.url}/browse?area=nowhere`);
    await phone.getByText('No memories match these filters.').waitFor();
    expect(await seriousViolations(phone)).toEqual([]);
    await phone.goto(`${svc.url}/browse`);
    await expectRows(
      phone,
      TEAM.map((m) => m.body),
    );
    expect(await seriousViolations(phone)).toEqual([]);
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
  });
});
