/**
 * The SQLite store's exact vector scan in WebAssembly memory (the SIMD kernel, src/domain/simd-dot.ts)
 * answers exactly as the portable scan: same items, same scores bit for bit, across chunks, spaces,
 * filters, removals; and a matrix that outgrows WebAssembly memory moves to an ordinary array
 * without losing a vector.
 */

import { describe, expect, it, vi } from 'vitest';

import type { ItemFilter } from '../src/domain/filter.js';
import { SimdArena } from '../src/domain/simd-dot.js';
import { STATUSES } from '../src/domain/types.js';
import { ANN_DEFAULTS } from '../src/store/sqlite/ann-search.js';
import { openSqliteStore, type SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { storeFiles } from './fixtures/store-files.js';
import { draft, MODEL, randomUnit, seeded, T0 } from './fixtures/store-records.js';

const DIM = 24;
const { freshPath, track } = storeFiles('engram-scan-');

const filter = (space: string, extra: Partial<ItemFilter> = {}): ItemFilter => ({
  space,
  statuses: STATUSES,
  ...extra,
});

/**
 * A store that always scans exactly (no HNSW index), its vector mirror made now (the first search
 * makes it, with an arena if one can be made).
 */
async function open(path: string): Promise<SqliteStore> {
  const store = track(openSqliteStore({ path, ann: { ...ANN_DEFAULTS, enabled: false } }));
  await store.vectorSearch(filter('default'), MODEL, new Float32Array(DIM).fill(0.2), 1);
  return store;
}

/** The same file scanned by the portable loop: its mirror gets no arena. */
async function portable(path: string): Promise<SqliteStore> {
  const create = vi.spyOn(SimdArena, 'create').mockReturnValue(null);
  const store = await open(path);
  expect(create).toHaveBeenCalled();
  create.mockRestore();
  return store;
}

async function fill(store: SqliteStore, space: string, n: number, seed: number): Promise<string[]> {
  const random = seeded(seed);
  const ids: string[] = [];
  for (let start = 0; start < n; start += 500) {
    const batch = Array.from({ length: Math.min(500, n - start) }, (_, j) =>
      draft(
        {
          space,
          body: `memory ${space} ${seed}-${start + j}`,
          kind: (start + j) % 3 === 0 ? 'rule' : 'note',
          created_at: T0 + start + j,
        },
        randomUnit(random, DIM),
      ),
    );
    for (const outcome of await store.createItems(batch)) ids.push(outcome.item.id);
  }
  return ids;
}

async function sameAnswers(a: SqliteStore, b: SqliteStore, filters: ItemFilter[], seed: number) {
  const random = seeded(seed);
  let hits = 0;
  for (let q = 0; q < 12; q++) {
    const query = randomUnit(random, DIM);
    for (const f of filters)
      for (const k of [1, 10, 200]) {
        const want = await b.vectorSearch(f, MODEL, query, k);
        expect(await a.vectorSearch(f, MODEL, query, k)).toEqual(want);
        hits += want.length;
      }
  }
  expect(hits).toBeGreaterThan(0);
}

describe('exact vector scan with the SIMD kernel', () => {
  it('answers as the portable scan over one space, across chunks of rows', async () => {
    const path = freshPath();
    const store = await open(path);
    await fill(store, 'default', 9_000, 1);
    await sameAnswers(store, await portable(path), [filter('default')], 2);
  });

  it('answers as the portable scan with several spaces, filters and removed items', async () => {
    const path = freshPath();
    const store = await open(path);
    const a = await fill(store, 'a', 5_000, 3);
    await fill(store, 'b', 4_500, 4);
    for (const id of a.slice(100, 400))
      await store.purge('a', id, { actor: null, reason: 'test', at: T0 });
    const filters = [filter('a'), filter('b'), filter('b', { kinds: ['rule'] }), filter('c')];
    await sameAnswers(store, await portable(path), filters, 5);
  });

  it('moves the matrix to an ordinary array when WebAssembly memory cannot grow, losing nothing', async () => {
    const path = freshPath();
    const writer = await open(path);
    await fill(writer, 'default', 3_000, 6);
    const reference = await portable(path);
    await sameAnswers(writer, reference, [filter('default')], 7);
    // Past this point every growth of an arena fails, as it would past 4 GiB.
    const reserve = vi.spyOn(SimdArena.prototype, 'reserve').mockImplementation(() => {
      throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
    });
    await fill(writer, 'default', 3_000, 8);
    await sameAnswers(writer, reference, [filter('default')], 9);
    expect(reserve).toHaveBeenCalled();
    // A store opened now starts with an arena that cannot grow beyond its first rows.
    await sameAnswers(await open(path), reference, [filter('default')], 10);
  });
});
