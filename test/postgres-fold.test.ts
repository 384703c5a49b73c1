/**
 * PostgreSQL's `keyword_fold` (src/store/postgres/fold.ts, migration 13) on a real server: on a
 * UTF8 database it folds each Latin letter as SQLite's keyword tokenizer does (bar four rare
 * ones), removes combining marks after a Latin letter, and leaves other scripts alone; on a LATIN1
 * database, where most of those letters cannot be written, the migration still runs and the store
 * keeps diacritics as it did before.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

import { PG_LATEST_SCHEMA_VERSION } from '../src/store/postgres/migrations.js';
import { FTS_TOKENIZER } from '../src/store/sqlite/keyword-index.js';
import { testEngram } from './helpers.js';
import { admin, PG_URL, randomSchema, schemaStore } from './postgres-helpers.js';

const KEYWORD_ONLY = { weights: { vector: 0, graph: 0, time: 0 }, rerank: false } as const;

/** The term SQLite's keyword tokenizer makes of each text (one word each). */
function ftsTerms(texts: readonly string[]): string[] {
  const db = new Database(':memory:');
  try {
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize = "${FTS_TOKENIZER}");
CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);
    const insert = db.prepare('INSERT INTO t (rowid, x) VALUES (?, ?)');
    texts.forEach((text, i) => insert.run(i + 1, text));
    const terms = new Map(
      (db.prepare('SELECT doc, term FROM v').all() as { doc: number; term: string }[]).map((r) => [
        r.doc,
        r.term,
      ]),
    );
    return texts.map((_, i) => terms.get(i + 1) ?? '');
  } finally {
    db.close();
  }
}

/** Letters FTS5 folds otherwise: it keeps "ǡ" (a with dot and macron) and folds the long s. */
const FTS5_OTHERWISE = new Set([...'Ǡǡſẛ']);

describe.skipIf(!PG_URL)('keyword_fold on PostgreSQL', () => {
  it('folds each Latin letter as SQLite does, on a UTF8 database, and leaves other scripts alone', async () => {
    const { store, schema, cleanup } = schemaStore();
    await store.connect();
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      const fold = async (text: string) =>
        (await client.query<{ f: string }>(`SELECT "${schema}".keyword_fold($1) AS f`, [text]))
          .rows[0]!.f;
      const letters: string[] = [];
      for (const [first, last] of [
        [0xc0, 0x24f],
        [0x1e00, 0x1eff],
      ] as const)
        for (let c = first; c <= last; c++) {
          const letter = String.fromCodePoint(c);
          if (/^\p{L}$/u.test(letter) && !FTS5_OTHERWISE.has(letter)) letters.push(letter);
        }
      expect(letters.length).toBeGreaterThan(600);
      const folded = (await fold(letters.join(' '))).toLowerCase().split(' ');
      const sqlite = ftsTerms(letters);
      expect(letters.filter((l, i) => folded[i] !== sqlite[i])).toEqual([]);

      expect(await fold('São Paulo, Ærø, Müller, Łódź, Dvořák, Ștefan, Nguyễn')).toBe(
        'Sao Paulo, Ærø, Muller, Łodz, Dvorak, Stefan, Nguyen',
      );
      expect(await fold('Jose\u0301 and cafe\u0301')).toBe('Jose and cafe');
      expect(await fold('café, йод, ёлка, ά, हिन्दी, 杭州, 서울')).toBe(
        'cafe, йод, ёлка, ά, हिन्दी, 杭州, 서울',
      );
      const plain = 'plain English, 杭州, йод';
      expect(await fold(plain)).toBe(plain);
    } finally {
      await client.end();
      await cleanup();
    }
  });

  it('migrates a LATIN1 database too, whose store keeps diacritics as before', async () => {
    const database = randomSchema('engram_latin1');
    await admin(
      `CREATE DATABASE ${database} ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0`,
    );
    const url = new URL(PG_URL!);
    url.pathname = `/${database}`;
    try {
      const engram = testEngram({
        config: {
          store: { backend: 'postgres', url: url.toString(), schema: 'engram' },
          embedder: { provider: 'none' },
        },
      });
      try {
        await engram.rememberMany([
          { body: 'Café Central opens at eight on Sundays.' },
          { body: 'The cafe by the station closes early.' },
        ]);
        expect((await engram.storeForTransfer.stats(null)).schema_version).toBe(
          PG_LATEST_SCHEMA_VERSION,
        );
        const hits = await engram.recall({ query: 'Café', ...KEYWORD_ONLY });
        expect(hits.hits[0]?.body).toBe('Café Central opens at eight on Sundays.');
        const [folded] = await admin<{ f: string }>(
          "SELECT engram.keyword_fold('Café São') AS f",
          [],
          url.toString(),
        );
        expect(folded!.f).toBe('Café São');
      } finally {
        await engram.close();
      }
    } finally {
      await admin(`DROP DATABASE ${database}`);
    }
  });
});
