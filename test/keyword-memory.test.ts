/**
 * The in-memory keyword index (src/store/sqlite/keyword-memory.ts): it answers with FTS5's own
 * BM25 (the same items, order and scores as the plain FTS5 query) over English, German, Chinese
 * and Thai text with titles and tags; it follows writes of its own connection and of another one
 * (new, edited, forgotten and deleted items), never answers inside a transaction that changed
 * indexed text, builds a larger store in the background (FTS5 answering meanwhile), and filters
 * it cannot apply itself go through the store's filter check; `status` tells where it stands, and a failure of its own work leaves FTS5 answering.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { ItemFilter } from '../src/domain/filter.js';
import { keywordTerms } from '../src/domain/text.js';
import { STATUSES } from '../src/domain/types.js';
import { FTS_PLAN_DEFAULTS, FtsSearch } from '../src/store/sqlite/fts-search.js';
import type { KeywordMemory } from '../src/store/sqlite/keyword-memory.js';
import { openSqliteStore, type SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { ScoredId } from '../src/store/store.js';
import { keywordCorpus, WORDS } from './fixtures/keyword-corpus.js';
import { draft, seeded, T0 } from './fixtures/store-records.js';

const stores: SqliteStore[] = [];
let dir: string | undefined;

afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const live = (extra: Partial<ItemFilter> = {}): ItemFilter => ({
  space: 'default',
  statuses: ['active', 'challenged'],
  ...extra,
});

function open(name = 'engram.db'): SqliteStore {
  dir ??= mkdtempSync(join(tmpdir(), 'engram-kwmem-'));
  const s = openSqliteStore({ path: join(dir, name) });
  stores.push(s);
  return s;
}

const memoryOf = (s: SqliteStore) =>
  (s as unknown as { keywordMemory: KeywordMemory }).keywordMemory;

/** FTS5's own answer: one joined BM25 query, no in-memory index. */
function fts5(s: SqliteStore, filter: ItemFilter, terms: readonly string[], limit: number) {
  return new FtsSearch(s.connection, { ...FTS_PLAN_DEFAULTS, planMinRows: Infinity }).search(
    filter,
    terms,
    limit,
  );
}

/** The same items in the same order with the same scores (to the last bits of a logarithm). */
function expectSame(got: ScoredId[], want: ScoredId[]): void {
  expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
  got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i]!.score, 12));
}

/** Texts in several languages, with titles, tags and repeated words. */
function mixedCorpus() {
  const random = seeded(11);
  const phrases = [
    'Caroline went to the LGBTQ support group and ran home running',
    'Melanie paints landscapes; her café has naïve art',
    'Lena ist nach München gezogen und isst gern Käsespätzle',
    '王芳去年搬到了杭州，现在在那边租房子住。',
    'ฉันชอบกินข้าวผัดกับเพื่อนที่กรุงเทพ',
    'the team meets every Tuesday about the garden project',
  ];
  return Array.from({ length: 240 }, (_, i) => {
    const body = `${phrases[i % phrases.length]} ${WORDS[Math.floor(random() * WORDS.length)]} w${i % 37}`;
    return draft({
      body,
      title: i % 4 === 0 ? `${WORDS[i % WORDS.length]} notes` : null,
      tags: i % 7 === 0 ? ['garden', WORDS[(i + 3) % WORDS.length]!] : [],
      created_at: T0 + i,
    });
  });
}

const QUERIES = [
  'Who went to the support group?',
  'running runs ran',
  'café naive art landscapes',
  'München Käsespätzle',
  '谁住在杭州？',
  'กินข้าวผัด',
  'garden notes apple',
  'heron heron birch',
  'team team meeting',
  'nothing matches zyzzyva',
];

describe('in-memory keyword index', () => {
  it('answers with FTS5 BM25: the same items, order and scores, in every script', async () => {
    const s = open();
    await s.createItems(mixedCorpus());
    await s.createItems(keywordCorpus());
    for (const q of QUERIES) {
      const terms = keywordTerms(q);
      const got = await s.keywordSearch(live(), terms, 20);
      expectSame(got, fts5(s, live(), terms, 20));
    }
    // It answered itself (FTS5 is never consulted for a ranking it can give).
    expect(memoryOf(s).rank('default', keywordTerms('team'))?.matched).toBe(600 + 40);
    const random = seeded(3);
    for (let q = 0; q < 40; q++) {
      const terms = [WORDS[q % WORDS.length]!, `w${Math.floor(random() * 400)}`, 'team', 'garden'];
      expectSame(await s.keywordSearch(live(), terms, 30), fts5(s, live(), terms, 30));
    }
  });

  it('breaks ties by the smaller key, as FTS5 orders rank then rowid', async () => {
    const s = open();
    // Identical texts score identically; the limit cuts through them.
    await s.createItems(
      Array.from({ length: 30 }, (_, i) =>
        draft({ body: 'same words here', kind: i % 2 ? 'note' : 'fact', created_at: T0 + i }),
      ),
    );
    expectSame(await s.keywordSearch(live(), ['words'], 7), fts5(s, live(), ['words'], 7));
  });

  it('applies filters it does not hold through the store, with the same answer', async () => {
    const s = open();
    await s.createItems(keywordCorpus());
    for (const filter of [
      live({ tags: ['rare'] }),
      live({ created_after: T0 + 100, created_before: T0 + 300 }),
      { space: 'default', statuses: STATUSES },
      { space: 'elsewhere', statuses: STATUSES },
    ] as ItemFilter[])
      expectSame(
        await s.keywordSearch(filter, ['team', 'heron'], 10),
        fts5(s, filter, ['team', 'heron'], 10),
      );
  });

  it('follows writes of its own connection and of another one', async () => {
    const s = open();
    await s.createItems(keywordCorpus());
    const check = async (terms: string[]) =>
      expectSame(await s.keywordSearch(live(), terms, 15), fts5(s, live(), terms, 15));
    await check(['heron']);
    // New items, through this store.
    await s.createItems([draft({ body: 'a heron by the lotus pond', created_at: T0 + 900 })]);
    await check(['heron', 'lotus']);
    // Edited, forgotten and deleted rows, written by another connection.
    const other = open();
    const db = other.connection;
    db.prepare(
      "UPDATE items SET body = 'no bird here at all' WHERE body LIKE '%heron%' AND pk % 2 = 0",
    ).run();
    db.prepare(
      "UPDATE items SET status = 'forgotten' WHERE body LIKE '%lotus%' AND pk % 3 = 0",
    ).run();
    db.prepare("DELETE FROM items WHERE body LIKE '%birch%'").run();
    await other.createItems([draft({ title: 'Heron', body: 'grey bird', created_at: T0 + 901 })]);
    for (const terms of [['heron'], ['lotus', 'bird'], ['birch', 'team'], ['grey']])
      await check(terms);
    expect((await s.keywordSearch(live(), ['birch'], 5)).length).toBe(0);
    // Creation times moved: a time-filtered search sees the new ones.
    db.prepare('UPDATE items SET created_at = created_at + 1000 WHERE pk % 5 = 0').run();
    const window = live({ created_after: T0 + 1000, created_before: T0 + 1300 });
    expectSame(await s.keywordSearch(window, ['team'], 20), fts5(s, window, ['team'], 20));
    expect(await s.keywordSearch(window, ['team'], 20)).not.toEqual([]);
  });

  it('does not answer inside a transaction that changed indexed text', async () => {
    const s = open();
    await s.createItems(keywordCorpus());
    const memory = memoryOf(s);
    expect(memory.rank('default', ['heron'])).not.toBeNull();
    const db = s.connection;
    expect(() =>
      db.transaction(() => {
        db.prepare("UPDATE items SET body = 'heron heron' WHERE pk = 2").run();
        expect(memory.rank('default', ['heron'])).toBeNull();
        // The store still answers, from FTS5, with the transaction's own rows.
        expect(fts5(s, live(), ['heron'], 1)[0]).toBeDefined();
        throw new Error('roll back');
      })(),
    ).toThrow('roll back');
    // The rolled-back edit never reached the index.
    expectSame(await s.keywordSearch(live(), ['heron'], 40), fts5(s, live(), ['heron'], 40));
  });

  it('builds a larger store in the background while FTS5 answers', async () => {
    const s = open();
    const random = seeded(9);
    await s.createItems(
      Array.from({ length: 1_500 }, (_, i) =>
        draft({ body: `w${Math.floor(random() * 300)} and w${i % 50} team`, created_at: T0 + i }),
      ),
    );
    const memory = memoryOf(s);
    expect((await s.stats(null)).keyword_index?.state).toBe('not_started');
    expect(memory.rank('default', ['team'])).toBeNull();
    expect((await s.stats(null)).keyword_index?.state).toBe('building');
    const during = await s.keywordSearch(live(), ['w7', 'w8'], 10);
    expectSame(during, fts5(s, live(), ['w7', 'w8'], 10));
    await memory.ready();
    const rows = s.connection.prepare('SELECT count(*) FROM items').pluck().get();
    expect(memory.rank('default', ['team'])?.matched).toBe(rows);
    expect((await s.stats(null)).keyword_index).toEqual({
      state: 'ready',
      rows,
      pending: 0,
      covered_seq: rows,
      last_error: null,
    });
    for (const terms of [['w7', 'w8'], ['w49', 'team'], ['w299']])
      expectSame(await s.keywordSearch(live(), terms, 10), fts5(s, live(), terms, 10));
  });

  it('stays off for the process when its work fails, FTS5 answering, the error in status', async () => {
    const s = open();
    await s.createItems(keywordCorpus());
    expect(memoryOf(s).rank('default', ['heron'])).not.toBeNull();
    // The log disappears under it (renamed: the triggers follow, the index's statements fail).
    s.connection.exec('ALTER TABLE keyword_changes RENAME TO keyword_changes_gone');
    expectSame(await s.keywordSearch(live(), ['heron'], 10), fts5(s, live(), ['heron'], 10));
    const state = (await s.stats(null)).keyword_index!;
    expect(state.state).toBe('failed');
    expect(state.last_error).toMatch(/keyword_changes/);
    await expect(memoryOf(s).ready()).resolves.toBeUndefined();
  });

  it('can be turned off: every search runs on FTS5', async () => {
    dir ??= mkdtempSync(join(tmpdir(), 'engram-kwmem-'));
    const s = openSqliteStore({ path: join(dir, 'off.db'), keywordMemory: false });
    stores.push(s);
    await s.createItems(keywordCorpus());
    expect(memoryOf(s)).toBeUndefined();
    expect((await s.stats(null)).keyword_index).toBeUndefined();
    expectSame(await s.keywordSearch(live(), ['heron'], 10), fts5(s, live(), ['heron'], 10));
  });
});
