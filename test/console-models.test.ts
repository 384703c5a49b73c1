/**
 * The console's models page end to end in real Chromium: the published model (the built-in static
 * embedder) and the embedder's state; switching to a second model (a static variant) starts a
 * transition whose re-embedding progress shows, and the page follows it to its completion; a
 * rollback, a prune and a cancelled transition, each confirmed in the browser and checked through
 * the API; no serious accessibility violation at desktop and phone sizes.
 */
import { describe, expect, it } from 'vitest';

import { STATIC_MODEL_ID } from '../src/embed/static/static-embedder.js';
import {
  HAS_CHROMIUM,
  openPage,
  pageErrors,
  screenshot,
  seriousViolations,
  startConsole,
  useBrowser,
} from './console-helpers.js';

const VARIANT = `${STATIC_MODEL_ID}~a=0.01`;
const BODIES = [
  'The billing service runs on PostgreSQL 15.',
  'Never deploy the billing service on Fridays.',
  'Alex is the tech lead of the payments team.',
  'Backups of the main database are kept for 35 days.',
];

/** A console whose jobs run only where the test says (no worker of its own). */
async function consoleWithMemories() {
  const svc = await startConsole({ worker: { enabled: false }, graph: { enabled: false } });
  await svc.service.engram.rememberMany(BODIES.map((body) => ({ body })));
  return svc;
}

describe.runIf(HAS_CHROMIUM)('web console: models', () => {
  const browser = useBrowser();

  it('shows the published model, follows a transition to its end, rolls back and prunes', async () => {
    const svc = await consoleWithMemories();
    const { engram } = svc.service;
    const page = await openPage(browser());
    await page.goto(`${svc.url}/models`);
    const published = page.getByRole('region', { name: 'Published model' });
    await published.locator('.model-id').waitFor();
    expect(await published.locator('.model-id').textContent()).toBe(STATIC_MODEL_ID);
    expect(await published.textContent()).toContain('static word vectors');
    const embedder = page.getByRole('region', { name: 'Embedder' });
    await expect
      .poll(() => embedder.locator('.model-health .badge').textContent())
      .toMatch(/^(loaded|loading)$/u);
    expect(await page.getByRole('region', { name: 'Other models' }).textContent()).toContain(
      'The store knows no other model',
    );

    // Switch to a second model: a rebuild starts, its progress shows.
    await page.getByLabel('Model', { exact: true }).fill('static:sif_a=0.01');
    await page.getByRole('button', { name: 'Switch model' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Switch model' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `A rebuild into ${VARIANT} started` })
      .waitFor();
    const transition = page.getByRole('region', { name: 'Transition in progress' });
    const bar = transition.getByRole('progressbar', { name: /Re-embedding/u });
    await bar.waitFor();
    expect(await bar.getAttribute('max')).toBe(String(BODIES.length));
    expect(await bar.getAttribute('value')).toBe('0');
    expect(await transition.textContent()).toContain(`0 of ${BODIES.length} memories`);
    expect(await transition.locator('.rebuild-job .badge').textContent()).toBe('queued');
    expect(await page.locator('.refresh-note').textContent()).toContain('Refreshing every');
    await screenshot(page, 'models');
    expect(await seriousViolations(page)).toEqual([]);

    // The rebuild runs (here, in the test's process); the page refreshes itself to the end.
    const job = await engram.runJobHere({
      kind: 'models.rebuild',
      payload: { model: VARIANT },
      dedupe_key: 'models.rebuild',
    });
    expect(job.state).toBe('succeeded');
    await page
      .getByRole('status')
      .filter({ hasText: `The transition to ${VARIANT} is complete` })
      .waitFor({ timeout: 20_000 });
    expect(await published.locator('.model-id').textContent()).toBe(VARIANT);
    expect(await transition.count()).toBe(0);
    expect(await page.locator('.refresh-note').textContent()).toBe('');

    // Roll back: the static model is published again, the variant kept as a standby.
    await page.getByRole('button', { name: 'Roll back' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Roll back' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `${STATIC_MODEL_ID} is published` })
      .waitFor();
    let status = (await svc.request('GET', '/v1/models')).body;
    expect(status.published.id).toBe(STATIC_MODEL_ID);
    expect(status.standby.map((m: { id: string }) => m.id)).toEqual([VARIANT]);
    await expect.poll(() => published.locator('.model-id').textContent()).toBe(STATIC_MODEL_ID);

    // Prune: the dialog names what is deleted; the variant's vectors are gone.
    await page.getByRole('button', { name: 'Prune standby vectors' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain(`${VARIANT} (${BODIES.length} vectors)`);
    await dialog.getByRole('button', { name: 'Delete their vectors' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Deleted ${BODIES.length} vectors of ${VARIANT}` })
      .waitFor();
    status = (await svc.request('GET', '/v1/models')).body;
    expect(status.standby[0].pruned_at).not.toBeNull();
    await expect
      .poll(() => page.getByRole('button', { name: 'Roll back' }).isDisabled())
      .toBe(true);
    expect(await page.getByRole('region', { name: 'Other models' }).textContent()).toContain(
      'were pruned',
    );
    expect(await seriousViolations(page)).toEqual([]);
    expect(pageErrors(page)).toEqual([]);
  });

  it('cancels a running transition and keeps the published model; shows a refused model inline', async () => {
    const svc = await consoleWithMemories();
    const page = await openPage(browser(), { viewport: 'phone', colorScheme: 'dark' });
    await page.goto(`${svc.url}/models`);
    await page.getByRole('region', { name: 'Published model' }).locator('.model-id').waitFor();

    await page.getByLabel('Model', { exact: true }).fill('nonsense:x');
    await page.getByRole('button', { name: 'Switch model' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Switch model' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('unknown provider "nonsense"');

    await page.getByLabel('Model', { exact: true }).fill('static:sif_a=0.01');
    await page.getByRole('button', { name: 'Switch model' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Switch model' }).click();
    const transition = page.getByRole('region', { name: 'Transition in progress' });
    await transition.getByRole('progressbar').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await transition.getByRole('button', { name: 'Cancel transition' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, cancel it' }).click();
    await page.getByRole('status').filter({ hasText: 'The transition was cancelled' }).waitFor();
    const status = (await svc.request('GET', '/v1/models')).body;
    expect(status.target).toBeNull();
    expect(status.published.id).toBe(STATIC_MODEL_ID);
    await expect.poll(() => transition.count()).toBe(0);
    expect(pageErrors(page).filter((e) => !e.includes('400'))).toEqual([]);
  });
});
