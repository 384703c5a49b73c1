/**
 * Property test (fast-check, fixed seed) of consolidation (§10): any sequence of dream runs over a
 * store with planted near-duplicates, area-name variants, stale items and duplicate skills (merges,
 * folds, archives, skill dedupes and caps, under random caps), followed by the undo of each run in
 * reverse order, returns every item's state (status, kind, area, body, title, tags, pinned,
 * importance) and the set of live relations to what they were before the first run; only the
 * audit trail (versions, status events, invalidated relations) grows. On SQLite, and on
 * PostgreSQL when ENGRAM_TEST_PG_URL names a server.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { DREAM_STAGES, type DreamStage } from '../src/domain/dreams.js';
import type { Kind } from '../src/domain/types.js';
import { exportLines } from '../src/transfer/transfer.js';
import { type Backend, BACKENDS } from './backends.js';
import { testEngram } from './helpers.js';

const SEED = 20_261_202;
const DAY = 86_400_000;
const NOW = Date.parse('2026-06-01T12:00:00Z');

/** Memories with planted near-duplicates and lookalikes that differ in a fact. */
const POOL: { body: string; kind: Kind; area: string; title?: string }[] = [
  {
    body: 'Alice prefers the dark theme in her code editor and uses it every day',
    kind: 'note',
    area: 'people',
  },
  {
    body: 'In her code editor Alice prefers the dark theme and uses it every day',
    kind: 'note',
    area: 'people',
  },
  {
    body: 'The build server has 16 cores and 64 GB of memory',
    kind: 'fact',
    area: 'projects/billing',
  },
  {
    body: 'The build server has 32 cores and 64 GB of memory',
    kind: 'fact',
    area: 'Projects/Billing',
  },
  {
    body: 'Billing retries failed card payments three times before suspending',
    kind: 'fact',
    area: 'projects/billing',
  },
  {
    body: 'Failed card payments are retried three times by billing before suspending',
    kind: 'fact',
    area: 'Projects/Billing',
  },
  {
    body: 'Invoices are sent as PDF files by email on the first of the month',
    kind: 'fact',
    area: 'projects/billing',
  },
  {
    body: 'On the first of the month invoices are sent by email as PDF files',
    kind: 'fact',
    area: 'project/billing',
  },
  {
    body: '1. Run the tests\n2. Tag the release\n3. Push the tag',
    kind: 'skill',
    area: 'ops',
    title: 'Release',
  },
  {
    body: '- Run the tests\n- Tag the release\n- Push the tag',
    kind: 'skill',
    area: 'ops',
    title: 'release',
  },
  { body: 'Rotate the deploy keys every month', kind: 'skill', area: 'ops', title: 'Keys' },
  { body: 'An old note about the offsite agenda of the team', kind: 'note', area: 'general' },
];

/** What undo must give back: each item's state and the live relations. */
async function state(engram: Engram): Promise<unknown> {
  const items: Record<string, unknown> = {};
  const relations: string[] = [];
  for await (const line of exportLines(engram, null)) {
    const record = JSON.parse(line) as { type: string; [k: string]: unknown };
    if (record.type === 'item') {
      const { item } = record as unknown as { item: Record<string, unknown> };
      const { id, status, kind, area, body, title, tags, pinned, importance } = item;
      items[id as string] = { status, kind, area, body, title, tags, pinned, importance };
    } else if (record.type === 'relation') {
      const { relation: r } = record as unknown as { relation: Record<string, string | null> };
      if (r.invalidated_at === null) relations.push(`${r.type}:${r.from_id}->${r.to_id}`);
    }
  }
  return { items, relations: relations.sort() };
}

/** A store's contents and the runs made over it. */
interface Scenario {
  chosen: number[];
  old: number[];
  runs: DreamStage[][];
  mergeCap: number;
  staleCap: number;
  skillCap: number;
}

const scenario: fc.Arbitrary<Scenario> = fc.record({
  chosen: fc.subarray(
    POOL.map((_, i) => i),
    { minLength: 4 },
  ),
  old: fc.subarray(POOL.map((_, i) => i)),
  runs: fc.array(fc.subarray([...DREAM_STAGES], { minLength: 1 }), { minLength: 1, maxLength: 3 }),
  mergeCap: fc.integer({ min: 0, max: 3 }),
  staleCap: fc.integer({ min: 0, max: 3 }),
  skillCap: fc.integer({ min: 1, max: 3 }),
});

/** The kinds of change the runs applied, over all cases (the property must not hold vacuously). */
const applied = new Set<string>();

/** Runs the scenario's dream runs, undoes them newest first, and compares the state. */
async function check(backend: Backend, s: Scenario): Promise<void> {
  let t = NOW - 2 * 365 * DAY;
  const engram = testEngram({
    now: () => t,
    config: {
      ...backend.fresh(),
      dream: {
        duplicates: { daily_cap: s.mergeCap },
        stale: { enabled: true, daily_cap: s.staleCap },
        skills: { max_active_per_area: s.skillCap },
      },
    },
  });
  for (const i of s.chosen) {
    if (!s.old.includes(i)) t = NOW - DAY;
    const { body, kind, area, title } = POOL[i]!;
    await engram.remember({ body, kind, area, title });
    t = NOW - 2 * 365 * DAY;
  }
  t = NOW;
  const before = await state(engram);
  const runs: string[] = [];
  for (const stages of s.runs) {
    const diary = await engram.dreamRun({ stages });
    for (const e of diary.entries) if (e.outcome === 'applied') applied.add(e.action);
    runs.push(diary.run.id);
  }
  for (const id of runs.reverse()) {
    const report = await engram.dreamUndo(id);
    expect(report.not_restored).toEqual([]);
  }
  expect(await state(engram)).toEqual(before);
}

describe.each(BACKENDS)('dream runs and their undo ($name)', (backend) => {
  it('undoing every run returns the store to its prior state', { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(scenario, (s) => check(backend, s)),
      { seed: SEED, numRuns: backend.name === 'sqlite' ? 12 : 6 },
    );
    expect([...applied].sort()).toEqual(['archive', 'fold', 'merge', 'skill_cap', 'skill_dedupe']);
  });
});
