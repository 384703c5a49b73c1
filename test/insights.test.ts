/**
 * Insights of a space (the console's health page): the store contract on SQLite always and on
 * PostgreSQL when ENGRAM_TEST_PG_URL names a server (creations by UTC day and kind, the count
 * before the period, status changes by day and new status, totals by status and the strength
 * histogram of live memories, other spaces left out); the facade's day-by-day running totals and
 * its `days` validation; and the recall latency recorder (bounded, percentiles, time buckets).
 */
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { ItemRecord } from '../src/domain/records.js';
import {
  bucketWidth,
  LATENCY_BUCKETS,
  percentiles,
  RecallLatency,
} from '../src/service/recall-latency.js';
import { openPostgresStore } from '../src/store/postgres/postgres-store.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { DayCount, Store } from '../src/store/store.js';
import { type Backend, BACKENDS } from './backends.js';
import { DAY, itemRecord, statusEvent, T0 } from './fixtures/store-records.js';
import { tempDir, testEngram } from './helpers.js';
import { PG_URL } from './postgres-helpers.js';

const HOUR = 3_600_000;
/** The UTC day number of T0. */
const D0 = T0 / DAY;

const opened: Store[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

/** A fresh, empty store on the backend (closed after the test). */
function freshStore(backend: Backend): Store {
  let store: Store;
  if (backend.name === 'sqlite') store = openSqliteStore({ path: join(tempDir(), 'engram.db') });
  else {
    const { schema } = backend.fresh().store as { schema: string };
    store = openPostgresStore({ url: PG_URL!, schema });
  }
  opened.push(store);
  return store;
}

/** An item with its status events (each: from, to, at), imported as a full record. */
async function put(
  store: Store,
  over: Partial<ItemRecord>,
  events: [ItemRecord['status'], ItemRecord['status'], number][] = [],
): Promise<void> {
  const item = itemRecord(over);
  const status_events = events.map(([from, to, at]) => ({
    ...statusEvent(from, to, at),
    item_id: item.id,
  }));
  const version = {
    item_id: item.id,
    version: 1,
    title: null,
    body: item.body,
    tags: [],
    actor: null,
    reason: null,
    created_at: item.created_at,
  };
  await store.importItems([{ item, versions: [version], status_events, vectors: [] }]);
}

/**
 * A small space: before the period (from T0 + 2 days) a note and two skills; in it two facts, a
 * rule and a preference; status changes in and before the period; another space's memory.
 */
async function seed(store: Store): Promise<void> {
  await put(store, { kind: 'note', created_at: T0, strength: 0.95 }, [
    ['candidate', 'active', T0 + HOUR],
  ]);
  await put(store, { kind: 'skill', created_at: T0 + DAY, strength: 0.3 });
  await put(store, { kind: 'skill', status: 'candidate', created_at: T0 + DAY, strength: 0.7 });
  await put(
    store,
    { kind: 'fact', status: 'forgotten', created_at: T0 + 2 * DAY, strength: 0.05 },
    [['active', 'forgotten', T0 + 3 * DAY]],
  );
  await put(store, { kind: 'fact', status: 'archived', created_at: T0 + 3 * DAY, strength: 0.5 }, [
    ['active', 'archived', T0 + 3 * DAY + 5 * HOUR],
  ]);
  await put(
    store,
    { kind: 'rule', status: 'superseded', created_at: T0 + 2 * DAY, strength: 0.35 },
    [['active', 'superseded', T0 + 4 * DAY]],
  );
  await put(store, { kind: 'preference', created_at: T0 + 4 * DAY + HOUR, strength: 1 });
  await put(store, { space: 'other', kind: 'fact', created_at: T0 + 3 * DAY, strength: 0.5 }, [
    ['active', 'archived', T0 + 3 * DAY],
  ]);
}

const sorted = (rows: DayCount[]) =>
  [...rows].sort((a, b) => a.day - b.day || a.key.localeCompare(b.key));

describe.each(BACKENDS)('insights store contract ($name)', (backend) => {
  it('counts creations and status changes by day, totals by status and the strength histogram', async () => {
    const store = freshStore(backend);
    await seed(store);
    const got = await store.insights('default', T0 + 2 * DAY);
    expect(got.kinds_before).toEqual({ note: 1, skill: 2 });
    expect(sorted(got.created)).toEqual([
      { day: D0 + 2, key: 'fact', count: 1 },
      { day: D0 + 2, key: 'rule', count: 1 },
      { day: D0 + 3, key: 'fact', count: 1 },
      { day: D0 + 4, key: 'preference', count: 1 },
    ]);
    expect(sorted(got.status_changes)).toEqual([
      { day: D0 + 3, key: 'archived', count: 1 },
      { day: D0 + 3, key: 'forgotten', count: 1 },
      { day: D0 + 4, key: 'superseded', count: 1 },
    ]);
    expect(got.by_status).toEqual({
      active: 3,
      candidate: 1,
      forgotten: 1,
      archived: 1,
      superseded: 1,
    });
    // Live only: the forgotten fact (0.05) and the superseded rule (0.35) are left out.
    expect(got.strength).toEqual([0, 0, 0, 1, 0, 1, 0, 1, 0, 2]);
  });

  it('answers zeros for an empty space', async () => {
    const store = freshStore(backend);
    await seed(store);
    expect(await store.insights('nobody', T0)).toEqual({
      kinds_before: {},
      created: [],
      status_changes: [],
      by_status: {},
      strength: new Array(10).fill(0),
    });
  });
});

describe('insights facade', () => {
  it('draws running totals by kind and the status changes of each day, with the totals', async () => {
    const engram = testEngram({ embedder: null, now: () => T0 + 5 * DAY + HOUR });
    await seed(engram.storeForTransfer);
    const got = await engram.insights({ days: 4 });
    expect([got.from, got.to, got.days]).toEqual(['2025-01-03', '2025-01-06', 4]);
    expect(got.timeline.map((d) => d.day)).toEqual([
      '2025-01-03',
      '2025-01-04',
      '2025-01-05',
      '2025-01-06',
    ]);
    const zeroKinds = { fact: 0, note: 1, preference: 0, rule: 0, skill: 2 };
    expect(got.timeline.map((d) => d.kinds)).toEqual([
      { ...zeroKinds, fact: 1, rule: 1 },
      { ...zeroKinds, fact: 2, rule: 1 },
      { ...zeroKinds, fact: 2, rule: 1, preference: 1 },
      { ...zeroKinds, fact: 2, rule: 1, preference: 1 },
    ]);
    const none = { archived: 0, forgotten: 0, superseded: 0 };
    expect(got.timeline.map((d) => d.status_changes)).toEqual([
      none,
      { ...none, archived: 1, forgotten: 1 },
      { ...none, superseded: 1 },
      none,
    ]);
    expect(got.totals).toEqual({
      items: 7,
      by_kind: { fact: 2, note: 1, preference: 1, rule: 1, skill: 2 },
      by_status: { active: 3, candidate: 1, forgotten: 1, archived: 1, superseded: 1 },
    });
    expect(got.strength.live).toBe(5);
    expect(got.strength.buckets[9]).toEqual({ from: 0.9, to: 1, count: 2 });
    expect(got.recall_latency).toMatchObject({ served: 0, count: 0, overall: null, buckets: [] });
  });

  it('defaults to 90 days and refuses a bad `days` naming the field', async () => {
    const engram = testEngram({ embedder: null });
    const got = await engram.insights();
    expect([got.days, got.timeline.length, got.totals.items]).toEqual([90, 90, 0]);
    for (const days of [0, 3651, 1.5, '7'])
      await expect(engram.insights({ days: days as number }), String(days)).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        details: { field: 'days' },
      });
  });

  it('times the recalls it serves', async () => {
    const engram = testEngram({ embedder: null });
    await engram.remember({ body: 'The deploy runs on Fridays.' });
    await engram.recall({ query: 'deploy' });
    await engram.recall({ query: 'Fridays' });
    await expect(engram.recall({ query: '' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    const { recall_latency: latency } = await engram.insights({ days: 1 });
    expect([latency.served, latency.count]).toEqual([2, 2]);
    expect(latency.overall!.p50).toBeGreaterThan(0);
    // Buckets run from the engram's start (a minute boundary may fall in between) to now.
    expect(latency.buckets.reduce((n, b) => n + b.count, 0)).toBe(2);
    expect(latency.buckets.at(-1)!.count).toBeGreaterThan(0);
  });
});

describe('recall latency recorder', () => {
  it('keeps only the most recent recalls, oldest first', () => {
    const latency = new RecallLatency(5, () => T0);
    for (let i = 1; i <= 8; i++) latency.record(i, T0 + i);
    expect(latency.samples().map((s) => s.ms)).toEqual([4, 5, 6, 7, 8]);
    expect(latency.summary()).toMatchObject({ served: 8, count: 5, capacity: 5 });
  });

  it('draws buckets from its start while it keeps every recall, then from the oldest kept', () => {
    let now = T0;
    const latency = new RecallLatency(2, () => now);
    now = T0 + 20 * 60_000;
    latency.record(5, T0 + 10 * 60_000);
    latency.record(6, T0 + 20 * 60_000);
    expect(latency.summary().buckets[0]!.start).toBe(T0);
    now = T0 + 30 * 60_000;
    latency.record(7, now);
    const summary = latency.summary();
    expect([summary.buckets[0]!.start, summary.bucket_ms]).toEqual([T0 + 20 * 60_000, 60_000]);
    expect(summary.buckets.map((b) => b.count).filter((n) => n > 0)).toEqual([1, 1]);
  });

  it('reports nearest-rank percentiles', () => {
    const durations = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentiles(durations)).toEqual({ p50: 50, p95: 95, p99: 99 });
    expect(percentiles([7])).toEqual({ p50: 7, p95: 7, p99: 7 });
    expect(percentiles([])).toBeNull();
  });

  it('buckets recalls by time, empty buckets included, within the bucket limit', () => {
    let now = T0;
    const latency = new RecallLatency(100, () => now);
    latency.record(10, T0 + 30_000);
    latency.record(30, T0 + 50_000);
    latency.record(20, T0 + 3 * 60_000);
    now = T0 + 4 * 60_000;
    const summary = latency.summary();
    expect(summary.bucket_ms).toBe(60_000);
    expect(summary.buckets.map((b) => [b.start - T0, b.count, b.percentiles?.p95])).toEqual([
      [0, 2, 30],
      [60_000, 0, undefined],
      [120_000, 0, undefined],
      [180_000, 1, 20],
      [240_000, 0, undefined],
    ]);
    expect(summary.overall).toEqual({ p50: 20, p95: 30, p99: 30 });
    now = T0 + 30 * DAY;
    expect(latency.summary().buckets.length).toBeLessThanOrEqual(LATENCY_BUCKETS);
    for (const span of [0, 59_999, 47 * 60_000, 3 * DAY, 400 * DAY])
      expect(Math.ceil(span / bucketWidth(span)) + 1).toBeLessThanOrEqual(LATENCY_BUCKETS);
  });
});
