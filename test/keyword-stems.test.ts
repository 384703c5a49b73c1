/**
 * Stems of inflected languages in the keyword index (src/domain/inflection.ts), on both backends:
 * a memory or a session turn is found by another form of its words, an exact form ranks above a
 * stem-only match, snippets show no stem, and a store written before the stems gains them when it
 * is opened (SQLite migration 14, PostgreSQL 12) with no item data changed.
 */
import { join } from 'node:path';

import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { STEM_MARK } from '../src/domain/inflection.js';
import { BACKENDS } from './backends.js';
import { tempDir, testEngram } from './helpers.js';
import { dropSchema, PG_URL, pgConfig, randomSchema } from './postgres-helpers.js';

const KEYWORD_ONLY = { weights: { vector: 0, graph: 0, time: 0 }, rerank: false } as const;
/** No embedder, and no session context: memories written together lend each other nothing. */
const CONFIG = { embedder: { provider: 'none' }, recall: { context: { window: 0 } } } as const;
const SPANISH = 'Lucía tiene dos perros y un gato.';
const RUSSIAN = 'Анна переехала в Казань в прошлом году.';

async function bodies(engram: Engram, query: string): Promise<string[]> {
  return (await engram.recall({ query, ...KEYWORD_ONLY })).hits.map((h) => h.body);
}

describe.each(BACKENDS)('stems of inflected languages ($name)', (backend) => {
  const open = () => testEngram({ config: { ...backend.fresh(), ...CONFIG } });

  it('finds a memory by another form of its words, the exact form first', async () => {
    const engram = open();
    await engram.rememberMany([
      { body: SPANISH },
      { body: RUSSIAN },
      { body: 'Кошка Анны любит рыбу.' },
      { body: 'У Ивана две кошки и собака.' },
      { body: 'The dog park opens at nine.' },
    ]);
    expect(await bodies(engram, '¿Quién quiere un perro?')).toEqual([SPANISH]);
    expect(await bodies(engram, 'Кто живёт в Казани?')).toEqual([RUSSIAN]);
    expect(await bodies(engram, 'кошки')).toEqual([
      'У Ивана две кошки и собака.',
      'Кошка Анны любит рыбу.',
    ]);
    expect(await bodies(engram, 'dogs')).toEqual(['The dog park opens at nine.']);
  });

  it('finds a session turn by another form, with a snippet that shows no stem', async () => {
    const engram = open();
    await engram.importSessions([
      { id: 'mascotas', turns: [{ role: 'user', text: 'Mi vecina tiene tres perros grandes.' }] },
    ]);
    const found = await engram.searchSessions({ query: '¿Quién quiere un perro?' });
    expect(found.hits.map((h) => h.text)).toEqual(['Mi vecina tiene tres perros grandes.']);
    for (const hit of found.hits) expect(hit.snippet ?? '').not.toContain(STEM_MARK);
  });
});

describe('the stems migration on SQLite (14)', () => {
  it('re-indexes a store written before it, changing no item', async () => {
    const dir = tempDir();
    const first = testEngram({ dir, config: CONFIG });
    await first.rememberMany([{ body: SPANISH }, { body: 'The dog park opens at nine.' }]);
    await first.close();
    const path = join(dir, 'engram.db');
    const db = new Database(path);
    // As an engram before the stems left it: no indexed copy of the Spanish body, no step 14.
    db.exec('UPDATE items SET seg_body = NULL; DELETE FROM schema_migrations WHERE version = 14');
    const rows = () => db.prepare('SELECT id, body, body_hash, version FROM items').all();
    const before = rows();
    db.close();
    const unstemmed = testEngram({ dir, config: CONFIG });
    expect(await bodies(unstemmed, '¿Quién quiere un perro?')).toEqual([SPANISH]);
    expect(
      (await unstemmed.storeForTransfer.integrityCheck()).ok,
      'the store passes its integrity check after the migration',
    ).toBe(true);
    await unstemmed.close();
    const after = new Database(path, { readonly: true });
    try {
      expect(after.prepare('SELECT id, body, body_hash, version FROM items').all()).toEqual(before);
      expect(after.prepare('SELECT seg_body FROM items WHERE body = ?').get(SPANISH)).toEqual({
        seg_body: expect.stringContaining(`perr${STEM_MARK}`),
      });
    } finally {
      after.close();
    }
  });
});

describe.skipIf(!PG_URL)('the stems migration on PostgreSQL (12)', () => {
  it('re-indexes a schema written before it, changing no item', async () => {
    const schema = randomSchema();
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      const config = { ...pgConfig(schema), ...CONFIG };
      const first = testEngram({ config });
      await first.rememberMany([{ body: SPANISH }]);
      await first.close();
      await client.query(`UPDATE "${schema}".items SET seg_body = NULL`);
      await client.query(`DELETE FROM "${schema}".schema_migrations WHERE version = 12`);
      const rows = async () =>
        (await client.query(`SELECT id, body, body_hash, version FROM "${schema}".items`)).rows;
      const before = await rows();
      const again = testEngram({ config });
      expect(await bodies(again, '¿Quién quiere un perro?')).toEqual([SPANISH]);
      await again.close();
      expect(await rows()).toEqual(before);
      const { rows: search } = await client.query<{ v: string }>(
        `SELECT search::text AS v FROM "${schema}".items`,
      );
      expect(search[0]!.v).toContain(`'perr${STEM_MARK}'`);
    } finally {
      await client.end();
      await dropSchema(schema);
    }
  });
});
