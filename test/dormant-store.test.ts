/**
 * The DormantStore contract (§9.5), run against SQLite always and against PostgreSQL when
 * ENGRAM_TEST_PG_URL names a server: lazy tables, the exact scan and its eligibility rules,
 * serialised recording with the content re-check, exposure and feedback rules, pruning, and
 * export/import. Each test gets a fresh store.
 */
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { ItemRecord } from '../src/domain/records.js';
import { DORMANT_KINDS } from '../src/store/dormant/profile.js';
import type { DormantRecordRequest, DormantStore } from '../src/store/dormant-store.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/store.js';
import { DAY, draft, MODEL, T0, unit } from './fixtures/store-records.js';
import { tempDir } from './helpers.js';
import { PG_URL, schemaStore } from './postgres-helpers.js';

type Opened = { store: Store; dormant: DormantStore; tables(): Promise<string[]> };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const backends: [string, () => Promise<Opened>][] = [
  [
    'sqlite',
    async () => {
      const store = openSqliteStore({ path: join(tempDir(), 'engram.db') });
      cleanups.push(() => store.close());
      const tables = async () =>
        (
          store.connection
            .prepare(
              "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'dormant%' ORDER BY name",
            )
            .all() as { name: string }[]
        ).map((r) => r.name);
      return { store, dormant: store.dormant, tables };
    },
  ],
];
if (PG_URL)
  backends.push([
    'postgres',
    async () => {
      const { store, cleanup } = schemaStore();
      cleanups.push(cleanup);
      const tables = async () => {
        const pg = await import('pg');
        const client = new pg.default.Client({ connectionString: PG_URL });
        await client.connect();
        try {
          const r = await client.query(
            "SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename LIKE 'dormant%' ORDER BY tablename",
            [store.schema],
          );
          return r.rows.map((x: { tablename: string }) => x.tablename);
        } finally {
          await client.end();
        }
      };
      return { store, dormant: store.dormant, tables };
    },
  ]);

const NOW = T0 + 100 * DAY;
const eligibility = { kinds: DORMANT_KINDS, dormantBefore: NOW - 30 * DAY, now: NOW };
const retention = { maxEvents: 1000, before: NOW - 30 * DAY };
const Q = unit(1, 0, 0, 0, 0, 0, 0, 0);

async function seed(
  store: Store,
  items: [Partial<ItemRecord>, Float32Array][],
): Promise<ItemRecord[]> {
  await store.publishModel(MODEL, 8, T0);
  const out = await store.createItems(items.map(([o, v]) => draft(o, v)));
  return out.map((o) => o.item);
}

function recordRequest(
  ranked: ItemRecord[],
  id = `E${Math.random().toString(36).slice(2, 12)}`,
): DormantRecordRequest {
  return {
    event: {
      id,
      space: 'default',
      at: NOW,
      algorithm: 'dormant-v1/exact-cosine/test',
      model: MODEL,
      outcome: 'none',
      error_type: null,
      candidate_count: ranked.length,
      above_floor: ranked.length,
      checked: ranked.length,
      passed: ranked.length,
      query_terms: 3,
      duration_ms: 1,
    },
    ranked: ranked.map((i) => ({
      id: i.id,
      version: i.version,
      body_hash: i.body_hash,
      raw_relevance: 0.9,
      relevance_score: 0.8,
      bonus: 0.01,
      dormant_days: 100,
      overlap_terms: 1,
    })),
    eligibility,
    cooldownUntil: NOW + 7 * DAY,
    retention,
  };
}

describe.each(backends)('DormantStore contract: %s', (_name, open) => {
  it('creates its two tables lazily, on the first review', async () => {
    const { dormant, tables } = await open();
    expect(await tables()).toEqual([]);
    await dormant.scan({
      filter: { space: 'default', statuses: ['active'] },
      eligibility,
      model: MODEL,
      vector: Q,
      exclude: [],
      limit: 5,
    });
    expect(await tables()).toEqual([]);
    expect(await dormant.review('default', 10, retention, DORMANT_KINDS)).toEqual([]);
    expect(await tables()).toEqual(['dormant_recall_events', 'dormant_recall_state']);
  });

  it('scans exactly, eligible items only, best first with ties by id', async () => {
    const { store, dormant } = await open();
    const items = await seed(store, [
      [{ body: 'a' }, unit(1, 0.1, 0, 0, 0, 0, 0, 0)],
      [{ body: 'b' }, unit(1, 0.2, 0, 0, 0, 0, 0, 0)],
      [{ body: 'tie-1' }, unit(1, 0.3, 0, 0, 0, 0, 0, 0)],
      [{ body: 'tie-2' }, unit(1, 0.3, 0, 0, 0, 0, 0, 0)],
      [{ body: 'far' }, unit(0, 1, 0, 0, 0, 0, 0, 0)],
      [{ body: 'archived', status: 'archived' }, unit(1, 0, 0, 0, 0, 0, 0, 0)],
      [{ body: 'episode', kind: 'episode' }, unit(1, 0, 0, 0, 0, 0, 0, 0)],
      [{ body: 'young', created_at: NOW - 5 * DAY }, unit(1, 0, 0, 0, 0, 0, 0, 0)],
      [{ body: 'accessed', last_accessed_at: NOW - DAY }, unit(1, 0, 0, 0, 0, 0, 0, 0)],
      [{ body: 'other space', space: 'other' }, unit(1, 0, 0, 0, 0, 0, 0, 0)],
      [{ body: 'excluded' }, unit(1, 0, 0, 0, 0, 0, 0, 0)],
    ]);
    const byBody = new Map(items.map((i) => [i.body, i]));
    const { hits, scanned } = await dormant.scan({
      filter: { space: 'default', statuses: ['active'] },
      eligibility,
      model: MODEL,
      vector: Q,
      exclude: [byBody.get('excluded')!.id],
      limit: 4,
    });
    expect(scanned).toBe(5);
    const ties = [byBody.get('tie-1')!.id, byBody.get('tie-2')!.id].sort();
    expect(hits.map((h) => h.id)).toEqual([byBody.get('a')!.id, byBody.get('b')!.id, ...ties]);
    expect(hits[0]!.cosine).toBeCloseTo(1 / Math.sqrt(1.01), 5);
    expect(hits[0]!.dormant_since).toBe(T0);
  });

  it('records one selection, re-checking content and cooldown inside the lock', async () => {
    const { store, dormant } = await open();
    const [a, b] = await seed(store, [
      [{ body: 'first' }, unit(1, 0, 0, 0, 0, 0, 0, 0)],
      [{ body: 'second' }, unit(1, 0.1, 0, 0, 0, 0, 0, 0)],
    ]);
    const [one, two] = await Promise.all([
      dormant.record(recordRequest([a!, b!])),
      dormant.record(recordRequest([a!])),
    ]);
    const chosen = [one!.candidate_id, two!.candidate_id];
    expect(chosen.filter((c) => c === a!.id)).toHaveLength(1);
    // A stale version is never selected.
    const stale = { ...b!, version: 99 };
    const third = await dormant.record(recordRequest([stale]));
    expect(third!.candidate_id).toBeNull();
    expect((await dormant.state('default', a!.id))!.cooldown_until).toBe(NOW + 7 * DAY);
  });

  it('marks shown, takes one feedback category, extends cooldowns and restarts dormancy', async () => {
    const { store, dormant } = await open();
    const [a] = await seed(store, [[{ body: 'first' }, unit(1, 0, 0, 0, 0, 0, 0, 0)]]);
    const event = (await dormant.record(recordRequest([a!])))!;
    const shown = await dormant.markShown(
      'default',
      event.id,
      NOW + DAY,
      NOW + 8 * DAY,
      DORMANT_KINDS,
    );
    expect(shown!.shown_at).toBe(NOW + DAY);
    const fb = await dormant.feedback(
      'default',
      event.id,
      'useful',
      NOW + 2 * DAY,
      NOW + 32 * DAY,
      DORMANT_KINDS,
    );
    expect(fb).toMatchObject({
      changed: true,
      event: { feedback: 'useful', feedback_at: NOW + 2 * DAY },
    });
    const again = await dormant.feedback(
      'default',
      event.id,
      'useful',
      NOW + 3 * DAY,
      NOW + 40 * DAY,
      DORMANT_KINDS,
    );
    expect(again!.changed).toBe(false);
    await expect(
      dormant.feedback(
        'default',
        event.id,
        'dismissed',
        NOW + 3 * DAY,
        NOW + 40 * DAY,
        DORMANT_KINDS,
      ),
    ).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await dormant.state('default', a!.id)).toMatchObject({
      retrieved_at: NOW,
      shown_at: NOW + DAY,
      used_at: NOW + 2 * DAY,
      cooldown_until: NOW + 32 * DAY,
    });
    // Dormancy restarts at the useful feedback (cooldown left out of this scan).
    const scanAt = (dormantBefore: number) =>
      dormant.scan({
        filter: { space: 'default', statuses: ['active'] },
        eligibility: { kinds: DORMANT_KINDS, dormantBefore, now: null },
        model: MODEL,
        vector: Q,
        exclude: [],
        limit: 5,
      });
    expect((await scanAt(NOW - 10 * DAY)).hits).toEqual([]);
    expect((await scanAt(NOW + 2 * DAY)).hits.map((h) => h.id)).toEqual([a!.id]);
  });

  it('prunes by count, age and ineligible state; exports and imports', async () => {
    const { store, dormant } = await open();
    const [a] = await seed(store, [[{ body: 'first' }, unit(1, 0, 0, 0, 0, 0, 0, 0)]]);
    for (let i = 0; i < 4; i++) await dormant.record(recordRequest(i === 0 ? [a!] : []));
    expect(
      await dormant.review('default', 10, { ...retention, maxEvents: 2 }, DORMANT_KINDS),
    ).toHaveLength(2);
    const events = [];
    for await (const e of dormant.exportEvents(null)) events.push(e);
    const states = [];
    for await (const s of dormant.exportStates(null)) states.push(s);
    expect(events).toHaveLength(2);
    expect(states).toHaveLength(1);
    expect(await dormant.importEvents(events)).toEqual(['exists', 'exists']);
    expect(await dormant.importStates(states)).toEqual(['exists']);
    await store.mutate('default', [a!.id], () => ({
      changes: [{ id: a!.id, patch: { status: 'forgotten' } }],
    }));
    expect(await dormant.prune('default', retention, DORMANT_KINDS)).toBe(true);
    expect(await dormant.state('default', a!.id)).toBeUndefined();
    expect(
      await dormant.review('default', 10, { maxEvents: 10, before: NOW + 1 }, DORMANT_KINDS),
    ).toEqual([]);
  });
});
