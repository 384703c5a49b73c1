/**
 * Identical vectors share one point of the HNSW graph (src/store/sqlite/ann-shared.ts): the graph
 * holds one point per distinct vector and space, and answers stay those of the exact scan through
 * adds, revisions, purges of a shared point, saving and reloading.
 */

import { describe, expect, it, vi } from 'vitest';

import type { ItemFilter } from '../src/domain/filter.js';
import type { ItemRecord } from '../src/domain/records.js';
import { STATUSES } from '../src/domain/types.js';
import { HnswIndex } from '../src/store/sqlite/ann-index.js';
import { ANN_DEFAULTS } from '../src/store/sqlite/ann-search.js';
import { SharedPoints } from '../src/store/sqlite/ann-shared.js';
import { openSqliteStore, type SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { storeFiles } from './fixtures/store-files.js';
import { draft, MODEL, randomUnit, seeded, T0 } from './fixtures/store-records.js';

const DIM = 16;
const { freshPath, track, release } = storeFiles('engram-shared-');

function open(path: string, enabled = true): SqliteStore {
  const store = openSqliteStore({ path, ann: { ...ANN_DEFAULTS, min_items: 50, enabled } });
  return track(store);
}

const all = (space = 'default'): ItemFilter => ({ space, statuses: STATUSES });

/** `groups` distinct vectors, each stored `copies` times (different bodies, one vector). */
async function fillCopies(
  store: SqliteStore,
  groups: number,
  copies: number,
  seed: number,
  space = 'default',
): Promise<{ item: ItemRecord; vector: Float32Array }[]> {
  const random = seeded(seed);
  const vectors = Array.from({ length: groups }, () => randomUnit(random, DIM));
  const drafts = vectors.flatMap((vector, g) =>
    Array.from({ length: copies }, (_, c) => ({
      d: draft({ space, body: `memory ${seed} ${g} ${c}`, created_at: T0 + g }, vector),
      vector,
    })),
  );
  const outcomes = await store.createItems(drafts.map((d) => d.d));
  return outcomes.map((o, i) => ({ item: o.item, vector: drafts[i]!.vector }));
}

async function sameAsExact(ann: SqliteStore, reference: SqliteStore, seed: number) {
  const random = seeded(seed);
  for (let q = 0; q < 15; q++) {
    const query = randomUnit(random, DIM);
    for (const k of [1, 10, 40]) {
      const got = await ann.vectorSearchReport(all(), MODEL, query, k);
      expect(got.degraded).toBeUndefined();
      const want = await reference.vectorSearch(all(), MODEL, query, k);
      expect(got.hits).toEqual(want);
    }
  }
}

describe('identical vectors share one point of the graph', () => {
  it('holds one point per distinct vector and finds every copy', async () => {
    const path = freshPath();
    const ann = open(path);
    const items = await fillCopies(ann, 120, 4, 1);
    const create = vi.spyOn(HnswIndex, 'create');
    await ann.vectorIndex.flush(MODEL, DIM);
    const graph = create.mock.results[0]!.value as HnswIndex;
    await sameAsExact(ann, open(path, false), 2);
    // Every copy of a group comes back, with the same score.
    const hits = await ann.vectorSearch(all(), MODEL, items[0]!.vector, 4);
    expect(new Set(hits.map((h) => h.id))).toEqual(
      new Set(items.slice(0, 4).map((i) => i.item.id)),
    );
    expect(new Set(hits.map((h) => h.score)).size).toBe(1);
    expect(graph.slots).toBe(120);
  });

  it('passes a point to a copy when its item is purged or revised, and keeps spaces apart', async () => {
    const path = freshPath();
    const ann = open(path);
    const items = await fillCopies(ann, 80, 3, 3);
    const other = await fillCopies(ann, 80, 1, 3, 'other');
    await ann.vectorIndex.flush(MODEL, DIM);
    const writer = open(path, false);
    // The first copy of each of the first 20 groups: the point, in all likelihood.
    for (const g of items.filter((_, i) => i % 3 === 0).slice(0, 20))
      await writer.purge('default', g.item.id, { actor: null, reason: 'test', at: T0 });
    const random = seeded(4);
    for (const g of items.filter((_, i) => i % 3 === 1).slice(20, 30))
      await writer.mutate('default', [g.item.id], () => ({
        changes: [
          {
            id: g.item.id,
            version: { title: null, body: 'revised', tags: [], actor: null, reason: null, at: T0 },
            vector: { model: MODEL, vector: randomUnit(random, DIM) },
          },
        ],
      }));
    await sameAsExact(ann, writer, 5);
    await ann.vectorIndex.flush(MODEL, DIM);
    await sameAsExact(ann, writer, 6);
    // The same vectors in another space are points of their own there.
    const theirs = await ann.vectorSearch(all('other'), MODEL, other[7]!.vector, 1);
    expect(theirs[0]!.id).toBe(other[7]!.item.id);
  });

  it('finds the copies riding on each point again after the index is saved and loaded', async () => {
    const path = freshPath();
    const first = open(path);
    await fillCopies(first, 100, 3, 7);
    await first.vectorIndex.flush(MODEL, DIM);
    await release(first);
    const reopened = open(path);
    await sameAsExact(reopened, open(path, false), 8);
    expect(reopened.vectorIndex.status()[0]).toMatchObject({ loaded_from_file: true, pending: 0 });
    // Copies added after the load ride on the loaded points.
    const more = await fillCopies(reopened, 100, 4, 7);
    await reopened.vectorIndex.flush(MODEL, DIM);
    expect(more.filter((m) => m.item.body.endsWith(' 3'))).toHaveLength(100);
    await sameAsExact(reopened, open(path, false), 9);
  });

  it('finds an item that was a point and now rides on another after a reload', async () => {
    const path = freshPath();
    const first = open(path);
    const items = await fillCopies(first, 100, 1, 11);
    await first.vectorIndex.flush(MODEL, DIM);
    // The first 10 items take the vectors of the next 10: their points are deleted in the graph.
    for (let i = 0; i < 10; i++)
      await first.mutate('default', [items[i]!.item.id], () => ({
        changes: [
          {
            id: items[i]!.item.id,
            version: {
              title: null,
              body: `moved ${i}`,
              tags: [],
              actor: null,
              reason: null,
              at: T0,
            },
            vector: { model: MODEL, vector: items[10 + i]!.vector },
          },
        ],
      }));
    await first.vectorSearch(all(), MODEL, items[10]!.vector, 1);
    await first.vectorIndex.flush(MODEL, DIM);
    await release(first);
    const reopened = open(path);
    await sameAsExact(reopened, open(path, false), 12);
    for (let i = 0; i < 10; i++) {
      const hits = await reopened.vectorSearch(all(), MODEL, items[10 + i]!.vector, 2);
      expect(new Set(hits.map((h) => h.id))).toEqual(
        new Set([items[i]!.item.id, items[10 + i]!.item.id]),
      );
    }
  });
});

describe('SharedPoints', () => {
  const vector = (seed: number) => randomUnit(seeded(seed), DIM);
  const index = () => HnswIndex.create(DIM, { m: 8, ef_construction: 50, ef_search: 50 }, 100);

  it('registers the first of identical vectors as the point and lets the others ride', () => {
    const graph = index();
    const points = new SharedPoints();
    for (const pk of [1, 2, 3]) points.upsert(graph, pk, vector(1), 0);
    points.upsert(graph, 4, vector(2), 0);
    points.upsert(graph, 5, vector(1), 1);
    expect(graph.slots).toBe(3);
    expect(points.sharing(1)).toEqual([1, 2, 3]);
    expect(points.sharing(5)).toBeUndefined();
    expect(points.riders).toBe(2);
    // Placing the same vector again changes nothing.
    points.upsert(graph, 2, vector(1), 0);
    expect(points.sharing(1)).toEqual([1, 2, 3]);
  });

  it('hands the point on when it goes, and lets a changed vector leave its group', () => {
    const graph = index();
    const points = new SharedPoints();
    for (const pk of [1, 2, 3]) points.upsert(graph, pk, vector(1), 0);
    points.remove(graph, 1);
    expect(graph.holds(1)).toBe(false);
    expect(graph.holds(2)).toBe(true);
    expect([...graph.vectorOf(2)]).toEqual([...vector(1)]);
    expect(points.sharing(2)).toEqual([2, 3]);
    points.upsert(graph, 3, vector(9), 0);
    expect(points.sharing(2)).toBeUndefined();
    expect(graph.holds(3)).toBe(true);
    // A new copy of the first vector rides on the point that carries it now.
    points.upsert(graph, 6, vector(1), 0);
    expect(points.sharing(2)).toEqual([2, 6]);
    points.remove(graph, 6);
    points.remove(graph, 2);
    expect(points.riders).toBe(0);
    expect(graph.holds(2)).toBe(false);
  });

  it('rebuilds riders from the vectors of the items, and returns those with no point', () => {
    const graph = index();
    const held = new SharedPoints();
    for (const pk of [1, 2, 3]) held.upsert(graph, pk, vector(1), 0);
    held.upsert(graph, 4, vector(2), 0);
    const vectors = new Map([
      [1, vector(1)],
      [2, vector(1)],
      [3, vector(1)],
      [4, vector(2)],
      [7, vector(3)],
    ]);
    const rebuilt = new SharedPoints();
    const loose = rebuilt.rebuild(graph, [...vectors.keys()], {
      vectorOf: (pk) => vectors.get(pk),
      spaceOf: () => 0,
    });
    expect(rebuilt.sharing(1)).toEqual([1, 2, 3]);
    expect(loose).toEqual([7]);
  });
});
