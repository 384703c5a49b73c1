/**
 * The PostgreSQL keyword channel's plan for large stores (src/store/postgres/keyword.ts), forced
 * on a small store: with no common terms it gives exactly the plain answer (every matching row
 * scored, frequencies counted afresh); with common terms, only rows holding a rarer term are
 * candidates and they keep the scores the plain answer gives them; cached frequencies are
 * counted again once the store's row estimate has drifted, and a search whose terms are all
 * cached asks the server nothing else while the estimate is fresh; stop words, NUL and query
 * syntax in terms are plain text.
 */
import { afterEach, describe, expect, it } from 'vitest';

import type { ItemFilter } from '../src/domain/filter.js';
import { STATUSES } from '../src/domain/types.js';
import { PG_KEYWORD_PLAN, PgKeywordSearch } from '../src/store/postgres/keyword.js';
import type { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { keywordCorpus, WORDS } from './fixtures/keyword-corpus.js';
import { draft, seeded, T0 } from './fixtures/store-records.js';
import { PG_URL, schemaStore } from './postgres-helpers.js';

const all = (extra: Partial<ItemFilter> = {}): ItemFilter => ({
  space: 'default',
  statuses: STATUSES,
  ...extra,
});

/** The plain answer: every matching row scored, frequencies counted on every search. */
const plain = () => new PgKeywordSearch({ ...PG_KEYWORD_PLAN, planMinRows: Infinity });
/** The large-store plan on a small store: with no term common, or with "team" common. */
const noCommon = (extra: Partial<typeof PG_KEYWORD_PLAN> = {}) =>
  new PgKeywordSearch({
    ...PG_KEYWORD_PLAN,
    planMinRows: 0,
    commonFraction: 1,
    commonMinRows: Infinity,
    ...extra,
  });
const teamCommon = () =>
  new PgKeywordSearch({
    ...PG_KEYWORD_PLAN,
    planMinRows: 0,
    commonFraction: 0.5,
    commonMinRows: 1,
  });

/** The store's queries, each statement's start recorded in `calls`. */
function countingQueries(store: PostgresStore) {
  const calls: string[] = [];
  const counting = {
    query: <R>(sql: string, params?: unknown[]) => {
      calls.push(sql.trimStart().slice(0, 16));
      return store.query(sql, params) as Promise<R[]>;
    },
  };
  return { calls, counting };
}

describe.skipIf(!PG_URL)('PostgreSQL keyword plan for large stores', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  /** The keyword corpus (600 items) in a new schema. */
  async function fill(): Promise<PostgresStore> {
    const opened = schemaStore();
    cleanup = opened.cleanup;
    await opened.store.createItems(keywordCorpus());
    return opened.store;
  }

  it('without common terms: the same hits and scores as the plain answer, cache and all', async () => {
    const store = await fill();
    const planned = noCommon();
    const random = seeded(6);
    for (let q = 0; q < 30; q++) {
      const terms = [WORDS[q % WORDS.length]!, `w${Math.floor(random() * 400)}`, 'team'];
      const filter = q % 3 === 0 ? all({ tags: ['rare'] }) : all();
      // Twice: counted, then from the cache.
      for (let pass = 0; pass < 2; pass++)
        expect(await planned.search(store, filter, terms, 10)).toEqual(
          await plain().search(store, filter, terms, 10),
        );
    }
  });

  it('lets common terms score rows with a rarer term, and leaves rows with only common terms out', async () => {
    const store = await fill();
    const planned = teamCommon();
    const terms = ['heron', 'team'];
    const got = await planned.search(store, all(), terms, 20);
    const full = new Map(
      (await plain().search(store, all(), terms, 1000)).map((h) => [h.id, h.score]),
    );
    const withHeron = new Set(
      (await plain().search(store, all(), ['heron'], 1000)).map((h) => h.id),
    );
    expect(withHeron.size).toBeGreaterThan(20);
    expect(full.size).toBeGreaterThan(withHeron.size);
    expect(got).toHaveLength(20);
    for (const hit of got) {
      expect(withHeron.has(hit.id)).toBe(true);
      expect(hit.score).toBeCloseTo(full.get(hit.id)!, 10);
    }
    const best = [...full].filter(([id]) => withHeron.has(id)).sort((a, b) => b[1] - a[1]);
    expect(got.map((h) => h.score)).toEqual(best.slice(0, got.length).map(([, s]) => s));
  });

  it('counts a cached frequency again once the row estimate has drifted by a fifth', async () => {
    const store = await fill();
    await store.query('ANALYZE items');
    const planned = noCommon({ rowsTtlMs: 0 });
    const before = await planned.search(store, all(), ['heron', 'team'], 5);
    expect(before).toEqual(await plain().search(store, all(), ['heron', 'team'], 5));
    // A tenth more rows, all with "heron": within the drift, the cached frequency still counts.
    await store.createItems(
      Array.from({ length: 60 }, (_, i) =>
        draft({ body: `heron colony ${i}`, created_at: T0 + 1000 + i }),
      ),
    );
    await store.query('ANALYZE items');
    const within = await planned.search(store, all(), ['heron', 'team'], 5);
    const fresh = await plain().search(store, all(), ['heron', 'team'], 5);
    expect(within.map((h) => h.id)).toEqual(fresh.map((h) => h.id));
    expect(within[0]!.score).not.toBeCloseTo(fresh[0]!.score, 10);
    // Past a fifth: counted again, the plain answer exactly.
    await store.createItems(
      Array.from({ length: 120 }, (_, i) =>
        draft({ body: `heron nest ${i}`, created_at: T0 + 2000 + i }),
      ),
    );
    await store.query('ANALYZE items');
    expect(await planned.search(store, all(), ['heron', 'team'], 5)).toEqual(
      await plain().search(store, all(), ['heron', 'team'], 5),
    );
  });

  it('asks nothing but the search itself once the estimate is fresh and every term cached', async () => {
    const store = await fill();
    const { calls, counting } = countingQueries(store);
    const plan = { ...PG_KEYWORD_PLAN, planMinRows: 0 };
    const cached = new PgKeywordSearch({ ...plan, rowsTtlMs: 60_000 });
    const first = await cached.search(counting, all(), ['heron', 'team'], 5);
    expect(calls).toHaveLength(2);
    expect(await cached.search(counting, all(), ['team', 'heron'], 5)).toEqual(first);
    expect(calls).toHaveLength(3);
    // A new term, or an estimate past its time, is asked for again.
    await cached.search(counting, all(), ['heron', 'maple'], 5);
    expect(calls).toHaveLength(5);
    const expiring = new PgKeywordSearch({ ...plan, rowsTtlMs: 0 });
    await expiring.search(counting, all(), ['heron', 'team'], 5);
    await expiring.search(counting, all(), ['heron', 'team'], 5);
    expect(calls).toHaveLength(9);
  });

  it('answers a store known to be small in one statement, with the scores counting first gives', async () => {
    const store = await fill();
    const { calls, counting } = countingQueries(store);
    const small = new PgKeywordSearch({ ...PG_KEYWORD_PLAN, planMinRows: Infinity });
    // The first search counts (the store's size is not known yet): two statements.
    await small.search(counting, all(), ['heron'], 5);
    expect(calls).toHaveLength(2);
    const random = seeded(11);
    for (let q = 0; q < 20; q++) {
      const terms = [WORDS[q % WORDS.length]!, `w${Math.floor(random() * 400)}`, 'team', 'the'];
      if (q % 4 === 1) terms.push('nowhere');
      const filter = q % 3 === 0 ? all({ tags: ['rare'] }) : all();
      const before = calls.length;
      const got = await small.search(counting, filter, terms, 10);
      expect(calls.length - before).toBe(1);
      expect(got.length).toBeGreaterThan(0);
      // A fresh searcher counts first, then ranks: the same hits, the same scores bit for bit.
      expect(got).toEqual(await plain().search(store, filter, terms, 10));
    }
    expect(await small.search(counting, all(), ['the', 'and'], 5)).toEqual([]);
    expect(await small.search(counting, all(), ['nowhere', 'unheard'], 5)).toEqual([]);
  });

  it('takes stop words, NUL and query syntax as plain text on both paths', async () => {
    const store = await fill();
    const planned = teamCommon();
    for (const search of [planned, plain()]) {
      expect(await search.search(store, all(), ['the', 'and'], 5)).toEqual([]);
      for (const weird of ["'", '!', 'team:*', '&', '|', '(', 'a<->b', '\u0000', 'the'])
        expect((await search.search(store, all(), [weird, 'heron'], 5)).length).toBeGreaterThan(0);
    }
  });
});
