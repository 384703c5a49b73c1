/**
 * The console's review page end to end in real Chromium: the lifecycle review queue (a review
 * window wide enough to hold fresh memories) with reinforce and let go checked through the API;
 * the dormant review with an inspection and feedback checked through the API; the empty states of
 * a fresh store; and no serious accessibility violation on either tab.
 */
import { describe, expect, it } from 'vitest';

import { DAY_MS } from '../src/store/dormant/profile.js';
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
const KEEP = 'The staging cluster is rebuilt every Sunday night.';
const DROP = 'The old VPN endpoint lives at vpn-legacy.example.com.';
const QUERY = 'how to restart the staging database server after a crash';
const TARGET = 'To restart the staging database server after a crash, run the recover-db script.';

describe.runIf(HAS_CHROMIUM)('console review page', () => {
  const browser = useBrowser();

  it('reinforces and lets go of memories in the lifecycle review queue', async () => {
    const svc = await startConsole({ lifecycle: { review: { window_low: 0.05, window_high: 1 } } });
    const ids: Record<string, string> = {};
    for (const body of [KEEP, DROP]) {
      const made = await svc.request('POST', `${BASE}/memories`, {
        json: { body, kind: 'fact', importance: 0.8 },
      });
      expect(made.status, made.text).toBe(201);
      ids[body] = made.body.memory.id;
    }
    const memory = async (id: string) => (await svc.request('GET', `${BASE}/memories/${id}`)).body;
    const page = await openPage(browser());
    await page.goto(`${svc.url}/review`);
    const items = page.locator('.review-item');
    await expect.poll(() => items.count()).toBe(2);
    const keep = items.filter({ hasText: KEEP });
    expect(await keep.textContent()).toMatch(/Strength [\d.]+ is in the review window/);
    expect(await keep.getByRole('link').first().getAttribute('href')).toBe(
      `/memories/${ids[KEEP]}`,
    );
    await screenshot(page, 'review');
    expect(await seriousViolations(page)).toEqual([]);

    await keep.getByRole('button', { name: 'Reinforce' }).click();
    await page.getByRole('status').filter({ hasText: 'Reinforced' }).waitFor();
    expect((await memory(ids[KEEP]!)).use_count).toBe(1);

    const drop = items.filter({ hasText: DROP });
    await drop.getByRole('button', { name: 'Let go' }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('dialog').getByRole('button', { name: 'Let go' }).click();
    await page.getByRole('status').filter({ hasText: 'Let go of' }).waitFor();
    await expect.poll(() => items.count()).toBe(1);
    expect((await memory(ids[DROP]!)).status).toBe('archived');
    await keep.getByRole('button', { name: 'Revise' }).click();
    expect(pageErrors(page)).toEqual([]);
  });

  it('inspects a dormant recall event and records feedback', async () => {
    const svc = await startConsole({
      dormant_recall: { mode: 'shadow' },
      graph: { enabled: false },
    });
    const old = new Date(Date.now() - 90 * DAY_MS).toISOString();
    for (const json of [
      { kind: 'fact', body: TARGET, created_at: old },
      {
        kind: 'fact',
        body: 'How to restart the staging database server after a crash: follow the recovery runbook.',
      },
    ])
      expect((await svc.request('POST', `${BASE}/memories`, { json })).status).toBe(201);
    expect(
      (await svc.request('POST', `${BASE}/recall`, { json: { query: QUERY, k: 1 } })).status,
    ).toBe(200);
    await svc.service.engram.dormantIdle();
    const [event] = (await svc.request('GET', `${BASE}/dormant/events`)).body.events;
    expect(event.candidate_id).not.toBeNull();

    const page = await openPage(browser(), { colorScheme: 'dark' });
    await page.goto(`${svc.url}/review`);
    await page.getByRole('tab', { name: /Dormant recall/ }).click();
    await page.waitForURL('**/review?tab=dormant');
    const row = page.locator('.dormant-event').first();
    await row.getByRole('button', { name: 'Inspect' }).click();
    await row.locator('.dormant-inspection').getByText(TARGET).waitFor();
    expect(await row.locator('.dormant-evidence').textContent()).toContain('Raw embedding cosine');
    expect(await seriousViolations(page)).toEqual([]);

    await row.getByRole('button', { name: 'Useful' }).click();
    await row.getByRole('status').filter({ hasText: 'Feedback: useful' }).waitFor();
    expect(await row.getByRole('button', { name: 'Useful' }).count()).toBe(0);
    const after = (await svc.request('GET', `${BASE}/dormant/events`)).body.events;
    expect(after.find((e: { id: string }) => e.id === event.id)).toMatchObject({
      feedback: 'useful',
    });
    expect(after.find((e: { id: string }) => e.id === event.id).shown_at).not.toBeNull();
    expect(pageErrors(page)).toEqual([]);
  });

  it('explains empty queues on a fresh store, on a phone', async () => {
    const svc = await startConsole();
    const page = await openPage(browser(), { viewport: 'phone' });
    await page.goto(`${svc.url}/review`);
    await page.getByText('The review queue is empty.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('tab', { name: /Lifecycle/ }).focus();
    await page.keyboard.press('ArrowRight');
    await page.getByText('Dormant recall is off.').waitFor();
    expect(
      await page.getByRole('tab', { name: /Dormant recall/ }).getAttribute('aria-selected'),
    ).toBe('true');
    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors(page)).toEqual([]);
  });

  it('shows a read-only token the queue without review actions', async () => {
    const svc = await startConsole({
      server: { tokens: TOKEN_CONFIG },
      lifecycle: { review: { window_low: 0.05, window_high: 1 } },
    });
    const made = await svc.request('POST', '/v1/spaces/team-a/memories', {
      token: TOKENS.writerA,
      json: { body: KEEP, importance: 0.9 },
    });
    expect(made.status, made.text).toBe(201);
    const page = await openPage(browser());
    await signIn(page, svc.url, TOKENS.readerA);
    await page.getByRole('link', { name: 'Review' }).click();
    await page.locator('.review-item').filter({ hasText: KEEP }).waitFor();
    expect(await page.getByText('Reviewing them needs a token with the write role.').count()).toBe(
      1,
    );
    expect(await page.getByRole('button', { name: 'Reinforce' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Let go' }).count()).toBe(0);
    expect(pageErrors(page).filter((e) => !e.includes('401'))).toEqual([]);
  });
});
