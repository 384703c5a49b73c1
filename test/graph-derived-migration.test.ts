/**
 * The graph migration of derived co-mentions (SQLite 12, PostgreSQL 10): a store whose graph was
 * written the earlier way (one stored co-mention link per pair of an item's entities, and every
 * entity of a relation's source item linked to every entity of its target) opens to exactly the
 * graph the current code writes: no co-mention rows, relation links capped, pair weights and
 * degrees matching the edges, and later writes keeping it so.
 */
import { join } from 'node:path';

import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import type { GraphDump } from '../src/store/graph-store.js';
import { consistent } from './graph-invariants.js';
import { tempDir, testEngram } from './helpers.js';
import { dropSchema, PG_URL, pgConfig, randomSchema } from './postgres-helpers.js';

const TEXTS = [
  'Alice Johnson, Bob Stone and Carol Diaz plan Project Phoenix on Kubernetes with Grafana.',
  'Dana Wu and Erin Hale move Acme Corp onto PostgreSQL and Kubernetes.',
  'Zed Quark visited Atlantis Station with Alice Johnson and Bob Stone.',
  'Bob Stone maintains the Grafana dashboards at Acme Corp.',
];

/** Writes TEXTS, three relations and a forgotten item; returns the memory ids. */
async function write(engram: Engram): Promise<string[]> {
  const results = await engram.rememberMany(TEXTS.map((body) => ({ body })));
  const ids = results.map((r) => (r.ok ? r.memory.id : ''));
  await engram.idle();
  await engram.relate(ids[0]!, ids[1]!);
  await engram.relate(ids[2]!, ids[0]!, { type: 'derived_from' });
  await engram.relate(ids[3]!, ids[1]!);
  await engram.forget(ids[2]!);
  return ids;
}

async function dump(engram: Engram): Promise<GraphDump> {
  return consistent(await engram.storeForTransfer.graph!.dump('default'));
}

/** What the next writes do, on both the migrated and the never-migrated store. */
async function laterWrites(engram: Engram, ids: readonly string[]): Promise<void> {
  await engram.restore(ids[2]!);
  await engram.purge(ids[3]!);
  await engram.relate(ids[1]!, ids[2]!);
}

describe('the derived co-mention migration on SQLite', () => {
  /** Rewrites the store's graph the earlier way and sets its schema back to version 11. */
  function earlierLayout(path: string): void {
    const db = new Database(path);
    db.exec(`
      INSERT INTO graph_batch(id) VALUES (1);
      INSERT INTO graph_links(a, b, type, item_pk)
        SELECT m1.entity_id, m2.entity_id, 'co_mention', m1.item_pk
        FROM graph_mentions m1 JOIN graph_mentions m2 ON m2.item_pk = m1.item_pk AND m2.entity_id > m1.entity_id
        WHERE m1.counted = 1 AND m2.counted = 1;
      DELETE FROM graph_batch;
      DELETE FROM graph_links WHERE relation_id IS NOT NULL;
      INSERT INTO graph_links(a, b, type, item_pk, other_pk, relation_id)
        SELECT min(ma.entity_id, mb.entity_id), max(ma.entity_id, mb.entity_id), r.type, fi.pk, ti.pk, r.id
        FROM relations r
        JOIN items fi ON fi.id = r.from_id JOIN items ti ON ti.id = r.to_id
        JOIN graph_mentions ma ON ma.item_pk = fi.pk AND ma.counted = 1
        JOIN graph_mentions mb ON mb.item_pk = ti.pk AND mb.counted = 1
        WHERE r.invalidated_at IS NULL AND ma.entity_id <> mb.entity_id;
      DELETE FROM schema_migrations WHERE version >= 12;
    `);
    const { n } = db
      .prepare("SELECT count(*) AS n FROM graph_links WHERE type = 'co_mention'")
      .get() as {
      n: number;
    };
    expect(n).toBeGreaterThan(0);
    db.close();
  }

  it('drops the stored co-mentions, caps relation links, and keeps every count exact', async () => {
    const dir = tempDir();
    const config = { embedder: { provider: 'none' as const } };
    const first = testEngram({ dir, config });
    const ids = await write(first);
    const current = await dump(first);
    await first.close();
    // A store that never had the earlier layout, for what the later writes give.
    const fresh = testEngram({ config });
    const freshIds = await write(fresh);

    earlierLayout(join(dir, 'engram.db'));
    const migrated = testEngram({ dir, config });
    expect(await dump(migrated)).toEqual(current);
    const db = new Database(join(dir, 'engram.db'), { readonly: true });
    expect(
      db.prepare("SELECT count(*) AS n FROM graph_links WHERE type = 'co_mention'").get(),
    ).toEqual({ n: 0 });
    db.close();

    await laterWrites(migrated, ids);
    await laterWrites(fresh, freshIds);
    const after = await dump(migrated);
    expect(after.edges).toEqual((await dump(fresh)).edges);
    expect(after.edges.some((e) => e.type === 'co_mention')).toBe(true);
    expect(after.edges.some((e) => e.type === 'related')).toBe(true);
  });
});

describe.skipIf(!PG_URL)('the derived co-mention migration on PostgreSQL', () => {
  /** Rewrites the schema's graph the earlier way and sets it back to version 9. */
  async function earlierLayout(schema: string): Promise<void> {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    try {
      await client.query(`SET search_path = "${schema}", public`);
      await client.query(`
        ALTER TABLE graph_links DISABLE TRIGGER graph_links_added;
        INSERT INTO graph_links (a, b, type, item_pk)
          SELECT m1.entity_id, m2.entity_id, 'co_mention', m1.item_pk
          FROM graph_mentions m1 JOIN graph_mentions m2 ON m2.item_pk = m1.item_pk AND m2.entity_id > m1.entity_id
          WHERE m1.counted AND m2.counted;
        ALTER TABLE graph_links ENABLE TRIGGER graph_links_added;
        DELETE FROM graph_links WHERE relation_id IS NOT NULL;
        INSERT INTO graph_links (a, b, type, item_pk, other_pk, relation_id)
          SELECT least(ma.entity_id, mb.entity_id), greatest(ma.entity_id, mb.entity_id), r.type, fi.pk, ti.pk, r.id
          FROM relations r
          JOIN items fi ON fi.id = r.from_id JOIN items ti ON ti.id = r.to_id
          JOIN graph_mentions ma ON ma.item_pk = fi.pk AND ma.counted
          JOIN graph_mentions mb ON mb.item_pk = ti.pk AND mb.counted
          WHERE r.invalidated_at IS NULL AND ma.entity_id <> mb.entity_id;
        DELETE FROM schema_migrations WHERE version >= 10;
      `);
    } finally {
      await client.end();
    }
  }

  it('drops the stored co-mentions, caps relation links, and keeps every count exact', async () => {
    const schema = randomSchema();
    const config = { ...pgConfig(schema), embedder: { provider: 'none' as const } };
    try {
      const first = testEngram({ config });
      const ids = await write(first);
      const current = await dump(first);
      await first.close();

      await earlierLayout(schema);
      const migrated = testEngram({ config });
      expect(await dump(migrated)).toEqual(current);
      await laterWrites(migrated, ids);
      const after = await dump(migrated);
      expect(after.edges.some((e) => e.type === 'co_mention')).toBe(true);
      expect(after.edges.some((e) => e.type === 'related')).toBe(true);
      await migrated.close();
    } finally {
      await dropSchema(schema);
    }
  });
});
