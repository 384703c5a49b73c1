/**
 * Dormant recall (§9.3-§9.5) through the service: cooldowns, feedback, what it never changes,
 * privacy of its tables, retention, failure isolation, concurrency, restarts, byte-identical
 * ordinary output, export/import and configuration.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { loadConfig } from '../src/config/load.js';
import { bodyHash } from '../src/domain/text.js';
import { DAY_MS } from '../src/store/dormant/profile.js';
import { exportLines, importLines } from '../src/transfer/transfer.js';
import {
  type Clock,
  clock as newClock,
  dormantEngram,
  engramWithScorer,
  exec,
  lastEvent,
  memoryLogger,
  ordinaryFields,
  OTHERS,
  QUERY,
  rows,
  scene as standardScene,
  ScorerDouble,
  search,
  shadow,
  TARGET,
} from './dormant-helpers.js';
import { tempDir } from './helpers.js';

/** The standard scene with a single unrelated memory. */
const scene = (engram: Engram, clock: Clock, days = 60) =>
  standardScene(engram, clock, days, {}, OTHERS.slice(0, 1));

async function selectedEvent(engram: Engram) {
  await search(engram, QUERY);
  return lastEvent(engram);
}

describe('dormant recall: cooldowns and feedback', () => {
  it('pauses a selected memory for cooldown_days, then considers it again', async () => {
    const { engram, clock, path } = dormantEngram();
    const { target } = await scene(engram, clock);
    expect((await selectedEvent(engram)).candidate_id).toBe(target);
    const [state] = rows(path, 'dormant_recall_state');
    expect(state).toMatchObject({ item_id: target, cooldown_until: clock.now() + 7 * DAY_MS });
    clock.advanceDays(6.9);
    expect((await selectedEvent(engram)).candidate_id).toBeNull();
    clock.advanceDays(0.2);
    expect((await selectedEvent(engram)).candidate_id).toBe(target);
  });

  it('inspect shows the current content, marks shown_at and extends the cooldown', async () => {
    const { engram, clock, path } = dormantEngram();
    const { target } = await scene(engram, clock);
    const event = await selectedEvent(engram);
    clock.advanceDays(5);
    const inspection = await engram.dormantInspect({ event_id: event.id });
    expect(inspection.memory?.id).toBe(target);
    expect(inspection.memory?.body).toBe(TARGET);
    expect(inspection.eligible).toBe(true);
    expect(inspection.evidence.literal_overlap).toBe(true);
    expect(inspection.evidence.summary).toMatch(/not truth/);
    expect(inspection.event.shown_at).toBe(new Date(clock.now()).toISOString());
    const [state] = rows(path, 'dormant_recall_state');
    expect(state).toMatchObject({
      shown_at: clock.now(),
      cooldown_until: clock.now() + 7 * DAY_MS,
    });
    clock.advanceDays(5); // past the selection's cooldown, inside the inspection's
    expect((await selectedEvent(engram)).candidate_id).toBeNull();
  });

  it('inspect re-checks eligibility: a forgotten memory is not shown or marked', async () => {
    const { engram, clock, path } = dormantEngram();
    const { target } = await scene(engram, clock);
    const event = await selectedEvent(engram);
    await engram.forget(target);
    const inspection = await engram.dormantInspect(event.id);
    expect(inspection).toMatchObject({ memory: null, eligible: false, reason: 'status:forgotten' });
    expect(inspection.event.shown_at).toBeNull();
    expect(rows(path, 'dormant_recall_state')).toEqual([]);
  });

  it.each(['irrelevant', 'dismissed'] as const)(
    '%s feedback pauses the memory for feedback_cooldown_days, then it may return',
    async (category) => {
      const { engram, clock, path } = dormantEngram();
      const { target } = await scene(engram, clock);
      const event = await selectedEvent(engram);
      const result = await engram.dormantFeedback({ event_id: event.id, category });
      expect(result.changed).toBe(true);
      expect(result.cooldown_until).toBe(new Date(clock.now() + 30 * DAY_MS).toISOString());
      expect(rows(path, 'dormant_recall_state')[0]!.used_at).toBeNull();
      clock.advanceDays(29);
      expect((await selectedEvent(engram)).candidate_id).toBeNull();
      clock.advanceDays(1.1);
      expect((await selectedEvent(engram)).candidate_id).toBe(target);
    },
  );

  it('useful feedback records used_at and restarts dormancy', async () => {
    const config = { dormant_recall: shadow({ dormancy_days: 60, feedback_cooldown_days: 30 }) };
    const a = dormantEngram({ config });
    const b = dormantEngram({ config });
    for (const [env, category] of [
      [a, 'useful'],
      [b, 'irrelevant'],
    ] as const) {
      await scene(env.engram, env.clock, 90);
      const event = await selectedEvent(env.engram);
      await env.engram.dormantFeedback({ event_id: event.id, category });
      env.clock.advanceDays(31);
    }
    expect(rows(a.path, 'dormant_recall_state')[0]!.used_at).toBe(a.clock.now() - 31 * DAY_MS);
    // Past the feedback pause: the unhelpful one returns, the useful one is dormant only 31 days.
    expect((await selectedEvent(b.engram)).candidate_id).not.toBeNull();
    expect((await selectedEvent(a.engram)).candidate_id).toBeNull();
    a.clock.advanceDays(30);
    expect((await selectedEvent(a.engram)).candidate_id).not.toBeNull();
  });

  it('keeps one category per event: the same again is idempotent, another is refused', async () => {
    const { engram, clock } = dormantEngram();
    await scene(engram, clock);
    const event = await selectedEvent(engram);
    const first = await engram.dormantFeedback({ event_id: event.id, category: 'dismissed' });
    clock.advanceDays(1);
    const again = await engram.dormantFeedback({ event_id: event.id, category: 'dismissed' });
    expect(again.changed).toBe(false);
    expect(again.event).toEqual(first.event);
    expect(again.cooldown_until).toBe(first.cooldown_until);
    await expect(
      engram.dormantFeedback({ event_id: event.id, category: 'useful' }),
    ).rejects.toMatchObject({ code: 'CONFLICT', details: { field: 'category' } });
    await expect(
      engram.dormantFeedback({ event_id: event.id, category: 'great' as never }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', details: { field: 'category' } });
    await expect(
      engram.dormantFeedback({ event_id: 'NOPE', category: 'useful' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    clock.advanceDays(1);
    const none = await selectedEvent(engram);
    expect(none.candidate_id).toBeNull();
    await expect(
      engram.dormantFeedback({ event_id: none.id, category: 'useful' }),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('never changes access counts, last access, importance, strength or use records', async () => {
    const { engram, clock, path } = dormantEngram();
    const { target, fresh } = await scene(engram, clock);
    const before = ordinaryFields(path).filter((r) => r.id !== fresh);
    const useEvents = rows(path, 'use_events').length;
    const event = await selectedEvent(engram);
    expect(event.candidate_id).toBe(target);
    await engram.dormantInspect(event.id);
    await engram.dormantFeedback({ event_id: event.id, category: 'useful' });
    await engram.dormantReview();
    expect(ordinaryFields(path).filter((r) => r.id !== fresh)).toEqual(before);
    expect(rows(path, 'use_events')).toHaveLength(useEvents);
    await engram.idle(); // ordinary accesses are written behind recall (§3.6)
    expect((await engram.get(target)).access_count).toBe(0);
  });
});

describe('dormant recall: persistence, privacy and failure', () => {
  it('stores no query, query hash, words, memory text or embedding', async () => {
    const { engram, clock, path } = dormantEngram();
    await scene(engram, clock);
    const event = await selectedEvent(engram);
    await engram.dormantInspect(event.id);
    await engram.dormantFeedback({ event_id: event.id, category: 'useful' });
    const forbidden = [
      QUERY,
      ...QUERY.split(' ').filter((w) => w.length > 3),
      ...TARGET.split(/\W+/).filter((w) => w.length > 3),
      bodyHash(QUERY),
      createHash('sha256').update(QUERY).digest('hex').slice(0, 16),
    ].map((s) => s.toLowerCase());
    const cells = ['dormant_recall_events', 'dormant_recall_state'].flatMap((t) =>
      rows(path, t).flatMap((r) => Object.values(r)),
    );
    expect(cells.length).toBeGreaterThan(10);
    for (const cell of cells) {
      expect(cell instanceof Buffer).toBe(false);
      for (const word of forbidden) expect(String(cell).toLowerCase()).not.toContain(word);
    }
  });

  it('caps the log by count and age, and prunes state of memories no longer eligible', async () => {
    const { engram, clock, path } = dormantEngram({
      config: { dormant_recall: shadow({ log_max_events: 3, log_retention_days: 2 }) },
    });
    const { target } = await scene(engram, clock);
    for (let i = 0; i < 5; i++) await search(engram, QUERY);
    expect(rows(path, 'dormant_recall_events')).toHaveLength(3);
    clock.advanceDays(3);
    expect((await engram.dormantReview()).events).toEqual([]);
    expect(rows(path, 'dormant_recall_state')).toHaveLength(1);
    await engram.forget(target);
    await engram.dormantReview();
    expect(rows(path, 'dormant_recall_state')).toEqual([]);
  });

  it('a failing shadow write leaves ordinary recall identical', async () => {
    const log = memoryLogger();
    const broken = engramWithScorer(new ScorerDouble(() => 1), { log });
    const plain = dormantEngram({ clock: newClock(), config: { dormant_recall: { mode: 'off' } } });
    for (const env of [broken, plain]) await scene(env.engram, env.clock);
    await search(broken.engram, 'tea'); // creates the tables
    await search(plain.engram, 'tea');
    exec(
      broken.path,
      "CREATE TRIGGER refuse BEFORE INSERT ON dormant_recall_events BEGIN SELECT RAISE(ABORT, 'refused'); END",
    );
    const a = await search(broken.engram, QUERY, 2);
    const b = await search(plain.engram, QUERY, 2);
    const strip = (r: typeof a) => ({
      hits: r.hits.map(({ id: _id, ...h }) => h),
      degraded: r.degraded,
      decision: r.decision,
    });
    expect(strip(a)).toEqual(strip(b));
    expect(rows(broken.path, 'dormant_recall_events')).toHaveLength(1);
    const failure = log.lines.find((l) => l.message === 'dormant evaluation failed');
    expect(failure?.fields).toEqual({ error_type: 'INTERNAL' });
  });

  it('serialises two evaluators: one selection, the other sees the cooldown', async () => {
    const one = dormantEngram();
    const two = dormantEngram({ dir: one.dir, clock: one.clock });
    await scene(one.engram, one.clock);
    await Promise.all([
      one.engram.recall({ query: QUERY, k: 1 }),
      two.engram.recall({ query: QUERY, k: 1 }),
    ]);
    await Promise.all([one.engram.dormantIdle(), two.engram.dormantIdle()]);
    const events = rows(one.path, 'dormant_recall_events');
    expect(events).toHaveLength(2);
    expect(events.filter((e) => e.outcome === 'selected')).toHaveLength(1);
    expect(rows(one.path, 'dormant_recall_state')).toHaveLength(1);
  });

  it('persists across a restart: log, state and cooldown', async () => {
    const first = dormantEngram();
    const { target } = await scene(first.engram, first.clock);
    const event = await selectedEvent(first.engram);
    await first.engram.close();
    const again = dormantEngram({ dir: first.dir, clock: first.clock });
    const review = await again.engram.dormantReview();
    expect(review.events.map((e) => e.id)).toEqual([event.id]);
    expect((await again.engram.dormantInspect(event.id)).memory?.id).toBe(target);
    expect((await selectedEvent(again.engram)).candidate_id).toBeNull();
  });

  it('ordinary output is byte-identical with the mode off and shadow', async () => {
    const source = dormantEngram({ config: { dormant_recall: { mode: 'off' } } });
    await scene(source.engram, source.clock);
    const lines: string[] = [];
    for await (const line of exportLines(source.engram, null)) lines.push(line);
    const off = dormantEngram({
      clock: newClock(source.clock.now()),
      config: { dormant_recall: { mode: 'off' } },
    });
    const on = dormantEngram({ clock: newClock(source.clock.now()) });
    for (const env of [off, on]) await importLines(env.engram, lines);
    const queries = [
      QUERY,
      'green tea',
      'recovery runbook for the bastion',
      'nothing like this at all',
    ];
    for (const k of [1, 3]) {
      for (const query of queries) {
        const [a, b] = [await search(off.engram, query, k), await search(on.engram, query, k)];
        const body = (r: typeof a) =>
          JSON.stringify({ hits: r.hits, degraded: r.degraded, decision: r.decision });
        expect(body(b)).toBe(body(a));
      }
    }
    expect(rows(on.path, 'dormant_recall_events').length).toBe(8);
    expect(rows(off.path, 'dormant_recall_events')).toEqual([]);
  });

  it('export and import carry the telemetry', async () => {
    const { engram, clock } = dormantEngram();
    await scene(engram, clock);
    const event = await selectedEvent(engram);
    await engram.dormantFeedback({ event_id: event.id, category: 'irrelevant' });
    const lines: string[] = [];
    for await (const line of exportLines(engram, null)) lines.push(line);
    expect(lines.filter((l) => l.includes('"dormant_event"'))).toHaveLength(1);
    expect(lines.filter((l) => l.includes('"dormant_state"'))).toHaveLength(1);
    const copy = dormantEngram({ clock: newClock(clock.now()) });
    const report = await importLines(copy.engram, lines);
    expect(report.error).toBe(0);
    expect((await copy.engram.dormantReview()).events).toEqual(
      (await engram.dormantReview()).events,
    );
    expect((await importLines(copy.engram, lines)).exists).toBe(report.imported);
    // The imported cooldown holds in the copy.
    expect((await selectedEvent(copy.engram)).candidate_id).toBeNull();
  });
});

describe('dormant recall: configuration', () => {
  it('ENGRAM_DORMANT_RECALL_MODE=off overrides the file; YAML off and false both mean off', () => {
    const dir = tempDir();
    const file = join(dir, 'engram.yaml');
    writeFileSync(file, 'dormant_recall:\n  mode: shadow\n  candidate_limit: 80\n');
    expect(loadConfig({ file, env: {} }).dormant_recall).toMatchObject({
      mode: 'shadow',
      candidate_limit: 80,
    });
    expect(
      loadConfig({ file, env: { ENGRAM_DORMANT_RECALL_MODE: 'off' } }).dormant_recall.mode,
    ).toBe('off');
    for (const yaml of ['off', '"off"', 'false']) {
      writeFileSync(file, `dormant_recall:\n  mode: ${yaml}\n`);
      expect(loadConfig({ file, env: {} }).dormant_recall.mode).toBe('off');
    }
  });

  it.each([
    ['candidate_limit', 201],
    ['max_bonus', 0.11],
    ['log_max_events', 10_001],
  ])('refuses %s above its hard maximum', (key, value) => {
    expect(() => loadConfig({ env: {}, overrides: { dormant_recall: { [key]: value } } })).toThrow(
      expect.objectContaining({
        code: 'CONFIG_INVALID',
        details: expect.objectContaining({ field: `dormant_recall.${key}` }),
      }),
    );
  });

  it('a running process keeps the mode it loaded', async () => {
    const dir = tempDir();
    const file = join(dir, 'engram.yaml');
    writeFileSync(
      file,
      `store:\n  path: ${join(dir, 'engram.db')}\ndormant_recall:\n  mode: shadow\n`,
    );
    const { createEngram } = await import('../src/app.js');
    const { silentLogger } = await import('../src/domain/log.js');
    const { testCacheDir } = await import('./cache-dir.js');
    const c = newClock();
    const engram = createEngram({
      configFile: file,
      env: {},
      logger: silentLogger,
      background: false,
      now: c.now,
      config: { embedder: { cache_dir: testCacheDir() }, graph: { enabled: false } },
    });
    try {
      await scene(engram, c);
      writeFileSync(file, 'dormant_recall:\n  mode: "off"\n');
      process.env.ENGRAM_DORMANT_RECALL_MODE = 'off';
      await search(engram, QUERY);
      expect(rows(join(dir, 'engram.db'), 'dormant_recall_events')).toHaveLength(1);
    } finally {
      delete process.env.ENGRAM_DORMANT_RECALL_MODE;
      await engram.close();
    }
  });
});

void DAY_MS;
