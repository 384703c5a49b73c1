/**
 * The keyword channel's plan for large stores (src/store/sqlite/fts-search.ts), forced on small
 * stores: over-fetching from the full-text index then filtering gives exactly the plain BM25
 * answer, a filter too selective for over-fetching falls back to it, and common terms only
 * score rows that hold a rarer term, with the same scores plain BM25 gives those rows; a
 * creation-time window read in its key range gives exactly the plain answer.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { ItemFilter } from '../src/domain/filter.js';
import { STATUSES } from '../src/domain/types.js';
import { FTS_PLAN_DEFAULTS, FtsSearch } from '../src/store/sqlite/fts-search.js';
import { openSqliteStore, type SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { keywordCorpus, WORDS } from './fixtures/keyword-corpus.js';
import { draft, seeded, T0 } from './fixtures/store-records.js';

let store: SqliteStore | undefined;
let dir: string | undefined;

afterEach(async () => {
  await store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  store = undefined;
});

const all = (extra: Partial<ItemFilter> = {}): ItemFilter => ({
  space: 'default',
  statuses: STATUSES,
  ...extra,
});

/** The keyword corpus (600 items) in a new store. */
async function fill(): Promise<SqliteStore> {
  dir = mkdtempSync(join(tmpdir(), 'engram-fts-'));
  store = openSqliteStore({ path: join(dir, 'engram.db') });
  await store.createItems(keywordCorpus());
  return store;
}

/** The plain answer: one joined BM25 query over every term (the plan's small-store path). */
function plain(s: SqliteStore): FtsSearch {
  return new FtsSearch(s.connection, { ...FTS_PLAN_DEFAULTS, planMinRows: Infinity });
}

describe('keyword plan for large stores', () => {
  it('over-fetches from the index, then filters: the same hits and scores as plain BM25', async () => {
    const s = await fill();
    const planned = new FtsSearch(s.connection, {
      ...FTS_PLAN_DEFAULTS,
      planMinRows: 0,
      commonFraction: 1,
      commonMinRows: Infinity,
    });
    const random = seeded(6);
    for (let q = 0; q < 30; q++) {
      const terms = [WORDS[q % WORDS.length]!, `w${Math.floor(random() * 400)}`, 'team'];
      expect(planned.search(all(), terms, 10)).toEqual(plain(s).search(all(), terms, 10));
    }
  });

  it('fetches deeper, then falls back to the joined query, when the filter is too selective', async () => {
    const s = await fill();
    const filter = all({ tags: ['rare'] });
    const want = plain(s).search(filter, ['team'], 5);
    expect(want).toHaveLength(5);
    for (const overfetchMax of [FTS_PLAN_DEFAULTS.overfetchMax, 0]) {
      const planned = new FtsSearch(s.connection, {
        ...FTS_PLAN_DEFAULTS,
        planMinRows: 0,
        commonFraction: 1,
        commonMinRows: Infinity,
        overfetchMax,
      });
      expect(planned.search(filter, ['team'], 5)).toEqual(want);
    }
  });

  it('lets common terms score rows with a rarer term, and leaves rows with only common terms out', async () => {
    const s = await fill();
    const planned = new FtsSearch(s.connection, {
      ...FTS_PLAN_DEFAULTS,
      planMinRows: 0,
      commonFraction: 0.5,
      commonMinRows: 1,
    });
    const terms = ['heron', 'team'];
    const got = planned.search(all(), terms, 20);
    const full = new Map(
      plain(s)
        .search(all(), terms, 1000)
        .map((h) => [h.id, h.score]),
    );
    const withHeron = new Set(
      plain(s)
        .search(all(), ['heron'], 1000)
        .map((h) => h.id),
    );
    expect(withHeron.size).toBeGreaterThan(20);
    expect(got).toHaveLength(20);
    for (const hit of got) {
      expect(withHeron.has(hit.id)).toBe(true);
      expect(hit.score).toBeCloseTo(full.get(hit.id)!, 10);
    }
    const best = [...full].filter(([id]) => withHeron.has(id)).sort((a, b) => b[1] - a[1]);
    expect(got.map((h) => h.id)).toEqual(best.slice(0, got.length).map(([id]) => id));
  });

  it('searches FTS syntax in terms as plain text on the planned path too', async () => {
    const s = await fill();
    const planned = new FtsSearch(s.connection, {
      ...FTS_PLAN_DEFAULTS,
      planMinRows: 0,
      commonFraction: 0.5,
      commonMinRows: 1,
    });
    for (const weird of ['"', 'NEAR(', 'team*', 'AND', '^', 'a:b', '\u0000'])
      expect(() => planned.search(all(), [weird, 'team', 'heron'], 5)).not.toThrow();
  });

  describe('when the rarest term is itself in many rows', () => {
    /** 420 items: "alpha" in about 70% of them, "beta" 60%, "gamma" 40%, independently. */
    async function mixed(): Promise<SqliteStore> {
      dir = mkdtempSync(join(tmpdir(), 'engram-fts-'));
      store = openSqliteStore({ path: join(dir, 'engram.db') });
      const random = seeded(11);
      const drafts = Array.from({ length: 400 }, (_, i) => {
        const words = [`filler${i}`];
        if (random() < 0.7) words.push('alpha');
        if (random() < 0.6) words.push('beta');
        if (random() < 0.4) words.push('gamma');
        for (let k = Math.floor(random() * 5); k > 0; k--) words.push(`pad${k}`);
        return draft({ body: words.join(' '), created_at: T0 + i });
      });
      // Short rows saying "gamma" three times outrank rows holding "gamma" and words in most rows.
      for (let i = 0; i < 20; i++)
        drafts.push(draft({ body: `gamma gamma gamma solo${i}`, created_at: T0 + 400 + i }));
      await store.createItems(drafts);
      return store;
    }
    const conjunctive = (s: SqliteStore, conjunctionMinRows: number) =>
      new FtsSearch(s.connection, {
        ...FTS_PLAN_DEFAULTS,
        planMinRows: 0,
        commonFraction: 1,
        commonMinRows: Infinity,
        conjunctionMinRows,
      });
    const ids = (s: SqliteStore, terms: string[]) =>
      new Set(
        plain(s)
          .search(all(), terms, 1000)
          .map((h) => h.id),
      );

    it('takes candidates from rows holding its two rarest terms, scored as plain BM25 scores them', async () => {
      const s = await mixed();
      const terms = ['alpha', 'beta', 'gamma'];
      const gamma = ids(s, ['gamma']);
      const beta = ids(s, ['beta']);
      const both = [...gamma].filter((id) => beta.has(id));
      expect(both.length).toBeGreaterThan(50);
      const full = new Map(
        plain(s)
          .search(all(), terms, 1000)
          .map((h) => [h.id, h.score]),
      );
      // The plain answer holds rows without "beta"; the plan takes rows holding both.
      expect(
        plain(s)
          .search(all(), terms, 10)
          .some((h) => !beta.has(h.id)),
      ).toBe(true);
      const got = conjunctive(s, 10).search(all(), terms, 10);
      expect(got).toHaveLength(10);
      for (const hit of got) {
        expect(gamma.has(hit.id) && beta.has(hit.id)).toBe(true);
        expect(hit.score).toBeCloseTo(full.get(hit.id)!, 10);
      }
      const best = both.map((id) => full.get(id)!).sort((a, b) => b - a);
      expect(got.map((h) => h.score)).toEqual(best.slice(0, 10));
    });

    it('falls back to the rarest term alone when too few rows hold both', async () => {
      const s = await mixed();
      const terms = ['alpha', 'beta', 'gamma'];
      const both = [...ids(s, ['gamma'])].filter((id) => ids(s, ['beta']).has(id));
      const limit = both.length + 10;
      expect(conjunctive(s, 10).search(all(), terms, limit)).toEqual(
        conjunctive(s, Infinity).search(all(), terms, limit),
      );
    });
  });

  describe('a creation-time window read in its key range', () => {
    const windowed = (s: SqliteStore, extra: Partial<typeof FTS_PLAN_DEFAULTS> = {}) =>
      new FtsSearch(s.connection, { ...FTS_PLAN_DEFAULTS, planMinRows: 0, ...extra });

    it('gives the plain answer, other filters included', async () => {
      const s = await fill();
      const random = seeded(7);
      for (let q = 0; q < 20; q++) {
        const from = T0 + Math.floor(random() * 500);
        const filter = all({
          created_after: from,
          created_before: from + 1 + Math.floor(random() * 150),
          ...(q % 4 === 0 && { statuses: ['active' as const] }),
        });
        const terms = [WORDS[q % WORDS.length]!, `w${Math.floor(random() * 400)}`, 'team'];
        const want = plain(s).search(filter, terms, 10);
        expect(windowed(s).search(filter, terms, 10)).toEqual(want);
      }
      const tagged = all({ created_after: T0, created_before: T0 + 300, tags: ['rare'] });
      expect(windowed(s).search(tagged, ['team'], 5)).toEqual(plain(s).search(tagged, ['team'], 5));
      expect(windowed(s).search(all({ created_after: T0 + 10_000 }), ['team'], 5)).toEqual([]);
    });

    it('leaves a window too large or too scattered to the other plans, with the same answer', async () => {
      const s = await fill();
      const filter = all({ created_after: T0 + 50, created_before: T0 + 250 });
      const want = plain(s).search(filter, ['heron', 'team'], 10);
      expect(want).toHaveLength(10);
      for (const extra of [{ windowMaxRows: 100 }, { windowMaxSpread: 0.5 }])
        expect(windowed(s, extra).search(filter, ['heron', 'team'], 10)).toEqual(want);
    });
  });
});
