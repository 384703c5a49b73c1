/**
 * The keyword re-index migration (SQLite 10, PostgreSQL 8): a store written before it holds a
 * Chinese memory and a Japanese session turn that its keyword index cannot find; after the
 * migration both are found, no item data has changed, and English text is indexed exactly as
 * before (the same FTS5 tokens at the same offsets; the same tsvector), while German text keeps its
 * words and gains their stems (SQLite 14, PostgreSQL 12). On PostgreSQL Latin diacritics are
 * folded out since migration 13, as FTS5 always folded them ("cafe" and "Munchen" find "Café" and
 * "München" on both). New English writes keep no segmented copy.
 */
import { join } from 'node:path';

import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { PG_LATEST_SCHEMA_VERSION, PG_MIGRATIONS } from '../src/store/postgres/migrations.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../src/store/sqlite/migrations.js';
import { tempDir, testEngram } from './helpers.js';
import { dropSchema, PG_URL, pgConfig, randomSchema } from './postgres-helpers.js';

const T0 = Date.parse('2025-06-01T12:00:00Z');
/** The items were written a day apart: none is another's write neighbour. */
const at = (i: number) => T0 + i * 86_400_000;
const KEYWORD_ONLY = { weights: { vector: 0, graph: 0, time: 0 }, rerank: false } as const;

/** Items as an engram before the migration wrote them: [id, title, body, tags]. */
const ITEMS: [string, string | null, string, string[]][] = [
  ['mem_zh', null, '王芳去年搬到了杭州，现在在那边租房子住。', ['朋友']],
  [
    'mem_en',
    'Caroline’s support group',
    'Caroline said, "I went to the LGBTQ support group yesterday — it was so powerful!"',
    ['friends', 'Café'],
  ],
  ['mem_de', null, 'Lena ist nach München gezogen und isst gern Käsespätzle.', []],
];
const TURN = '来月、金沢へ旅行に行きたいです。';

async function keywordBodies(engram: Engram, query: string): Promise<string[]> {
  return (await engram.recall({ query, ...KEYWORD_ONLY })).hits.map((h) => h.body);
}

/** What recall and session search find after the migration, asserted for both backends. */
async function expectFoundAfter(engram: Engram): Promise<void> {
  expect(await keywordBodies(engram, '谁住在杭州？')).toEqual([ITEMS[0]![2]]);
  expect(await keywordBodies(engram, 'support group')).toEqual([ITEMS[1]![2]]);
  expect(await keywordBodies(engram, 'München')).toEqual([ITEMS[2]![2]]);
  expect(await keywordBodies(engram, 'Munchen')).toEqual([ITEMS[2]![2]]);
  expect(await keywordBodies(engram, 'cafe')).toEqual([ITEMS[1]![2]]);
  const turns = await engram.searchSessions({ query: '金沢に行く' });
  expect(turns.hits.map((h) => h.text)).toEqual([TURN]);
}

describe('the keyword re-index migration on SQLite', () => {
  /** A store file at schema 9 holding ITEMS and one session turn, written with raw SQL. */
  function storeAtVersion9(path: string): void {
    const db = new Database(path);
    db.exec(
      'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
    for (const step of MIGRATIONS.filter((m) => m.version < 10)) {
      db.exec(step.sql);
      db.prepare('INSERT INTO schema_migrations VALUES (?, ?, ?)').run(step.version, step.name, T0);
    }
    const insert = db.prepare(
      `INSERT INTO items (id, space, area, kind, title, body, body_hash, tags, tags_text, created_at, updated_at)
VALUES (?, 'default', 'general', 'note', ?, ?, ?, ?, ?, ?, ?)`,
    );
    ITEMS.forEach(([id, title, body, tags], i) =>
      insert.run(id, title, body, `hash_${id}`, JSON.stringify(tags), tags.join(' '), at(i), at(i)),
    );
    db.prepare(
      "INSERT INTO sessions (space, id, started_at, turn_count, created_at) VALUES ('default', 'trip', ?, 1, ?)",
    ).run(T0, T0);
    db.prepare(
      "INSERT INTO session_turns (session_pk, turn, role, text) VALUES (1, 0, 'user', ?)",
    ).run(TURN);
    db.close();
  }

  /** The FTS5 tokens of the items index, with their row, column and offset. */
  function tokens(path: string): { term: string; doc: number; col: string; offset: number }[] {
    const db = new Database(path);
    try {
      db.exec("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, 'items_fts', 'instance')");
      return db.prepare('SELECT term, doc, col, offset FROM v ORDER BY doc, col, offset').all() as {
        term: string;
        doc: number;
        col: string;
        offset: number;
      }[];
    } finally {
      db.close();
    }
  }

  function itemRows(path: string): unknown[] {
    const db = new Database(path, { readonly: true });
    try {
      return db
        .prepare(
          'SELECT pk, id, title, body, body_hash, tags, tags_text, created_at, updated_at FROM items ORDER BY pk',
        )
        .all();
    } finally {
      db.close();
    }
  }

  it('finds what was written before it, changes no item, and indexes English as before', async () => {
    const dir = tempDir();
    const path = join(dir, 'engram.db');
    storeAtVersion9(path);
    const before = tokens(path);
    const rowsBefore = itemRows(path);
    // Before: the Chinese body is one token, so no word of it can be found.
    expect(before.filter((t) => t.doc === 1 && t.col === 'body').map((t) => t.term)).toEqual([
      '王芳去年搬到了杭州',
      '现在在那边租房子住',
    ]);

    const engram = testEngram({ dir, config: { embedder: { provider: 'none' } } });
    await expectFoundAfter(engram);
    expect((await engram.storeForTransfer.stats(null)).schema_version).toBe(LATEST_SCHEMA_VERSION);
    expect(await engram.storeForTransfer.integrityCheck()).toEqual({ ok: true, problems: [] });
    await engram.close();

    expect(itemRows(path)).toEqual(rowsBefore);
    const after = tokens(path);
    const english = (list: typeof before) => list.filter((t) => t.doc === 2);
    expect(english(after)).toEqual(english(before));
    // German keeps its words where they were and gains their stems (inflection.ts) after them.
    const german = (list: typeof before) => list.filter((t) => t.doc === 3);
    expect(german(after)).toEqual(expect.arrayContaining(german(before)));
    expect(german(after).map((t) => t.term)).toEqual(
      expect.arrayContaining(['munchꞏ', 'kasespatzlꞏ']),
    );
    expect(after.filter((t) => t.doc === 1 && t.col === 'body').map((t) => t.term)).toEqual(
      expect.arrayContaining(['去年', '杭州', '房子']),
    );
  });

  it('keeps no segmented copy of English text written after it', async () => {
    const dir = tempDir();
    const engram = testEngram({ dir, config: { embedder: { provider: 'none' } } });
    await engram.rememberMany([{ body: ITEMS[1]![2], title: ITEMS[1]![1]!, tags: ['friends'] }]);
    await engram.rememberMany([{ body: ITEMS[0]![2] }]);
    await engram.close();
    const db = new Database(join(dir, 'engram.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT seg_title, seg_body, seg_tags FROM items ORDER BY pk').all();
      expect(rows).toEqual([
        { seg_title: null, seg_body: null, seg_tags: null },
        { seg_title: null, seg_body: expect.stringContaining(' 杭州 , '), seg_tags: null },
      ]);
    } finally {
      db.close();
    }
  });
});

describe.skipIf(!PG_URL)('the keyword re-index migration on PostgreSQL', () => {
  /** A schema at version 7 holding ITEMS and one session turn, written with raw SQL. */
  async function schemaAtVersion7(client: pg.Client, schema: string): Promise<void> {
    const ext = await client.query<{ s: string }>(
      "SELECT n.nspname AS s FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'",
    );
    if (!ext.rows[0]) await client.query('CREATE EXTENSION IF NOT EXISTS vector');
    const home = ext.rows[0]?.s ?? 'public';
    await client.query(`CREATE SCHEMA "${schema}"`);
    await client.query(`SET search_path = "${schema}", "${home}"`);
    await client.query(
      'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)',
    );
    for (const step of PG_MIGRATIONS.filter((m) => m.version < 8)) {
      await client.query(step.sql);
      await client.query('INSERT INTO schema_migrations VALUES ($1, $2, $3)', [
        step.version,
        step.name,
        T0,
      ]);
    }
    for (const [i, [id, title, body, tags]] of ITEMS.entries())
      await client.query(
        `INSERT INTO items (id, space, area, kind, title, body, body_hash, tags, tags_text, created_at, updated_at)
VALUES ($1, 'default', 'general', 'note', $2, $3, $4, $5, $6, $7, $7)`,
        [id, title, body, `hash_${id}`, tags, tags.join(' '), at(i)],
      );
    const { rows } = await client.query<{ pk: string }>(
      "INSERT INTO sessions (space, id, started_at, turn_count, created_at) VALUES ('default', 'trip', $1, 1, $1) RETURNING pk",
      [T0],
    );
    await client.query(
      "INSERT INTO session_turns (session_pk, turn, role, text) VALUES ($1, 0, 'user', $2)",
      [rows[0]!.pk, TURN],
    );
  }

  async function vectors(client: pg.Client, schema: string): Promise<Record<string, string>> {
    const { rows } = await client.query<{ id: string; v: string }>(
      `SELECT id, search::text AS v FROM "${schema}".items ORDER BY id`,
    );
    return Object.fromEntries(rows.map((r) => [r.id, r.v]));
  }

  async function itemRows(client: pg.Client, schema: string): Promise<unknown[]> {
    const { rows } = await client.query(
      `SELECT pk, id, title, body, body_hash, tags, tags_text, created_at, updated_at FROM "${schema}".items ORDER BY pk`,
    );
    return rows;
  }

  it('finds what was written before it, changes no item, and indexes English as before', async () => {
    const schema = randomSchema();
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await schemaAtVersion7(client, schema);
      const before = await vectors(client, schema);
      const rowsBefore = await itemRows(client, schema);
      expect(before.mem_zh).not.toContain("'杭州'");

      const engram = testEngram({
        config: { ...pgConfig(schema), embedder: { provider: 'none' } },
      });
      await expectFoundAfter(engram);
      expect((await engram.storeForTransfer.stats(null)).schema_version).toBe(
        PG_LATEST_SCHEMA_VERSION,
      );
      await engram.close();

      expect(await itemRows(client, schema)).toEqual(rowsBefore);
      const after = await vectors(client, schema);
      // English words as before; the tag "Café" now folded, as FTS5 folds it.
      expect(before.mem_en).toContain("'café':");
      expect(after.mem_en).toBe(before.mem_en!.replace("'café':", "'cafe':"));
      expect(after.mem_de).toContain("'munchen':4");
      expect(after.mem_de).not.toContain('ü');
      expect(after.mem_de).toContain("'munchꞏ'");
      expect(after.mem_zh).toContain("'杭州'");
    } finally {
      await client.end();
      await dropSchema(schema);
    }
  });
});
