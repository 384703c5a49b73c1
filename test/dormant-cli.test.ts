/**
 * `engram dormant ...` through the built binary (fresh processes, as users run it): review,
 * inspect, feedback with its exit codes, calibrate, and the environment override of the mode.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { DAY_MS } from '../src/store/dormant/profile.js';
import { runCli } from './cli-run.js';
import { tempDir } from './helpers.js';

function setup(): { config: string; dir: string } {
  const dir = tempDir();
  const config = join(dir, 'engram.yaml');
  writeFileSync(
    config,
    stringify({ store: { path: join(dir, 'engram.db') }, dormant_recall: { mode: 'shadow' } }),
  );
  const old = new Date(Date.now() - 90 * DAY_MS).toISOString();
  const lines = [
    {
      kind: 'fact',
      body: 'To restart the staging database server after a crash, run the recover-db script.',
      created_at: old,
    },
    {
      kind: 'fact',
      body: 'How to restart the staging database server after a crash: follow the recovery runbook.',
    },
  ];
  writeFileSync(join(dir, 'seed.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n'));
  return { config, dir };
}

describe('engram dormant (built CLI)', () => {
  it('reviews, inspects, takes feedback once and calibrates', async () => {
    const { config, dir } = setup();
    const cli = (args: string[], env: Record<string, string> = {}) =>
      runCli(['--config', config, ...args], { env });
    expect((await cli(['import', join(dir, 'seed.jsonl')])).code).toBe(0);
    const query = 'how to restart the staging database server after a crash';
    // The environment turns the file's shadow mode off for this process only.
    await cli(['search', query, '-k', '1'], { ENGRAM_DORMANT_RECALL_MODE: 'off' });
    expect(JSON.parse((await cli(['--json', 'dormant', 'review'])).stdout).events).toEqual([]);
    await cli(['search', query, '-k', '1']);
    const review = JSON.parse((await cli(['--json', 'dormant', 'review', '--limit', '5'])).stdout);
    expect(review.events).toHaveLength(1);
    const event = review.events[0];
    expect(event.outcome).toBe('selected');
    const human = await cli(['dormant', 'review']);
    expect(human.stdout).toContain(event.id);
    const inspect = await cli(['dormant', 'inspect', event.id]);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toContain('recover-db');
    expect(inspect.stdout).toMatch(/not truth/);
    const fb = await cli(['dormant', 'feedback', event.id, 'useful']);
    expect(fb.code).toBe(0);
    expect(fb.stdout).toMatch(/recorded: useful/);
    expect((await cli(['dormant', 'feedback', event.id, 'useful'])).stdout).toMatch(
      /already recorded/,
    );
    const conflict = await cli(['dormant', 'feedback', event.id, 'dismissed']);
    expect(conflict.code).toBe(4);
    expect((await cli(['dormant', 'feedback', event.id, 'great'])).code).not.toBe(0);
    expect((await cli(['dormant', 'inspect', 'NOPE'])).code).toBe(3);
    const calibrate = JSON.parse(
      (await cli(['--json', 'dormant', 'calibrate', '--query', query])).stdout,
    );
    expect(calibrate).toMatchObject({ queries: 1, query_source: 'given', scorer: 'alignment' });
    expect(calibrate.raw_cosine.count).toBeGreaterThan(0);
    expect(calibrate.relevance.count).toBeGreaterThan(0);
  });
});
