/**
 * The DreamStore contract (§10), run on SQLite always and on PostgreSQL when ENGRAM_TEST_PG_URL
 * names a server: a run's lifecycle and its diary (numbering, counts, finalisation once, stages
 * cut short), undo marks, listings, daily caps (among several store connections, as several
 * processes), live areas, stale candidates with every kind of touch, and the last run's time.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { describe, expect, it } from 'vitest';

import type { ItemRecord } from '../src/domain/records.js';
import type { DreamRunRecord } from '../src/store/dream-store.js';
import { BACKENDS } from './backends.js';
import { DAY1, entry, link, location, put, SPACE, start } from './dream-helpers.js';
import { DAY, T0 } from './fixtures/store-records.js';
import { tempDir } from './helpers.js';

describe.each(BACKENDS)('dream store ($name)', (backend) => {
  it('runs a run through its stages and diary, and finalises it once', async () => {
    const { dreams } = location(backend)();
    const run = await start(dreams, { stages: ['duplicates', 'folds', 'stale'] });
    expect(run).toMatchObject({ state: 'running', diary: 'open', reason: null, counts: {} });
    expect(run.stages.map((s) => [s.stage, s.state])).toEqual([
      ['duplicates', 'pending'],
      ['conflicts', 'skipped'],
      ['folds', 'pending'],
      ['stale', 'pending'],
      ['skills', 'skipped'],
    ]);
    expect(await dreams.getRun(SPACE, run.id)).toEqual(run);
    expect(await dreams.getRun('elsewhere', run.id)).toBeUndefined();
    await expect(dreams.createRun({ ...run, stages: [] })).rejects.toMatchObject({
      code: 'CONFLICT',
    });

    await dreams.setStage(run.id, 'duplicates', { state: 'running', at: T0 + 1 });
    const first = [entry('duplicates', 'applied'), entry('duplicates', 'proposed')];
    expect(await dreams.appendEntries(run.id, first)).toBe(true);
    expect(await dreams.appendEntries(run.id, [entry('duplicates', 'skipped')])).toBe(true);
    await dreams.setStage(run.id, 'duplicates', { state: 'done', at: T0 + 5, note: 'all seen' });
    await dreams.setStage(run.id, 'folds', { state: 'running', at: T0 + 6, note: 'halfway' });
    expect(await dreams.appendEntries(run.id, [entry('folds', 'proposed', T0 + 7)])).toBe(true);

    const entries = await dreams.entries(run.id);
    expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(entries[0]).toEqual({ ...first[0], run_id: run.id, seq: 1 });
    expect((await dreams.entries(run.id, { afterSeq: 1, limit: 2 })).map((e) => e.seq)).toEqual([
      2, 3,
    ]);

    const end = { state: 'cut_short', diary: 'partial', reason: 'deadline', at: T0 + 10 } as const;
    expect(await dreams.finishRun(run.id, end)).toBe(true);
    const finished = await dreams.getRun(SPACE, run.id);
    expect(finished).toMatchObject({ state: 'cut_short', diary: 'partial', reason: 'deadline' });
    expect(finished!.finished_at).toBe(T0 + 10);
    expect(finished!.stages).toEqual([
      {
        stage: 'duplicates',
        state: 'done',
        started_at: T0 + 1,
        finished_at: T0 + 5,
        note: 'all seen',
      },
      { stage: 'conflicts', state: 'skipped', started_at: null, finished_at: null, note: null },
      {
        stage: 'folds',
        state: 'cut_short',
        started_at: T0 + 6,
        finished_at: T0 + 10,
        note: 'halfway',
      },
      {
        stage: 'stale',
        state: 'cut_short',
        started_at: null,
        finished_at: T0 + 10,
        note: 'deadline',
      },
      { stage: 'skills', state: 'skipped', started_at: null, finished_at: null, note: null },
    ]);
    expect(finished!.counts).toEqual({
      duplicates: { proposed: 1, applied: 1, skipped: 1 },
      folds: { proposed: 1, applied: 0, skipped: 0 },
    });

    // A final diary is never overwritten, appended to, or its stages changed.
    const again = { state: 'completed', diary: 'final', reason: null, at: T0 + 20 } as const;
    expect(await dreams.finishRun(run.id, again)).toBe(false);
    expect(await dreams.appendEntries(run.id, [entry('stale', 'applied')])).toBe(false);
    await dreams.setStage(run.id, 'stale', { state: 'done', at: T0 + 20 });
    expect(await dreams.getRun(SPACE, run.id)).toEqual(finished);
    expect(await dreams.entries(run.id)).toHaveLength(4);

    expect(await dreams.appendEntries('no-such-run', [entry('stale', 'applied')])).toBe(false);
    expect(await dreams.finishRun('no-such-run', again)).toBe(false);
  });

  it('keeps a batch intent until the batch entries are appended; none once finalised', async () => {
    const { dreams } = location(backend)();
    const run = await start(dreams);
    expect(await dreams.intent(run.id)).toBeNull();
    const intent = {
      stage: 'duplicates' as const,
      proposals: [
        { action: 'merge' as const, items: ['a', 'b'], reason: 'close', detail: { overlap: 0.9 } },
      ],
      at: T0 + 1,
    };
    expect(await dreams.setIntent(run.id, intent)).toBe(true);
    expect(await dreams.intent(run.id)).toEqual(intent);
    expect(await dreams.appendEntries(run.id, [entry('duplicates', 'applied')])).toBe(true);
    expect(await dreams.intent(run.id)).toBeNull();
    await dreams.finishRun(run.id, { state: 'failed', diary: 'partial', reason: 'x', at: T0 + 2 });
    expect(await dreams.setIntent(run.id, intent)).toBe(false);
    expect(await dreams.intent(run.id)).toBeNull();
    expect(await dreams.setIntent('no-such-run', intent)).toBe(false);
  });

  it('marks a run undone once, and its entries', async () => {
    const { dreams } = location(backend)();
    const run = await start(dreams);
    await dreams.appendEntries(
      run.id,
      [1, 2, 3].map(() => entry('duplicates', 'applied')),
    );
    expect(await dreams.markUndone(run.id, T0 + 50)).toBe(true);
    expect(await dreams.markUndone(run.id, T0 + 60)).toBe(false);
    expect(await dreams.markUndone('no-such-run', T0)).toBe(false);
    expect((await dreams.getRun(SPACE, run.id))!.undone_at).toBe(T0 + 50);

    await dreams.markEntriesUndone(run.id, [1, 3]);
    const entries = await dreams.entries(run.id);
    expect(entries.map((e) => e.detail.undone)).toEqual([true, undefined, true]);
    expect(entries[0]!.detail).toMatchObject({ similarity: 0.93, before: { a: { version: 2 } } });
  });

  it('lists runs newest first, page by page, by state', async () => {
    const { dreams } = location(backend)();
    const runs: DreamRunRecord[] = [];
    for (const at of [T0 + 1, T0 + 3, T0 + 3, T0 + 2, T0 + 5])
      runs.push(await start(dreams, { at }));
    await start(dreams, { space: 'elsewhere', at: T0 + 9 });
    const newest = [...runs]
      .sort((a, b) => b.started_at - a.started_at || (a.id < b.id ? 1 : -1))
      .map((r) => r.id);

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await dreams.listRuns(SPACE, { limit: 2, cursor });
      expect(page.runs.length).toBeLessThanOrEqual(2);
      seen.push(...page.runs.map((r) => r.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(newest);

    const done = { state: 'completed', diary: 'final', reason: null, at: T0 + 10 } as const;
    await dreams.appendEntries(runs[1]!.id, [entry('stale', 'applied')]);
    await dreams.finishRun(runs[1]!.id, done);
    await dreams.finishRun(runs[3]!.id, done);
    const completed = await dreams.listRuns(SPACE, { limit: 10, states: ['completed'] });
    expect(completed.runs.map((r) => r.id).sort()).toEqual([runs[1]!.id, runs[3]!.id].sort());
    expect(completed.next_cursor).toBeNull();
    expect(completed.runs.find((r) => r.id === runs[1]!.id)!.counts).toEqual({
      stale: { proposed: 0, applied: 1, skipped: 0 },
    });
    const running = await dreams.listRuns(SPACE, { limit: 10, states: ['running', 'failed'] });
    expect(running.runs).toHaveLength(3);
    await expect(dreams.listRuns(SPACE, { limit: 1, cursor: 'nope' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('keeps daily caps per space, cap and day', async () => {
    const { dreams } = location(backend)();
    expect(await dreams.capUsage(SPACE, DAY1)).toEqual({ merge: 0, stale: 0 });
    const claims = [];
    for (let n = 0; n < 3; n++) claims.push(await dreams.claimCap(SPACE, 'merge', DAY1, 2));
    expect(claims).toEqual([1, 1, 0]);
    expect(await dreams.claimCap(SPACE, 'merge', '2025-01-02', 2)).toBe(1);
    expect(await dreams.claimCap('elsewhere', 'merge', DAY1, 2)).toBe(1);
    expect(await dreams.claimCap(SPACE, 'stale', DAY1, 0)).toBe(0);
    expect(await dreams.capUsage(SPACE, DAY1)).toEqual({ merge: 2, stale: 0 });

    await dreams.releaseCap(SPACE, 'merge', DAY1);
    expect(await dreams.capUsage(SPACE, DAY1)).toEqual({ merge: 1, stale: 0 });
    expect(await dreams.claimCap(SPACE, 'merge', DAY1, 1)).toBe(0);
    expect(await dreams.claimCap(SPACE, 'merge', DAY1, 2)).toBe(1);
    // Several units at once: only what remains below the limit.
    expect(await dreams.claimCap(SPACE, 'merge', DAY1, 5, 10)).toBe(3);
    await dreams.releaseCap(SPACE, 'merge', DAY1, 3);
    expect(await dreams.capUsage(SPACE, DAY1)).toEqual({ merge: 2, stale: 0 });
    for (let n = 0; n < 4; n++) await dreams.releaseCap(SPACE, 'merge', DAY1);
    await dreams.releaseCap(SPACE, 'stale', DAY1);
    expect(await dreams.capUsage(SPACE, DAY1)).toEqual({ merge: 0, stale: 0 });
  });

  it('gives a cap to exactly `limit` claims among several connections', async () => {
    const at = location(backend);
    const [a, b] = [at(), at()];
    await a.dreams.capUsage(SPACE, DAY1);
    await b.dreams.capUsage(SPACE, DAY1);
    const limit = 7;
    const claims = Array.from({ length: 2 * limit }, (_, n) =>
      (n % 2 ? a : b).dreams.claimCap(SPACE, 'stale', DAY1, limit, 1 + (n % 3)),
    );
    const taken = (await Promise.all(claims)).reduce((sum, n) => sum + n, 0);
    expect(taken).toBe(limit);
    expect(await a.dreams.capUsage(SPACE, DAY1)).toEqual({ merge: 0, stale: limit });
  });

  it('counts live items per area, in area order', async () => {
    const store = location(backend)();
    const statuses = [
      ['b', 'active'],
      ['a/x', 'candidate'],
      ['b', 'archived'],
      ['b', 'challenged'],
      ['c', 'forgotten'],
      ['c', 'merged'],
      ['c', 'superseded'],
    ] as const;
    for (const [area, status] of statuses) await put(store, { area, status });
    await put(store, { area: 'd', space: 'elsewhere' });
    expect(await store.dreams.areas(SPACE)).toEqual([
      { area: 'a/x', items: 1 },
      { area: 'b', items: 3 },
    ]);
    expect(await store.dreams.areas('nowhere')).toEqual([]);
  });

  it('finds stale candidates with their last touch and their neighbours', async () => {
    const store = location(backend)();
    const d = (n: number) => T0 + n * DAY;
    const plain = await put(store);
    const touched = {
      accessed: await put(store, { last_accessed_at: d(5) }),
      used: await put(store, { last_used_at: d(6) }),
      updated: await put(store, { updated_at: d(7) }),
      versioned: await put(store, {}, { versions: [T0, d(8)] }),
      evented: await put(store, { status: 'candidate' }, { events: [d(9)] }),
      invalidated: await put(store, { status: 'challenged' }),
      linkedIn: await put(store),
    };
    const archived = await put(store, { status: 'archived', last_accessed_at: d(390) });
    await link(store, touched.invalidated.id, archived.id, T0, d(11));
    await link(store, archived.id, touched.linkedIn.id, d(12));
    const hot = await put(store, {
      created_at: d(300),
      last_accessed_at: d(390),
      last_used_at: d(395),
    });
    const warm = await put(store, { created_at: d(300), updated_at: d(350) });
    const near = {
      out: await put(store),
      in: await put(store),
      both: await put(store),
      dead: await put(store),
      inactive: await put(store),
    };
    await link(store, near.out.id, hot.id, T0);
    await link(store, warm.id, near.in.id, T0);
    await link(store, near.both.id, warm.id, T0);
    await link(store, hot.id, near.both.id, T0);
    await link(store, near.dead.id, hot.id, T0, d(1));
    await link(store, near.inactive.id, archived.id, T0);
    for (const over of [
      { pinned: true },
      { kind: 'skill' },
      { importance: 0.8 },
      { status: 'merged' },
      { status: 'forgotten' },
      { space: 'elsewhere' },
    ] as const)
      await put(store, over);

    const options = { createdBefore: d(100), maxImportance: 0.8, excludeKinds: ['skill'] };
    const all = await store.dreams.staleCandidates(SPACE, { ...options, limit: 100 });
    const touch = (item: ItemRecord) => all.find((c) => c.item.id === item.id);
    const expected = new Map<ItemRecord, [number, number | null]>([
      [plain, [T0, null]],
      [touched.accessed, [d(5), null]],
      [touched.used, [d(6), null]],
      [touched.updated, [d(7), null]],
      [touched.versioned, [d(8), null]],
      [touched.evented, [d(9), null]],
      [touched.invalidated, [d(11), null]],
      [touched.linkedIn, [d(12), null]],
      [near.out, [T0, d(395)]],
      [near.in, [T0, d(350)]],
      [near.both, [T0, d(395)]],
      [near.dead, [d(1), null]],
      [near.inactive, [T0, null]],
    ]);
    expect(all.map((c) => c.item.id)).toEqual([...expected.keys()].map((i) => i.id).sort());
    for (const [item, [last, neighbour]] of expected) {
      expect(touch(item)).toEqual({ item, last_touched_at: last, neighbour_touched_at: neighbour });
    }

    const paged: string[] = [];
    let afterId: string | undefined;
    for (;;) {
      const page = await store.dreams.staleCandidates(SPACE, { ...options, limit: 4, afterId });
      paged.push(...page.map((c) => c.item.id));
      if (page.length < 4) break;
      afterId = page[page.length - 1]!.item.id;
    }
    expect(paged).toEqual(all.map((c) => c.item.id));
    const noKinds = { ...options, excludeKinds: [], limit: 100 };
    expect(await store.dreams.staleCandidates(SPACE, noKinds)).toHaveLength(expected.size + 1);
  });

  it('tells when the last run started, per space or overall', async () => {
    const { dreams } = location(backend)();
    expect(await dreams.lastRunAt(null)).toBeUndefined();
    await start(dreams, { at: T0 + 5 });
    await start(dreams, { at: T0 + 3 });
    await start(dreams, { space: 'elsewhere', at: T0 + 8 });
    expect(await dreams.lastRunAt(SPACE)).toBe(T0 + 5);
    expect(await dreams.lastRunAt('elsewhere')).toBe(T0 + 8);
    expect(await dreams.lastRunAt(null)).toBe(T0 + 8);
    expect(await dreams.lastRunAt('nowhere')).toBeUndefined();
  });
});

/**
 * A process that opens the store file, waits until `startAt` (so both processes claim at once),
 * claims `tries` times under `limit` and prints how many it took.
 */
function claimer(dir: string, path: string, tries: number, limit: number, startAt: number) {
  const script = join(dir, `claimer-${Math.random().toString(36).slice(2)}.mts`);
  const store = pathToFileURL(resolve(import.meta.dirname, '../src/store/sqlite/sqlite-store.ts'));
  writeFileSync(
    script,
    `import { openSqliteStore } from ${JSON.stringify(store.href)};
const store = openSqliteStore({ path: ${JSON.stringify(path)} });
await new Promise((go) => setTimeout(go, Math.max(0, ${startAt} - Date.now())));
let taken = 0;
for (let n = 0; n < ${tries}; n++)
  if (await store.dreams.claimCap('${SPACE}', 'merge', '${DAY1}', ${limit})) taken++;
await store.close();
process.stdout.write(String(taken));
`,
  );
  return new Promise<number>((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: resolve(import.meta.dirname, '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) done(Number(out));
      else fail(new Error(`claimer exited ${code}: ${err}`));
    });
  });
}

describe('dream caps on one SQLite file', () => {
  it('gives a cap to exactly `limit` claims from two processes claiming at once', async () => {
    const dir = tempDir();
    const path = join(dir, 'engram.db');
    const store = location({ name: 'sqlite', fresh: () => ({}) }, path)();
    await store.dreams.capUsage(SPACE, DAY1); // the file exists and is migrated
    const limit = 150;
    const startAt = Date.now() + 4_000;
    const taken = await Promise.all([
      claimer(dir, path, limit, limit, startAt),
      claimer(dir, path, limit, limit, startAt),
    ]);
    expect(taken[0]! + taken[1]!).toBe(limit);
    expect(await store.dreams.capUsage(SPACE, DAY1)).toEqual({ merge: limit, stale: 0 });
  }, 120_000);
});
