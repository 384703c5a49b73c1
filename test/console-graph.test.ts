/**
 * The console's graph page end to end in real Chromium: memories naming people and projects, the
 * top entities with their counts, picking an entity by search, its neighbourhood drawn on a canvas
 * with the same neighbours in a table, depth 2, a click on a node re-centring the view, a
 * mentioning memory opened from the list; the empty states (nothing named yet, graph off); and no
 * serious accessibility violation at desktop and phone sizes in both themes.
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

const BODIES = [
  'Alice Johnson leads Project Phoenix with Bob Stone.',
  'Project Phoenix runs on Kubernetes in the Frankfurt region.',
  'Bob Stone reviewed Project Phoenix last week.',
  'Carol Diaz joined Project Phoenix from Acme Corp.',
];

/** A console over a store holding BODIES; their ids in order. */
async function seeded(): Promise<{ svc: TestService; ids: string[] }> {
  const svc = await startConsole({ embedder: { provider: 'none' } });
  const ids: string[] = [];
  for (const body of BODIES) {
    const made = await svc.request('POST', '/v1/spaces/default/memories', { json: { body } });
    expect(made.status, made.text).toBe(201);
    ids.push(made.body.memory.id);
  }
  return { svc, ids };
}

/** Clicks the drawn node of an entity (its position from the drawing's cytoscape instance). */
async function clickNode(page: Page, name: string): Promise<void> {
  const canvas = page.locator('.graph-canvas');
  const at = await canvas.evaluate((el, wanted) => {
    type Node = { data(k: string): unknown; renderedPosition(): { x: number; y: number } };
    const cy = (el as unknown as { _cyreg: { cy: { nodes(): Node[] } } })._cyreg.cy;
    return cy
      .nodes()
      .find((n) => n.data('name') === wanted)
      ?.renderedPosition();
  }, name);
  if (!at) throw new Error(`no node ${name} drawn`);
  await canvas.click({ position: at });
}

describe.runIf(HAS_CHROMIUM)('console: graph page', () => {
  const browser = useBrowser();

  it('lists entities, draws a picked one with its neighbours, re-centres, opens a memory', async () => {
    const { svc, ids } = await seeded();
    const page = await openPage(browser());
    await page.goto(`${svc.url}/graph`);
    const list = page.getByRole('list', { name: 'Top entities' });
    await list.getByRole('link').first().waitFor();
    expect(await list.getByRole('link').first().textContent()).toMatch(/Project Phoenix\s*4/);

    await page.getByRole('searchbox', { name: 'Find an entity' }).fill('alice');
    await expect.poll(() => list.getByRole('link').count()).toBe(1);
    await list.getByRole('link', { name: /Alice Johnson/ }).click();
    await page.waitForURL('**/graph?entity=alice+johnson');
    const drawing = page.getByRole('img', { name: /Graph of Alice Johnson/ });
    await drawing.locator('canvas').first().waitFor();
    const table = page.getByRole('table', { name: /Neighbours of Alice Johnson/ });
    await expect.poll(() => table.textContent()).toContain('Project Phoenix');
    expect(await table.textContent()).toContain('Bob Stone');
    expect(await table.textContent()).not.toContain('Kubernetes');
    expect(await table.textContent()).toContain('named together');

    await page.getByRole('radio', { name: '2 edges' }).check();
    await page.waitForURL('**/graph?entity=alice+johnson&depth=2');
    await expect.poll(() => table.textContent()).toContain('Kubernetes');
    expect(await table.textContent()).toContain('via Project Phoenix');
    await screenshot(page, 'graph');
    expect(await seriousViolations(page)).toEqual([]);

    await clickNode(page, 'Bob Stone');
    await page.waitForURL('**/graph?entity=bob+stone&depth=2');
    await page.getByRole('table', { name: /Neighbours of Bob Stone/ }).waitFor();
    const memories = page.locator('.graph-memory-list');
    await page.getByRole('heading', { name: 'Memories that mention Bob Stone' }).waitFor();
    await expect.poll(() => memories.getByRole('link').count()).toBe(2);
    await memories.getByRole('link', { name: BODIES[2]! }).click();
    await page.waitForURL(`**/memories/${ids[2]}`);
    expect(pageErrors(page)).toEqual([]);
  });

  it('looks an entity up by name, and says so when it is unknown', async () => {
    const { svc } = await seeded();
    const page = await openPage(browser());
    await page.goto(`${svc.url}/graph?entity=${encodeURIComponent('Zed Nobody')}`);
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toContain('entity "Zed Nobody" not found');
    const find = page.getByRole('searchbox', { name: 'Find an entity' });
    await find.fill('Carol');
    await find.press('Enter');
    await page.waitForURL('**/graph?entity=carol+diaz');
    const table = page.getByRole('table', { name: /Neighbours of Carol Diaz/ });
    await expect.poll(() => table.textContent()).toContain('Project Phoenix');
  });

  it('is readable on a phone in the dark theme', async () => {
    const { svc } = await seeded();
    const page = await openPage(browser(), { viewport: 'phone', colorScheme: 'dark' });
    await page.goto(`${svc.url}/graph?entity=project+phoenix`);
    await page.locator('.graph-canvas canvas').first().waitFor();
    await page.getByRole('table', { name: /Neighbours of Project Phoenix/ }).waitFor();
    await page.getByRole('heading', { name: 'Hubs' }).waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    // The neighbourhood, not the entity list, in the screenshot.
    await page.locator('.graph-focus').evaluate((el) => el.scrollIntoView());
    await screenshot(page, 'graph-phone-dark');
    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors(page)).toEqual([]);
  });

  it('says how the graph fills when nothing is named yet, and when it is off', async () => {
    const empty = await startConsole({ embedder: { provider: 'none' } });
    const page = await openPage(browser());
    await page.goto(`${empty.url}/graph`);
    await page.getByText('No entities yet.').waitFor();
    expect(await page.locator('.empty').textContent()).toContain('memories name people');
    expect(await seriousViolations(page)).toEqual([]);

    const off = await startConsole({ embedder: { provider: 'none' }, graph: { enabled: false } });
    await page.goto(`${off.url}/graph`);
    await page.getByText('The knowledge graph is off.').waitFor();
    expect(await page.locator('.empty').textContent()).toContain('graph.enabled: true');
    expect(pageErrors(page)).toEqual([]);
  });
});
