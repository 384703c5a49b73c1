/**
 * The console's memory page end to end in real Chromium: revising a memory and restoring an
 * earlier version, forgetting and restoring it, following a relation to the other memory, a
 * read-only token seeing no write action, a clear state for a missing id, and no serious
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

/** Stores a memory in the default space; returns its id. */
async function remember(svc: TestService, json: object): Promise<string> {
  const made = await svc.request('POST', MEMORIES, { json });
  expect(made.status).toBe(201);
  return made.body.memory.id as string;
}

/** The memory as the API returns it now. */
async function read(svc: TestService, id: string) {
  return (await svc.request('GET', `${MEMORIES}/${id}`)).body;
}

/** Opens a memory's page and waits for its text. */
async function openMemory(page: Page, svc: TestService, id: string): Promise<void> {
  await page.goto(`${svc.url}/memories/${id}`);
  await page.getByRole('heading', { name: 'Text', exact: true }).waitFor();
}

describe.runIf(HAS_CHROMIUM)('console memory page', () => {
  const browser = useBrowser();

  it('revises a memory inline and restores the earlier version', async () => {
    const svc = await startConsole();
    const before = 'The team deploys the billing service on Tuesdays.';
    const after = 'The team deploys the billing service on Thursdays after review.';
    const id = await remember(svc, { body: before, title: 'Deploy day', tags: ['deploys'] });
    const page = await openPage(browser());
    await openMemory(page, svc, id);
    await page.getByRole('button', { name: 'Revise' }).click();
    await page.getByLabel('Body').fill(after);
    await page.getByLabel('Reason').fill('moved to Thursdays');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved as a new version.' }).waitFor();
    expect(await read(svc, id)).toMatchObject({ body: after, version: 2 });

    const v2 = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Version 2' }) });
    await v2.locator('ins', { hasText: 'Thursdays' }).waitFor();
    expect(await v2.locator('del').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining('Tuesdays')]),
    );
    expect(await v2.textContent()).toContain('moved to Thursdays');

    await page.getByRole('button', { name: 'Restore version 1' }).click();
    await page.getByRole('status').filter({ hasText: 'Version 1 restored' }).waitFor();
    await expect.poll(async () => (await read(svc, id)).body).toBe(before);
    expect((await read(svc, id)).version).toBe(3);
    await page.getByRole('heading', { name: 'Version 3' }).waitFor();
    expect(await page.locator('.memory-text').first().textContent()).toBe(before);
    expect(pageErrors(page)).toEqual([]);
  });

  it('forgets a memory after confirmation and restores it', async () => {
    const svc = await startConsole();
    const id = await remember(svc, { body: 'Dana owns the on-call rotation this quarter.' });
    const page = await openPage(browser());
    await openMemory(page, svc, id);
    await page.getByRole('button', { name: 'Forget', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Forget this memory?' });
    await dialog.getByRole('button', { name: 'Forget' }).click();
    await page.getByRole('status').filter({ hasText: 'Forgotten' }).waitFor();
    expect((await read(svc, id)).status).toBe('forgotten');
    await page.locator('.memory-events').getByText('forget').waitFor();

    await page.getByRole('button', { name: 'Restore', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Restored' }).waitFor();
    expect((await read(svc, id)).status).toBe('active');
    await page.getByRole('button', { name: 'Forget', exact: true }).waitFor();
    expect(pageErrors(page)).toEqual([]);
  });

  it('pins, tags, moves and sets importance, each checked through the API', async () => {
    const svc = await startConsole();
    const id = await remember(svc, { body: 'Erin reviews every database migration.' });
    const page = await openPage(browser());
    await openMemory(page, svc, id);
    await page.getByRole('button', { name: 'Pin', exact: true }).click();
    await page.getByRole('button', { name: 'Unpin' }).waitFor();
    expect((await read(svc, id)).pinned).toBe(true);

    await page.getByLabel('Tags to add').fill('databases, reviews');
    await page.getByRole('button', { name: 'Add tag' }).click();
    await page.getByRole('button', { name: 'Remove tag reviews' }).waitFor();
    expect((await read(svc, id)).tags).toEqual(['databases', 'reviews']);
    await page.getByRole('button', { name: 'Remove tag databases' }).click();
    await expect.poll(async () => (await read(svc, id)).tags).toEqual(['reviews']);

    await page.getByLabel('Area', { exact: true }).fill('people/erin');
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Moved to people/erin' }).waitFor();
    expect((await read(svc, id)).area).toBe('people/erin');

    const slider = page.getByLabel('Importance');
    await slider.focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Importance set to 0.70' }).waitFor();
    expect((await read(svc, id)).importance).toBeCloseTo(0.7);
    expect(pageErrors(page)).toEqual([]);
  });

  it('shows a change the API refuses inline, with what to do', async () => {
    const svc = await startConsole();
    const id = await remember(svc, { body: 'Frank prefers written status updates.' });
    const page = await openPage(browser());
    await openMemory(page, svc, id);
    await page.getByLabel('Replaced by (memory id)').fill('no-such-memory');
    await page.getByRole('button', { name: 'Supersede', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Supersede this memory?' })
      .getByRole('button', { name: 'Supersede' })
      .click();
    const alert = page.locator('.memory-actions').getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('no-such-memory');
    expect((await read(svc, id)).status).toBe('active');
  });

  it('purges a memory only after a confirmation that says it cannot be undone', async () => {
    const svc = await startConsole();
    const id = await remember(svc, { body: 'Gil shared a home address by mistake.' });
    const page = await openPage(browser());
    await openMemory(page, svc, id);
    await page.getByRole('button', { name: 'Purge', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Purge this memory forever?' });
    expect(await dialog.textContent()).toContain('This cannot be undone.');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await read(svc, id)).id).toBe(id);
    await page.getByRole('button', { name: 'Purge', exact: true }).click();
    await dialog.getByRole('button', { name: 'Purge forever' }).click();
    await page.getByRole('heading', { name: 'Memory purged' }).waitFor();
    expect((await svc.request('GET', `${MEMORIES}/${id}`)).status).toBe(404);
  });

  it('follows a relation to the other memory', async () => {
    const svc = await startConsole();
    const a = await remember(svc, { body: 'The search service caches results for an hour.' });
    const b = await remember(svc, {
      title: 'Cache policy',
      body: 'Every service cache expires within one hour.',
    });
    const related = await svc.request('POST', `${MEMORIES}/${a}/relations`, {
      json: { to_id: b, type: 'derived_from' },
    });
    expect(related.status).toBe(201);
    const page = await openPage(browser());
    await openMemory(page, svc, a);
    const relations = page.locator('.memory-relations');
    await relations.locator('.relation-type', { hasText: 'derived from' }).waitFor();
    await relations.getByRole('link', { name: 'Cache policy' }).click();
    await page.waitForURL(`**/memories/${b}`);
    await page.getByRole('heading', { name: 'Cache policy', level: 1 }).waitFor();
    const back = page.locator('.memory-relations');
    await back.locator('.relation-type', { hasText: 'source of' }).waitFor();
    await back.getByRole('link').first().click();
    await page.waitForURL(`**/memories/${a}`);
    expect(pageErrors(page)).toEqual([]);
  });

  it('shows a read-only token no write action', async () => {
    const svc = await startConsole({ server: { tokens: TOKEN_CONFIG } });
    const made = await svc.request('POST', '/v1/spaces/team-a/memories', {
      token: TOKENS.writerA,
      json: { body: 'Team A ships on Fridays.', tags: ['shipping'] },
    });
    const id = made.body.memory.id as string;
    await svc.request('PATCH', `/v1/spaces/team-a/memories/${id}`, {
      token: TOKENS.writerA,
      json: { body: 'Team A ships on Mondays.' },
    });
    const page = await openPage(browser());
    await signIn(page, svc.url, TOKENS.readerA);
    const seen = pageErrors(page).length; // the sign-in form follows a 401 of /v1/me
    await openMemory(page, svc, id);
    await page.getByRole('heading', { name: 'Version 2' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Fields' }).count()).toBe(1);
    for (const name of ['Revise', 'Forget', 'Pin', 'Restore version 1', 'Relate', 'Add tag'])
      expect(await page.getByRole('button', { name }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Actions' }).count()).toBe(0);
    expect(await page.getByRole('textbox').count()).toBe(0);
    expect(pageErrors(page).slice(seen)).toEqual([]);
  });

  it('says clearly when no memory has the id in this space', async () => {
    const svc = await startConsole();
    const page = await openPage(browser());
    await page.goto(`${svc.url}/memories/01NOSUCHMEMORY000000000000`);
    await page.getByText('No memory with this id in space default.').waitFor();
    await page.getByRole('link', { name: 'Go to search' }).click();
    await page.getByRole('searchbox', { name: 'Query' }).waitFor();
  });

  it('has no serious accessibility violations, on a desktop and on a phone in the dark', async () => {
    const svc = await startConsole();
    const other = await remember(svc, {
      title: 'Release checklist',
      body: 'Releases need a changelog entry.',
    });
    const id = await remember(svc, {
      title: 'Release day',
      body: 'Releases go out on Wednesday mornings.',
      kind: 'rule',
      area: 'projects/release',
      tags: ['releases', 'schedule'],
    });
    await svc.request('PATCH', `${MEMORIES}/${id}`, {
      json: { body: 'Releases go out on Wednesday afternoons, after the sync.', reason: 'moved' },
    });
    await svc.request('POST', `${MEMORIES}/${id}/relations`, { json: { to_id: other } });
    await svc.request('DELETE', `${MEMORIES}/${id}`);
    await svc.request('POST', `${MEMORIES}/${id}/restore`, { json: {} });
    const desktop = await openPage(browser());
    await openMemory(desktop, svc, id);
    await desktop.getByRole('link', { name: 'Release checklist' }).waitFor();
    await screenshot(desktop, 'memory');
    expect(await seriousViolations(desktop)).toEqual([]);

    const phone = await openPage(browser(), { viewport: 'phone', colorScheme: 'dark' });
    await openMemory(phone, svc, id);
    await phone.getByRole('link', { name: 'Release checklist' }).waitFor();
    expect(await seriousViolations(phone)).toEqual([]);
    const width = await phone.evaluate('document.documentElement.scrollWidth');
    expect(width).toBeLessThanOrEqual(390);
    expect(pageErrors(desktop)).toEqual([]);
    expect(pageErrors(phone)).toEqual([]);
  });
});
