/**
 * The PostgreSQL graph store: writes item extractions (graph-writes.ts; the triggers of
 * graph-schema.ts keep counts and edges), and answers the traversal's reads with index seeks and
 * bounded fan-out, one round trip per call (lists of entities go through unnest ... WITH
 * ORDINALITY so results keep the request order). Semantics and results match SQLite's store.
 */
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
import type { PgDatabase, Queryable } from './database.js';
import {
  dumpGraph,
  entityProfile,
  graphCounts,
  profileOfSpace,
  topSurface,
} from './graph-reports.js';
import { coMentionRowsSql } from './graph-schema.js';
import { writeExtractions } from './graph-writes.js';
import { compileFilter, Params } from './rows.js';

const REF = 'e.id, e.key, e.mentions, e.degree, e.strong';

const STALE_SQL = `FROM items i LEFT JOIN graph_items g ON g.item_pk = i.pk
  WHERE i.space = $1 AND (g.item_pk IS NULL OR g.version <> i.version OR g.extractor <> $2)`;

type NeighborRow = EntityRef & { from: number; weight: number };

function toNeighbors(rows: readonly NeighborRow[]): Neighbor[] {
  return rows.map(({ from, weight, ...to }) => ({ from, to, weight }));
}

/** The GraphStore over engram's PostgreSQL schema. */
export class PgGraphStore implements GraphStore {
  constructor(private readonly db: PgDatabase) {}

  /** Runs several reads on one snapshot, so a report never mixes two states of the graph. */
  private snapshot<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      return fn(tx);
    }, 'read');
  }

  async writeExtractions(
    space: string,
    docs: readonly GraphDoc[],
    extractor: number,
  ): Promise<number> {
    if (docs.length === 0) return 0;
    return this.db.transaction((tx) => writeExtractions(tx, space, docs, extractor));
  }

  async extractionStates(
    space: string,
    ids: readonly string[],
  ): Promise<Map<string, { version: number; extractor: number }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.query<{ id: string; version: number; extractor: number }>(
      `SELECT i.id, g.version, g.extractor FROM items i JOIN graph_items g ON g.item_pk = i.pk
       WHERE i.space = $1 AND i.id = ANY($2::text[])`,
      [space, [...ids]],
    );
    return new Map(rows.map((r) => [r.id, { version: r.version, extractor: r.extractor }]));
  }

  async staleItems(
    space: string,
    extractor: number,
    limit: number,
    afterId = '',
  ): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `SELECT i.id ${STALE_SQL} AND i.id > $3 ORDER BY i.id LIMIT $4`,
      [space, extractor, afterId, limit],
    );
    return rows.map((r) => r.id);
  }

  async countStale(space: string, extractor: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(`SELECT count(*) AS n ${STALE_SQL}`, [
      space,
      extractor,
    ]);
    return row?.n ?? 0;
  }

  async clear(space: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query('SELECT graph_lock($1)', [space]);
      // Pairs and surfaces first: the triggers of the rows deleted after them then find nothing
      // left to count down, and the space's entities go with their last mention.
      const entities = 'SELECT id FROM graph_entities WHERE space = $1';
      const items = 'SELECT item_pk FROM graph_items WHERE space = $1';
      await tx.query(`DELETE FROM graph_pairs WHERE a IN (${entities})`, [space]);
      await tx.query(`DELETE FROM graph_surfaces WHERE entity_id IN (${entities})`, [space]);
      await tx.query(`DELETE FROM graph_links WHERE item_pk IN (${items})`, [space]);
      await tx.query(`DELETE FROM graph_links WHERE other_pk IN (${items})`, [space]);
      await tx.query(`DELETE FROM graph_statements WHERE item_pk IN (${items})`, [space]);
      await tx.query(`DELETE FROM graph_mentions WHERE item_pk IN (${items})`, [space]);
      await tx.query('DELETE FROM graph_items WHERE space = $1', [space]);
      await tx.query('DELETE FROM graph_entities WHERE space = $1', [space]);
    });
  }

  async itemCount(space: string): Promise<number> {
    const [row] = await this.db.query<{ items: number }>(
      'SELECT items FROM graph_spaces WHERE space = $1',
      [space],
    );
    return row?.items ?? 0;
  }

  async entitiesByKey(space: string, keys: readonly string[]): Promise<EntityRef[]> {
    if (keys.length === 0) return [];
    return this.db.query<EntityRef>(
      `SELECT ${REF} FROM graph_entities e WHERE e.space = $1 AND e.key = ANY($2::text[]) ORDER BY e.key`,
      [space, [...keys]],
    );
  }

  async entitiesByFirstWord(
    space: string,
    words: readonly string[],
    limitEach: number,
  ): Promise<EntityRef[]> {
    if (words.length === 0) return [];
    return this.db.query<EntityRef>(
      `SELECT ${REF} FROM unnest($2::text[]) WITH ORDINALITY AS w(word, n)
       CROSS JOIN LATERAL (
         SELECT * FROM graph_entities x
         WHERE x.space = $1 AND x.key > w.word || ' ' AND x.key < w.word || '!'
         ORDER BY x.mentions DESC, x.key LIMIT $3
       ) e ORDER BY w.n, e.mentions DESC, e.key`,
      [space, [...words], limitEach],
    );
  }

  async entitiesById(ids: readonly number[]): Promise<EntityRef[]> {
    if (ids.length === 0) return [];
    return this.db.query<EntityRef>(
      `SELECT ${REF} FROM graph_entities e WHERE e.id = ANY($1::int8[]) ORDER BY e.id`,
      [[...ids]],
    );
  }

  async aliasesOf(ids: readonly number[]): Promise<Neighbor[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<NeighborRow>(
      `SELECT f.id AS "from", ${REF}, l.weight FROM unnest($1::int8[]) WITH ORDINALITY AS f(id, n)
       CROSS JOIN LATERAL (
         SELECT other, count(*)::int AS weight FROM (
           SELECT b AS other FROM graph_links WHERE a = f.id AND type = 'alias'
           UNION ALL
           SELECT a FROM graph_links WHERE b = f.id AND type = 'alias'
         ) o GROUP BY other
       ) l JOIN graph_entities e ON e.id = l.other ORDER BY f.n, e.id`,
      [[...ids]],
    );
    return toNeighbors(rows);
  }

  async neighborsOf(ids: readonly number[], limitEach: number): Promise<Neighbor[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<NeighborRow>(
      `SELECT f.id AS "from", ${REF}, p.weight FROM unnest($1::int8[]) WITH ORDINALITY AS f(id, n)
       CROSS JOIN LATERAL (
         SELECT b, weight FROM graph_pairs WHERE a = f.id ORDER BY weight DESC, b LIMIT $2
       ) p JOIN graph_entities e ON e.id = p.b ORDER BY f.n, p.weight DESC, p.b`,
      [[...ids], limitEach],
    );
    return toNeighbors(rows);
  }

  async edgesBetween(a: number, b: number): Promise<{ type: EdgeType; weight: number }[]> {
    return this.db.query<{ type: EdgeType; weight: number }>(
      `SELECT type, count(*)::int AS weight FROM (
         SELECT type FROM graph_links WHERE a = $1 AND b = $2
         UNION ALL SELECT type FROM (${coMentionRowsSql('m1.entity_id = $1 AND m2.entity_id = $2')}) c
       ) l GROUP BY type ORDER BY type`,
      [Math.min(a, b), Math.max(a, b)],
    );
  }

  async itemsMentioning(
    filter: ItemFilter,
    requests: readonly { entity: number; limit: number }[],
  ): Promise<string[][]> {
    if (requests.length === 0) return [];
    const params = new Params();
    const entities = params.add(
      requests.map((r) => r.entity),
      '::int8[]',
    );
    const limits = params.add(
      requests.map((r) => r.limit),
      '::int8[]',
    );
    const where = compileFilter(filter, params, 'i');
    const rows = await this.db.query<{ n: number; id: string }>(
      `SELECT r.n, x.id FROM unnest(${entities}, ${limits}) WITH ORDINALITY AS r(entity, lim, n)
       CROSS JOIN LATERAL (
         SELECT i.id, m.item_pk FROM graph_mentions m JOIN items i ON i.pk = m.item_pk
         WHERE m.entity_id = r.entity AND m.counted AND ${where}
         ORDER BY m.item_pk DESC LIMIT r.lim
       ) x ORDER BY r.n, x.item_pk DESC`,
      params.values,
    );
    const lists: string[][] = requests.map(() => []);
    for (const row of rows) lists[row.n - 1]!.push(row.id);
    return lists;
  }

  async mentionsOf(
    space: string,
    itemIds: readonly string[],
    entityIds: readonly number[],
  ): Promise<Map<string, number[]>> {
    if (itemIds.length === 0 || entityIds.length === 0) return new Map();
    const rows = await this.db.query<{ id: string; entity_id: number }>(
      `SELECT i.id, m.entity_id FROM items i JOIN graph_mentions m ON m.item_pk = i.pk
       WHERE i.id = ANY($1::text[]) AND i.space = $2 AND m.counted AND m.entity_id = ANY($3::int8[])
       ORDER BY i.id, m.entity_id`,
      [[...itemIds], space, [...entityIds]],
    );
    const out = new Map<string, number[]>();
    for (const r of rows) out.set(r.id, [...(out.get(r.id) ?? []), r.entity_id]);
    return out;
  }

  async labels(ids: readonly number[]): Promise<Map<number, EntityLabel>> {
    if (ids.length === 0) return new Map();
    const unique = [...new Set(ids)];
    const rows = await this.db.query<{ id: number; surface: string; type: EntityType }>(
      `SELECT f.id, s.surface, s.type FROM unnest($1::int8[]) WITH ORDINALITY AS f(id, n)
       CROSS JOIN LATERAL (
         SELECT surface, type, n FROM graph_surfaces WHERE entity_id = f.id
         ORDER BY n DESC, surface, type LIMIT 8
       ) s ORDER BY f.n, s.n DESC, s.surface, s.type`,
      [unique],
    );
    const grouped = new Map<number, { surface: string; type: EntityType }[]>();
    for (const r of rows) grouped.set(r.id, [...(grouped.get(r.id) ?? []), r]);
    const out = new Map<number, EntityLabel>();
    for (const [id, list] of grouped) {
      const first = list[0]!;
      out.set(id, {
        name: first.surface,
        type: first.type,
        surfaces: [...new Set(list.map((r) => r.surface))],
      });
    }
    return out;
  }

  async topEntities(
    space: string,
    order: 'mentions' | 'degree',
    limit: number,
    type?: EntityType,
  ): Promise<EntityRef[]> {
    const by = order === 'degree' ? 'degree DESC, mentions DESC' : 'mentions DESC, degree DESC';
    const typed = type ? `AND ${topSurface('type', 'e.id')} = $3` : '';
    return this.db.query<EntityRef>(
      `SELECT ${REF} FROM graph_entities e WHERE e.space = $1 ${typed}
       ORDER BY ${by}, key LIMIT $2`,
      type ? [space, limit, type] : [space, limit],
    );
  }

  async counts(space: string): Promise<GraphCounts> {
    return this.snapshot((tx) => graphCounts(tx, space));
  }

  async pairsAmong(ids: readonly number[]): Promise<{ a: number; b: number; weight: number }[]> {
    if (ids.length < 2) return [];
    return this.db.query<{ a: number; b: number; weight: number }>(
      `SELECT a, b, weight FROM graph_pairs WHERE a = ANY($1::int8[]) AND b = ANY($1::int8[])
       AND a < b ORDER BY a, b`,
      [[...ids]],
    );
  }

  async coMentioned(entity: number, others: readonly number[]): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      `SELECT count(DISTINCT m1.item_pk) AS n FROM graph_mentions m1
       JOIN graph_mentions m2 ON m2.item_pk = m1.item_pk
       WHERE m1.entity_id = $1 AND m1.counted AND m2.entity_id = ANY($2::int8[])`,
      [entity, [...others]],
    );
    return row?.n ?? 0;
  }

  async mentionProfile(entity: number, sample: number): Promise<MentionProfile> {
    return entityProfile(this.db, entity, sample);
  }

  async spaceProfile(space: string, sample: number): Promise<MentionProfile> {
    return profileOfSpace(this.db, space, sample);
  }

  async dump(space: string): Promise<GraphDump> {
    return this.snapshot((tx) => dumpGraph(tx, space));
  }
}
