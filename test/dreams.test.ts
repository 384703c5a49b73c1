/**
 * Consolidation (§10) through the service, on SQLite always and on PostgreSQL when
 * ENGRAM_TEST_PG_URL names a server: merges of near-duplicates (never of a different fact, a
 * pinned item or a preference), area folds, stale archival, skill upkeep, dry runs, the read-only
 * preview, daily caps across runs, a deadline that cuts a run short, restore and undo.
 */
import { createHash } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import type { ConfigInput } from '../src/config/schema.js';
import { EngramError } from '../src/domain/errors.js';
import type { Kind } from '../src/domain/types.js';
import { exportLines } from '../src/transfer/transfer.js';
import { type Backend, BACKENDS } from './backends.js';
import { tempDir, testEngram } from './helpers.js';
import { startOpenAiStandIn } from './support/openai-standin.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-06-01T12:00:00Z');

/** A clock the test moves. */
function clock(start = T0) {
  let t = start;
  return { now: () => t, set: (at: number) => (t = at), add: (ms: number) => (t += ms) };
}

function engramOn(backend: Backend, now: () => number, config: ConfigInput = {}, dir?: string) {
  return testEngram({ now, dir, config: { ...backend.fresh(), ...config } });
}

async function add(
  engram: Engram,
  body: string,
  extra: { kind?: Kind; area?: string; pinned?: boolean; importance?: number; title?: string } = {},
) {
  const { memory } = await engram.remember({ body, kind: 'note', ...extra });
  return memory.id;
}

async function exportHash(engram: Engram): Promise<string> {
  const hash = createHash('sha256');
  // Every record but the header, whose export time differs from one export to the next.
  for await (const line of exportLines(engram, null))
    if (!line.includes('"type":"engram-export"')) hash.update(line);
  return hash.digest('hex');
}

async function failure(promise: Promise<unknown>): Promise<EngramError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof EngramError) return err;
    throw err;
  }
  throw new Error('expected an EngramError');
}

const DUP_A = 'Alice prefers the dark theme in her code editor and uses it every day';
const DUP_B = 'In her code editor Alice prefers the dark theme and uses it every day';
const OTHER = 'The billing service deploys every Tuesday from the release branch';
const KEEPER = 'Alice prefers the dark theme in her code editor and uses it every day at work.';
const LESSER =
  'In her code editor Alice prefers the dark theme and uses it every day at work. It is easier on her eyes.';
const DIFFERENT_NUMBER = 'The build server has 16 cores and 64 GB of memory';
const DIFFERENT_NUMBER_2 = 'The build server has 32 cores and 64 GB of memory';

describe.each(BACKENDS)('dream runs ($name)', (backend) => {
  it('merges a near-duplicate into its keeper, and leaves a different fact alone', async () => {
    const c = clock();
    const engram = engramOn(backend, c.now);
    const keeper = await add(engram, DUP_A, { importance: 0.8 });
    const lesser = await add(engram, DUP_B);
    await add(engram, OTHER);
    const n1 = await add(engram, DIFFERENT_NUMBER);
    const n2 = await add(engram, DIFFERENT_NUMBER_2);
    const diary = await engram.dreamRun({ stages: ['duplicates'] });
    expect(diary.run.state).toBe('completed');
    expect(diary.run.diary).toBe('final');
    const merges = diary.entries.filter((e) => e.action === 'merge' && e.outcome === 'applied');
    expect(merges.map((e) => e.items)).toEqual([[lesser, keeper]]);
    expect((await engram.get(lesser)).status).toBe('merged');
    expect((await engram.get(keeper)).status).toBe('active');
    for (const id of [n1, n2]) expect((await engram.get(id)).status).toBe('active');
    const history = await engram.history(lesser);
    expect(history.relations.some((r) => r.type === 'merged_into' && r.to_id === keeper)).toBe(
      true,
    );
    const event = history.status_events.at(-1)!;
    expect(event).toMatchObject({ to_status: 'merged', reason: 'merge' });
    expect(event.actor).toBe(`dream:${diary.run.id}`);
  });

  it('never merges away a pinned item or a preference', async () => {
    const engram = engramOn(backend, clock().now);
    const a = await add(engram, DUP_A, { pinned: true });
    const b = await add(engram, DUP_B, { pinned: true });
    const p1 = await add(engram, DUP_A, { kind: 'preference' });
    const p2 = await add(engram, DUP_B, { kind: 'preference' });
    const diary = await engram.dreamRun({ stages: ['duplicates'] });
    expect(diary.entries.filter((e) => e.outcome === 'applied')).toEqual([]);
    for (const id of [a, b, p1, p2]) expect((await engram.get(id)).status).toBe('active');
  });

  it('a preview and a dry run change nothing; the dry run logs proposals', async () => {
    const engram = engramOn(backend, clock().now);
    const keeper = await add(engram, DUP_A);
    const lesser = await add(engram, DUP_B);
    const before = await exportHash(engram);
    const preview = await engram.dreamPreview();
    expect(preview.stages.map((s) => s.stage)).toEqual([
      'duplicates',
      'conflicts',
      'folds',
      'stale',
      'skills',
    ]);
    const dup = preview.stages.find((s) => s.stage === 'duplicates')!;
    expect(dup.proposals.map((p) => p.items)).toEqual([[lesser, keeper]]);
    expect(preview.stages.find((s) => s.stage === 'stale')!.off).toMatch(/stale archival is off/);
    expect(await exportHash(engram)).toBe(before);
    expect((await engram.dreamRuns()).runs).toEqual([]);
    const dry = await engram.dreamRun({ dry_run: true });
    expect(dry.run.dry_run).toBe(true);
    expect(dry.entries.map((e) => e.outcome)).toEqual(['proposed']);
    expect(await exportHash(engram)).toBe(before);
  });

  it('undo restores the merged item and the keeper body; a second undo is refused', async () => {
    const engram = engramOn(backend, clock().now);
    const keeper = await add(engram, KEEPER);
    const lesser = await add(engram, LESSER);
    const diary = await engram.dreamRun({ stages: ['duplicates'] });
    const merged = diary.entries.find((e) => e.outcome === 'applied');
    expect(merged?.items).toEqual([lesser, keeper]);
    const revised = await engram.get(keeper);
    expect(revised.version).toBe(2);
    expect(revised.body).toBe(`${KEEPER} It is easier on her eyes.`);
    const report = await engram.dreamUndo(diary.run.id);
    expect(report.not_restored).toEqual([]);
    expect(report.restored).toHaveLength(1);
    expect((await engram.get(lesser)).status).toBe('active');
    const back = await engram.get(keeper);
    expect(back.body).toBe(KEEPER);
    expect(back.version).toBe(3);
    const live = (await engram.history(lesser)).relations.filter((r) => !r.invalidated_at);
    expect(live).toEqual([]);
    expect((await engram.dreamDiary(diary.run.id)).run.undone_at).not.toBeNull();
    expect((await failure(engram.dreamUndo(diary.run.id))).code).toBe('CONFLICT');
  });

  it('a run whose batch fails after part of it committed logs that part, and undoes it', async () => {
    const engram = engramOn(backend, clock().now);
    const ids = [await add(engram, KEEPER), await add(engram, LESSER), await add(engram, DUP_A)];
    const before = await Promise.all(ids.map((id) => engram.get(id)));
    const store = engram.storeForTransfer;
    const mutate = store.mutate.bind(store);
    let calls = 0;
    store.mutate = (...args) => {
      // The second transaction of the merge batch fails after the first committed.
      if (++calls === 2) return Promise.reject(new Error('disk full'));
      return mutate(...args);
    };
    const diary = await engram.dreamRun({ stages: ['duplicates'] });
    store.mutate = mutate;
    expect(diary.run.state).toBe('failed');
    expect(calls).toBeGreaterThanOrEqual(2);
    const applied = diary.entries.filter((e) => e.outcome === 'applied');
    expect(applied).toHaveLength(1);
    const merged = await engram.get(applied[0]!.items[0]!);
    expect(merged.status).toBe('merged');
    const report = await engram.dreamUndo(diary.run.id);
    expect(report.not_restored).toEqual([]);
    const after = await Promise.all(ids.map((id) => engram.get(id)));
    expect(after.map((m) => [m.status, m.body])).toEqual(before.map((m) => [m.status, m.body]));
  });

  it('undo leaves alone what changed since, and says why', async () => {
    const engram = engramOn(backend, clock().now);
    await add(engram, DUP_A);
    const lesser = await add(engram, DUP_B);
    const diary = await engram.dreamRun({ stages: ['duplicates'] });
    await engram.forget(lesser);
    const report = await engram.dreamUndo(diary.run.id);
    expect(report.restored).toEqual([]);
    expect(report.not_restored).toEqual([
      expect.objectContaining({
        item: lesser,
        reason: 'changed since: the memory is now forgotten',
      }),
    ]);
    expect((await engram.get(lesser)).status).toBe('forgotten');
  });

  it('restore of a merged item alone keeps the keeper revision', async () => {
    const engram = engramOn(backend, clock().now);
    const keeper = await add(engram, KEEPER);
    const lesser = await add(engram, LESSER);
    await engram.dreamRun({ stages: ['duplicates'] });
    const restored = await engram.restore(lesser);
    expect(restored.status).toBe('active');
    expect((await engram.get(keeper)).version).toBe(2);
    const live = (await engram.history(lesser)).relations.filter((r) => !r.invalidated_at);
    expect(live).toEqual([]);
  });

  it('folds an area-name variant whose contents agree, and leaves a similar name alone', async () => {
    const engram = engramOn(backend, clock().now);
    const billing = [
      'The invoice run for customers happens on the first of each month',
      'Billing retries failed card payments three times before suspending',
      'Refunds over five hundred euros need approval from finance',
      'The billing service sends invoices as PDF by email to customers',
    ];
    for (const body of billing) await add(engram, body, { area: 'projects/billing' });
    const moved = [
      await add(engram, 'Customer invoices are emailed as PDF files by the billing service', {
        area: 'Projects/Billing',
      }),
      await add(engram, 'Failed card payments are retried three times by billing', {
        area: 'Projects/Billing',
      }),
    ];
    for (const body of [
      'The new office building has a gym on the ground floor',
      'Construction of the building annex starts in the spring',
    ])
      await add(engram, body, { area: 'projects/building' });
    const diary = await engram.dreamRun({ stages: ['folds'] });
    const folds = diary.entries.filter((e) => e.action === 'fold' && e.outcome === 'applied');
    expect(folds).toHaveLength(1);
    expect(folds[0]!.detail).toMatchObject({
      from_area: 'Projects/Billing',
      to_area: 'projects/billing',
    });
    expect([...folds[0]!.items].sort()).toEqual([...moved].sort());
    for (const id of moved) expect((await engram.get(id)).area).toBe('projects/billing');
    const building = await engram.list({ areas: ['projects/building'] });
    expect(building.items.map((m) => m.area)).toEqual(['projects/building', 'projects/building']);
    // Each moved item can be restored on its own.
    expect((await engram.restore(moved[0]!)).area).toBe('Projects/Billing');
    expect((await engram.get(moved[1]!)).area).toBe('projects/billing');
    const report = await engram.dreamUndo(diary.run.id);
    expect(report.not_restored.map((n) => n.item)).toEqual([moved[0]]);
    expect((await engram.get(moved[1]!)).area).toBe('Projects/Billing');
  });

  it('archives stale items only when enabled, untouched, and with no touched neighbour', async () => {
    const c = clock(T0 - 2 * 365 * DAY);
    const engram = engramOn(backend, c.now, { dream: { stale: { enabled: true } } });
    const stale = await add(engram, 'An old note about the 2019 offsite agenda');
    const accessed = await add(engram, 'An old note about the parking rules');
    const neighbour = await add(engram, 'An old note about the team lunch place');
    const friend = await add(engram, 'The team lunch place changed to the Thai restaurant');
    const pinned = await add(engram, 'An old pinned note', { pinned: true });
    const pref = await add(engram, 'Bob likes short meetings', { kind: 'preference' });
    const important = await add(engram, 'The root password rotation policy', { importance: 0.9 });
    await engram.relate(neighbour, friend);
    c.set(T0 - 30 * DAY);
    await engram.recall({ query: 'parking rules', k: 1 });
    await engram.revise(friend, {
      body: 'The team lunch place changed to the Thai restaurant nearby',
    });
    c.set(T0);
    const diary = await engram.dreamRun({ stages: ['stale'] });
    const archived = diary.entries.filter((e) => e.outcome === 'applied').map((e) => e.items[0]);
    expect(archived).toEqual([stale]);
    expect((await engram.get(stale)).status).toBe('archived');
    for (const id of [accessed, neighbour, friend, pinned, pref, important])
      expect((await engram.get(id)).status).toBe('active');
    expect((await engram.restore(stale)).status).toBe('active');
  });

  it('skips stale archival by default', async () => {
    const engram = engramOn(backend, clock().now);
    const diary = await engram.dreamRun({ stages: ['stale'] });
    expect(diary.run.stages.find((s) => s.stage === 'stale')).toMatchObject({
      state: 'skipped',
      note: expect.stringMatching(/off/),
    });
    expect(diary.run.state).toBe('completed');
  });

  it('dedupes skills and caps active skills per area by lowest use', async () => {
    const engram = engramOn(backend, clock().now, {
      dream: { skills: { max_active_per_area: 2 } },
    });
    const steps = '1. Run the tests\n2. Tag the release\n3. Push the tag';
    const keep = await add(engram, steps, { kind: 'skill', title: 'Release', area: 'ops' });
    const dupe = await add(engram, `- Run the tests\n- Tag the release\n- Push the tag`, {
      kind: 'skill',
      title: 'release!',
      area: 'ops',
    });
    const used = await add(engram, 'Rotate the keys monthly', {
      kind: 'skill',
      title: 'Keys',
      area: 'ops',
    });
    const unused = await add(engram, 'Clean the cache folder', {
      kind: 'skill',
      title: 'Cache',
      area: 'ops',
    });
    await engram.observeMemoryUsage([keep, used]);
    const diary = await engram.dreamRun({ stages: ['skills'] });
    const applied = diary.entries.filter((e) => e.outcome === 'applied');
    expect(applied.map((e) => [e.action, e.items[0]])).toEqual([
      ['skill_dedupe', dupe],
      ['skill_cap', unused],
    ]);
    expect((await engram.get(dupe)).status).toBe('archived');
    expect((await engram.get(unused)).status).toBe('archived');
    expect((await engram.get(used)).status).toBe('active');
    await engram.restore(dupe);
    expect((await engram.history(dupe)).relations.filter((r) => !r.invalidated_at)).toEqual([]);
  });

  it('respects the daily merge cap across runs', async () => {
    const c = clock();
    const engram = engramOn(backend, c.now, { dream: { duplicates: { daily_cap: 1 } } });
    await add(engram, DUP_A);
    await add(engram, DUP_B);
    await add(engram, 'Bob keeps his meeting notes in a plain text file on his laptop');
    await add(engram, 'On his laptop Bob keeps his meeting notes in a plain text file');
    const first = await engram.dreamRun({ stages: ['duplicates'] });
    const outcomes = first.entries.map((e) => e.outcome).sort();
    expect(outcomes).toEqual(['applied', 'skipped']);
    expect(first.entries.find((e) => e.outcome === 'skipped')!.reason).toMatch(/daily cap/);
    const second = await engram.dreamRun({ stages: ['duplicates'] });
    expect(second.entries.map((e) => e.outcome)).toEqual(['skipped']);
    c.add(DAY);
    const third = await engram.dreamRun({ stages: ['duplicates'] });
    expect(third.entries.map((e) => e.outcome)).toEqual(['applied']);
  });

  it('two concurrent runs on one store stay within the cap', async () => {
    const dir = tempDir();
    const fresh = backend.fresh();
    const c = clock();
    const config = { ...fresh, dream: { duplicates: { daily_cap: 2 } } };
    const a = testEngram({ now: c.now, dir, config });
    for (let i = 0; i < 5; i++) {
      await add(a, `Project ${'ABCDE'[i]} keeps its design notes in the shared drive folder`);
      await add(a, `In the shared drive folder project ${'ABCDE'[i]} keeps its design notes`);
    }
    const b = testEngram({ now: c.now, dir, config });
    const runs = await Promise.all([a.dreamRun(), b.dreamRun()]);
    const applied = runs.flatMap((r) => r.entries.filter((e) => e.outcome === 'applied'));
    expect(applied).toHaveLength(2);
    const merged = (await a.list({ statuses: ['merged'] })).items;
    expect(merged).toHaveLength(2);
  });

  it('a deadline cuts a run short: unfinished stages cut_short, the diary partial', async () => {
    let t = T0;
    // Every reading of the clock moves it a minute: the 1-minute deadline passes mid-run.
    const engram = engramOn(backend, () => (t += 60_000), { dream: { deadline_minutes: 3 } });
    await add(engram, DUP_A);
    await add(engram, DUP_B);
    const diary = await engram.dreamRun();
    expect(diary.run.state).toBe('cut_short');
    expect(diary.run.diary).toBe('partial');
    expect(diary.run.reason).toBe('deadline reached');
    expect(diary.run.stages.some((s) => s.state === 'cut_short')).toBe(true);
    expect(diary.run.stages.every((s) => s.state !== 'running' && s.state !== 'pending')).toBe(
      true,
    );
  });

  it('folds an area by hand, with a dry run first; refuses system, equal and empty areas', async () => {
    const engram = engramOn(backend, clock().now);
    const a = await add(engram, OTHER, { area: 'Ops' });
    const b = await add(engram, DUP_A, { area: 'Ops' });
    await engram.forget(b);
    const dry = await engram.foldArea('Ops', 'ops', { dry_run: true });
    expect({ ...dry, items: [...dry.items].sort() }).toEqual({
      from: 'Ops',
      to: 'ops',
      dry_run: true,
      items: [a, b].sort(),
    });
    expect((await engram.get(a)).area).toBe('Ops');
    const done = await engram.foldArea('Ops', 'ops');
    expect([...done.items].sort()).toEqual([a, b].sort());
    for (const id of [a, b]) expect((await engram.get(id)).area).toBe('ops');
    expect(await engram.areas()).toEqual([{ area: 'ops', items: 1 }]);
    for (const [from, to, field] of [
      ['_system', 'ops', 'from'],
      ['ops', '_system', 'to'],
      ['ops', 'ops', 'to'],
      ['Ops', 'ops', 'from'],
    ] as const) {
      const err = await failure(engram.foldArea(from, to));
      expect(err.code).toBe('INVALID_INPUT');
      expect(err.details.field).toBe(field);
    }
  });

  it('restore undoes a move', async () => {
    const engram = engramOn(backend, clock().now);
    const id = await add(engram, OTHER, { area: 'ops' });
    await engram.move(id, 'projects/billing');
    expect((await engram.restore(id)).area).toBe('ops');
    expect((await engram.restore(id)).area).toBe('ops');
  });
});

describe('dream runs as background work', () => {
  it('a dream.run job makes a run that names the job', async () => {
    const engram = testEngram({ now: clock().now });
    await add(engram, DUP_A);
    const lesser = await add(engram, DUP_B);
    const job = await engram.runJobHere({ kind: 'dream.run', space: 'default' });
    expect(job.state).toBe('succeeded');
    const diary = await engram.dreamDiary();
    expect(diary.run.job_id).toBe(job.id);
    expect(job.progress).toMatchObject({ run_id: diary.run.id, state: 'completed' });
    expect((await engram.get(lesser)).status).toBe('merged');
  });

  it('the nightly schedule follows dream.schedule', () => {
    const off = testEngram({ now: clock().now });
    const stopped = off.startDreamSchedule();
    expect(stopped.next_run_at).toBeNull();
    const on = testEngram({
      config: { dream: { schedule: { enabled: true, time: '04:30', utc: true } } },
    });
    const schedule = on.startDreamSchedule();
    try {
      expect(schedule.next_run_at).toMatch(/T04:30:00\.000Z$/);
    } finally {
      schedule.stop();
    }
  });
});

describe('conflicts judged by a decision adapter (OpenAI-compatible stand-in chat server)', () => {
  it('without an adapter that judges conflicts, the stage does nothing and says why', async () => {
    const engram = testEngram({ now: clock().now });
    await add(engram, DIFFERENT_NUMBER);
    await add(engram, DIFFERENT_NUMBER_2);
    const diary = await engram.dreamRun({ stages: ['conflicts'] });
    expect(diary.run.stages.find((s) => s.stage === 'conflicts')).toMatchObject({
      state: 'skipped',
      note: expect.stringMatching(/no decision adapter that judges conflicts/),
    });
    expect(diary.entries).toEqual([]);
  });

  it('records the later memory superseding the earlier, undone with its run', async () => {
    const server = await startOpenAiStandIn();
    try {
      const c = clock();
      const engram = testEngram({
        now: c.now,
        config: {
          recall: {
            decision: {
              adapter: 'openai-compatible',
              openai: { base_url: server.url, model: 'judge' },
            },
          },
        },
      });
      const earlier = await add(engram, DIFFERENT_NUMBER);
      c.add(DAY);
      const later = await add(engram, DIFFERENT_NUMBER_2);
      const diary = await engram.dreamRun({ stages: ['conflicts'] });
      const applied = diary.entries.filter((e) => e.outcome === 'applied');
      expect(applied.map((e) => [e.action, e.items])).toEqual([['supersede', [earlier, later]]]);
      expect(applied[0]!.detail.probability).toBeGreaterThanOrEqual(0.5);
      expect((await engram.get(earlier)).status).toBe('superseded');
      const relations = (await engram.history(earlier)).relations;
      expect(relations.some((r) => r.type === 'supersedes' && r.from_id === later)).toBe(true);
      const chat = server.requests.filter((r) => r.path.endsWith('/chat/completions'));
      expect(JSON.stringify(chat[0]!.body)).toContain('<earlier>');
      await engram.dreamUndo(diary.run.id);
      expect((await engram.get(earlier)).status).toBe('active');
    } finally {
      await server.close();
    }
  });
});
