/**
 * The SQLite graph store: writes item extractions (graph-writes.ts; the triggers of graph-schema.ts
 * keep counts and edges), and answers the traversal's reads with index seeks and bounded fan-out.
 */
import type Database from 'better-sqlite3';

import type { ItemFilter } from '../../domain/filter.js';
import type { EdgeType, EntityType } from '../../domain/graph.js';
import type {
  EntityLabel,
  EntityRef,
  GraphCounts,
  GraphDoc,
  GraphDump,
  GraphStore,
  MentionProfile,
  Neighbor,
} from '../graph-store.js';
import type { SqliteDatabase } from './database.js';
import { storeError, writeWithRetry } from './database.js';
import { dumpGraph, entityProfile, graphCounts, profileOfSpace } from './graph-reports.js';
import { coMentionRowsSql } from './graph-schema.js';
import { writeBatch } from './graph-writes.js';
import type { ReadCache } from './read-cache.js';
import { compileFilter } from './rows.js';

/** What the graph store borrows from the SQLite store that owns the connection. */
export interface SqliteGraphContext {
  db: SqliteDatabase;
  path: string;
  retryMs: number;
  assertOpen(): void;
  /** Entity lookups kept between recalls while nothing in the database changes. */
  cache?: ReadCache;
}

type Statement = Database.Statement;

const STALE_SQL = `FROM items i LEFT JOIN graph_items g ON g.item_pk = i.pk
  WHERE i.space = @space AND (g.item_pk IS NULL OR g.version <> i.version OR g.extractor <> @extractor)`;

/** Orders strings as SQLite's binary collation does UTF-8 text: by code point. */
function byCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** The GraphStore over the engram SQLite file. */
export class SqliteGraphStore implements GraphStore {
  private readonly cache = new Map<string, Statement>();

  constructor(private readonly ctx: SqliteGraphContext) {}

  private get db(): SqliteDatabase {
    return this.ctx.db;
  }

  private stmt(sql: string): Statement {
    let s = this.cache.get(sql);
    if (!s) {
      if (this.cache.size > 200) this.cache.clear();
      s = this.db.prepare(sql);
      this.cache.set(sql, s);
    }
    return s;
  }

  private read<T>(fn: () => T): Promise<T> {
    this.ctx.assertOpen();
    try {
      return Promise.resolve(fn());
    } catch (err) {
      return Promise.reject(storeError(err, this.ctx.path));
    }
  }

  private write<T>(fn: () => T): Promise<T> {
    this.ctx.assertOpen();
    return writeWithRetry(this.db, this.ctx.path, this.ctx.retryMs, fn);
  }

  async writeExtractions(
    space: string,
    docs: readonly GraphDoc[],
    extractor: number,
  ): Promise<number> {
    if (docs.length === 0) return 0;
    const prepare = (sql: string) => this.stmt(sql);
    return this.write(() => writeBatch(prepare, space, extractor, docs));
  }

  async extractionStates(
    space: string,
    ids: readonly string[],
  ): Promise<Map<string, { version: number; extractor: number }>> {
    return this.read(() => {
      const rows = this.stmt(
        `SELECT i.id, g.version, g.extractor FROM items i JOIN graph_items g ON g.item_pk = i.pk
         WHERE +i.space = ? AND i.id IN (SELECT value FROM json_each(?))`,
      ).all(space, JSON.stringify(ids)) as { id: string; version: number; extractor: number }[];
      return new Map(rows.map((r) => [r.id, { version: r.version, extractor: r.extractor }]));
    });
  }

  async staleItems(
    space: string,
    extractor: number,
    limit: number,
    afterId = '',
  ): Promise<string[]> {
    return this.read(() =>
      (
        this.stmt(`SELECT i.id ${STALE_SQL} AND i.id > @after ORDER BY i.id LIMIT @limit`).all({
          space,
          extractor,
          after: afterId,
          limit,
        }) as { id: string }[]
      ).map((r) => r.id),
    );
  }

  async countStale(space: string, extractor: number): Promise<number> {
    return this.read(
      () =>
        (this.stmt(`SELECT count(*) AS n ${STALE_SQL}`).get({ space, extractor }) as { n: number })
          .n,
    );
  }

  async clear(space: string): Promise<void> {
    await this.write(() => {
      const items = `SELECT item_pk FROM graph_items WHERE space = @space`;
      this.db.prepare(`DELETE FROM graph_links WHERE item_pk IN (${items})`).run({ space });
      this.db.prepare(`DELETE FROM graph_links WHERE other_pk IN (${items})`).run({ space });
      this.db.prepare(`DELETE FROM graph_statements WHERE item_pk IN (${items})`).run({ space });
      this.db.prepare(`DELETE FROM graph_mentions WHERE item_pk IN (${items})`).run({ space });
      this.db.prepare('DELETE FROM graph_items WHERE space = @space').run({ space });
      this.db.prepare('DELETE FROM graph_entities WHERE space = @space').run({ space });
    });
  }

  async itemCount(space: string): Promise<number> {
    return this.read(() => {
      const row = this.stmt('SELECT items FROM graph_spaces WHERE space = ?').get(space) as
        | { items: number }
        | undefined;
      return row?.items ?? 0;
    });
  }

  async entitiesByKey(space: string, keys: readonly string[]): Promise<EntityRef[]> {
    if (keys.length === 0) return [];
    const query = (wanted: readonly string[]) =>
      this.stmt(
        `SELECT id, key, mentions, degree, strong FROM graph_entities
           WHERE space = ? AND key IN (SELECT value FROM json_each(?)) ORDER BY key`,
      ).all(space, JSON.stringify(wanted)) as EntityRef[];
    return this.read(() => {
      const cache = this.ctx.cache;
      if (!cache?.usable()) return query(keys);
      const read = (wanted: readonly string[]) => {
        const byKey = new Map(query(wanted).map((e) => [e.key, e]));
        return (key: string) => byKey.get(key) ?? null;
      };
      // Each key once, in the order of `ORDER BY key` (SQLite's binary order: by code point).
      return cache
        .lookups(`graph key ${space}`, [...new Set(keys)], read)
        .filter((e): e is EntityRef => e !== null)
        .sort((a, b) => byCodePoints(a.key, b.key))
        .map((e) => ({ ...e }));
    });
  }

  async entitiesByFirstWord(
    space: string,
    words: readonly string[],
    limitEach: number,
  ): Promise<EntityRef[]> {
    const read = (wanted: readonly string[]) => {
      const lists = wanted.map(
        (word) =>
          this.stmt(
            `SELECT id, key, mentions, degree, strong FROM graph_entities
             WHERE space = ? AND key > ? AND key < ? ORDER BY mentions DESC, key LIMIT ?`,
          ).all(space, `${word} `, `${word}!`, limitEach) as EntityRef[],
      );
      return (word: string) => lists[wanted.indexOf(word)]!;
    };
    return this.read(() => {
      const cache = this.ctx.cache;
      const lists = cache?.usable()
        ? cache.lookups(`graph first word ${space} ${limitEach}`, words, read)
        : words.map(read(words));
      return lists.flatMap((list) => list.map((e) => ({ ...e })));
    });
  }

  async entitiesById(ids: readonly number[]): Promise<EntityRef[]> {
    if (ids.length === 0) return [];
    return this.read(
      () =>
        this.stmt(
          `SELECT id, key, mentions, degree, strong FROM graph_entities
           WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`,
        ).all(JSON.stringify(ids)) as EntityRef[],
    );
  }

  async aliasesOf(ids: readonly number[]): Promise<Neighbor[]> {
    return this.read(() =>
      ids.flatMap((from) =>
        (
          this.stmt(
            `SELECT e.id, e.key, e.mentions, e.degree, e.strong, count(*) AS weight FROM (
               SELECT b AS other FROM graph_links INDEXED BY graph_links_alias_a WHERE a = @id AND type = 'alias'
               UNION ALL
               SELECT a FROM graph_links INDEXED BY graph_links_alias_b WHERE b = @id AND type = 'alias'
             ) l JOIN graph_entities e ON e.id = l.other GROUP BY e.id ORDER BY e.id`,
          ).all({ id: from }) as (EntityRef & { weight: number })[]
        ).map(({ weight, ...to }) => ({ from, to, weight })),
      ),
    );
  }

  async neighborsOf(ids: readonly number[], limitEach: number): Promise<Neighbor[]> {
    return this.read(() =>
      ids.flatMap((from) =>
        (
          this.stmt(
            `SELECT e.id, e.key, e.mentions, e.degree, e.strong, p.weight FROM
               (SELECT b, weight FROM graph_pairs WHERE a = ? ORDER BY weight DESC, b LIMIT ?) p
             JOIN graph_entities e ON e.id = p.b ORDER BY p.weight DESC, p.b`,
          ).all(from, limitEach) as (EntityRef & { weight: number })[]
        ).map(({ weight, ...to }) => ({ from, to, weight })),
      ),
    );
  }

  async edgesBetween(a: number, b: number): Promise<{ type: EdgeType; weight: number }[]> {
    return this.read(
      () =>
        this.stmt(
          `SELECT type, count(*) AS weight FROM (
             SELECT type FROM graph_links WHERE a = @a AND b = @b
             UNION ALL SELECT type FROM (${coMentionRowsSql('m1.entity_id = @a AND m2.entity_id = @b')}))
           GROUP BY type ORDER BY type`,
        ).all({ a: Math.min(a, b), b: Math.max(a, b) }) as { type: EdgeType; weight: number }[],
    );
  }

  async itemsMentioning(
    filter: ItemFilter,
    requests: readonly { entity: number; limit: number }[],
  ): Promise<string[][]> {
    if (requests.length === 0) return [];
    return this.read(() => {
      const where = compileFilter(filter);
      const stmt = this.stmt(
        `SELECT i.id FROM graph_mentions m JOIN items i ON i.pk = m.item_pk
         WHERE m.entity_id = @g_entity AND m.counted = 1 AND ${where.sql}
         ORDER BY m.item_pk DESC LIMIT @g_limit`,
      );
      return requests.map((r) =>
        (
          stmt.all({ ...where.params, g_entity: r.entity, g_limit: r.limit }) as { id: string }[]
        ).map((row) => row.id),
      );
    });
  }

  async mentionsOf(
    space: string,
    itemIds: readonly string[],
    entityIds: readonly number[],
  ): Promise<Map<string, number[]>> {
    if (itemIds.length === 0 || entityIds.length === 0) return new Map();
    return this.read(() => {
      const rows = this.stmt(
        // CROSS JOIN keeps this order: the given ids through the id index, never a space scan.
        `SELECT i.id, m.entity_id FROM json_each(@items) x
         CROSS JOIN items i ON i.id = x.value CROSS JOIN graph_mentions m ON m.item_pk = i.pk
         WHERE i.space = @space AND m.counted = 1
           AND m.entity_id IN (SELECT value FROM json_each(@entities))`,
      ).all({ space, items: JSON.stringify(itemIds), entities: JSON.stringify(entityIds) }) as {
        id: string;
        entity_id: number;
      }[];
      const out = new Map<string, number[]>();
      for (const r of rows) out.set(r.id, [...(out.get(r.id) ?? []), r.entity_id]);
      return out;
    });
  }

  async labels(ids: readonly number[]): Promise<Map<number, EntityLabel>> {
    return this.read(() => {
      const out = new Map<number, EntityLabel>();
      for (const id of ids) {
        const rows = this.stmt(
          'SELECT surface, type FROM graph_surfaces WHERE entity_id = ? ORDER BY n DESC, surface, type LIMIT 8',
        ).all(id) as { surface: string; type: EntityType }[];
        const first = rows[0];
        if (!first) continue;
        const surfaces = [...new Set(rows.map((r) => r.surface))];
        out.set(id, { name: first.surface, type: first.type, surfaces });
      }
      return out;
    });
  }

  async topEntities(
    space: string,
    order: 'mentions' | 'degree',
    limit: number,
    type?: EntityType,
  ): Promise<EntityRef[]> {
    return this.read(() => {
      const by = order === 'degree' ? 'degree DESC, mentions DESC' : 'mentions DESC, degree DESC';
      const typed = type
        ? `AND (SELECT s.type FROM graph_surfaces s WHERE s.entity_id = e.id ORDER BY s.n DESC, s.surface, s.type LIMIT 1) = @type`
        : '';
      return this.stmt(
        `SELECT id, key, mentions, degree, strong FROM graph_entities e WHERE space = @space ${typed}
         ORDER BY ${by}, key LIMIT @limit`,
      ).all({ space, limit, ...(type ? { type } : {}) }) as EntityRef[];
    });
  }

  async counts(space: string): Promise<GraphCounts> {
    return this.read(() => graphCounts(this.db, space));
  }

  async pairsAmong(ids: readonly number[]): Promise<{ a: number; b: number; weight: number }[]> {
    if (ids.length < 2) return [];
    return this.read(
      () =>
        this.stmt(
          `SELECT a, b, weight FROM graph_pairs WHERE a IN (SELECT value FROM json_each(@ids))
           AND b IN (SELECT value FROM json_each(@ids)) AND a < b ORDER BY a, b`,
        ).all({ ids: JSON.stringify(ids) }) as { a: number; b: number; weight: number }[],
    );
  }

  async coMentioned(entity: number, others: readonly number[]): Promise<number> {
    return this.read(
      () =>
        (
          this.stmt(
            `SELECT count(DISTINCT m1.item_pk) AS n FROM graph_mentions m1
             JOIN graph_mentions m2 ON m2.item_pk = m1.item_pk
             WHERE m1.entity_id = ? AND m1.counted = 1
               AND m2.entity_id IN (SELECT value FROM json_each(?))`,
          ).get(entity, JSON.stringify(others)) as { n: number }
        ).n,
    );
  }

  async mentionProfile(entity: number, sample: number): Promise<MentionProfile> {
    return this.read(() => entityProfile(this.db, entity, sample));
  }

  async spaceProfile(space: string, sample: number): Promise<MentionProfile> {
    return this.read(() => profileOfSpace(this.db, space, sample));
  }

  async dump(space: string): Promise<GraphDump> {
    return this.read(() => dumpGraph(this.db, space));
  }
}
