/**
 * Read-only graph queries of the PostgreSQL backend that scan more than an index seek: counts for
 * `graph stats`, provenance/area/tag profiles for the hub report, and the canonical dump. They
 * mirror SQLite's graph-reports.ts query for query.
 */
import type { Source } from '../../domain/types.js';
import { mentionProfile } from '../graph-profile.js';
import type { GraphCounts, GraphDump, MentionProfile } from '../graph-store.js';
import type { Queryable } from './database.js';
import { coMentionRowsSql } from './graph-schema.js';

/** The most used surface form (or its type) of an entity, as an SQL expression. */
export function topSurface(column: 'surface' | 'type', entity: string): string {
  return `(SELECT s.${column} FROM graph_surfaces s WHERE s.entity_id = ${entity} ORDER BY s.n DESC, s.surface, s.type LIMIT 1)`;
}

/**
 * Every link of the space in $1 as rows (a, b, type): the stored ones and the co-mentions that
 * follow from the mentions.
 */
const SPACE_LINKS = `(SELECT l.a, l.b, l.type FROM graph_links l JOIN graph_entities e ON e.id = l.a
    WHERE e.space = $1
  UNION ALL SELECT a, b, type FROM (${coMentionRowsSql(
    'm1.item_pk IN (SELECT item_pk FROM graph_items WHERE space = $1)',
  )}) c)`;

async function grouped(db: Queryable, sql: string, space: string): Promise<Record<string, number>> {
  const rows = await db.query<{ k: string | null; n: number }>(sql, [space]);
  return Object.fromEntries(rows.map((r) => [r.k ?? 'unknown', r.n]));
}

/** Counts of a space's graph. */
export async function graphCounts(db: Queryable, space: string): Promise<GraphCounts> {
  // One statement at a time: the caller runs them on one connection (one snapshot).
  const entity = await db.query<{ n: number; m: number }>(
    'SELECT count(*) AS n, coalesce(sum(mentions), 0)::int8 AS m FROM graph_entities WHERE space = $1',
    [space],
  );
  const edges = await db.query<{ n: number }>(
    'SELECT count(*) AS n FROM graph_pairs p JOIN graph_entities e ON e.id = p.a WHERE e.space = $1 AND p.a < p.b',
    [space],
  );
  const items = await db.query<{ items: number }>(
    'SELECT items FROM graph_spaces WHERE space = $1',
    [space],
  );
  const byType = await grouped(
    db,
    `SELECT ${topSurface('type', 'e.id')} AS k, count(*) AS n FROM graph_entities e
     WHERE e.space = $1 GROUP BY 1 ORDER BY 1`,
    space,
  );
  const edgesByType = await grouped(
    db,
    `SELECT type AS k, count(*) AS n FROM (SELECT DISTINCT l.a, l.b, l.type FROM ${SPACE_LINKS} l) d
     GROUP BY type ORDER BY type`,
    space,
  );
  return {
    entities: entity[0]?.n ?? 0,
    mentions: entity[0]?.m ?? 0,
    edges: edges[0]?.n ?? 0,
    items: items[0]?.items ?? 0,
    by_type: byType,
    edges_by_type: edgesByType,
  };
}

interface ProfileRow {
  source: Source | null;
  area: string;
  tags: string[];
}

/** Profile of the newest `sample` counting items that mention an entity. */
export async function entityProfile(
  db: Queryable,
  entity: number,
  sample: number,
): Promise<MentionProfile> {
  const rows = await db.query<ProfileRow>(
    `SELECT i.source, i.area, i.tags FROM graph_mentions m JOIN items i ON i.pk = m.item_pk
     WHERE m.entity_id = $1 AND m.counted ORDER BY m.item_pk DESC LIMIT $2`,
    [entity, sample],
  );
  return mentionProfile(rows);
}

/** Profile of the newest `sample` counting items of a space. */
export async function profileOfSpace(
  db: Queryable,
  space: string,
  sample: number,
): Promise<MentionProfile> {
  const rows = await db.query<ProfileRow>(
    `SELECT source, area, tags FROM items WHERE space = $1 AND coalesce(status, 'active') <> 'forgotten'
     ORDER BY pk DESC LIMIT $2`,
    [space, sample],
  );
  return mentionProfile(rows);
}

/** The whole graph of a space by key and item id, canonically ordered. */
export async function dumpGraph(db: Queryable, space: string): Promise<GraphDump> {
  const entities = await db.query<GraphDump['entities'][number]>(
    `SELECT e.key, ${topSurface('surface', 'e.id')} AS name, ${topSurface('type', 'e.id')} AS type,
       e.mentions, e.degree, e.strong FROM graph_entities e WHERE e.space = $1 ORDER BY e.key`,
    [space],
  );
  const mentions = await db.query<GraphDump['mentions'][number]>(
    `SELECT e.key, i.id AS item_id, m.surface, m.count, m.counted, m.weak FROM graph_mentions m
     JOIN graph_entities e ON e.id = m.entity_id JOIN items i ON i.pk = m.item_pk
     WHERE e.space = $1 ORDER BY e.key, i.id`,
    [space],
  );
  const statements = await db.query<GraphDump['statements'][number]>(
    `SELECT i.id AS item_id, ea.key AS a, eb.key AS b, s.type FROM graph_statements s
     JOIN items i ON i.pk = s.item_pk JOIN graph_entities ea ON ea.id = s.a
     JOIN graph_entities eb ON eb.id = s.b
     WHERE ea.space = $1 ORDER BY i.id, s.type, ea.key, eb.key`,
    [space],
  );
  const edges = await db.query<GraphDump['edges'][number]>(
    `SELECT least(ea.key, eb.key) AS a, greatest(ea.key, eb.key) AS b, l.type, count(*)::int AS weight
     FROM ${SPACE_LINKS} l JOIN graph_entities ea ON ea.id = l.a JOIN graph_entities eb ON eb.id = l.b
     GROUP BY l.a, l.b, l.type, ea.key, eb.key ORDER BY 1, 2, 3`,
    [space],
  );
  const pairs = await db.query<GraphDump['pairs'][number]>(
    `SELECT ea.key AS a, eb.key AS b, p.weight FROM graph_pairs p
     JOIN graph_entities ea ON ea.id = p.a JOIN graph_entities eb ON eb.id = p.b
     WHERE ea.space = $1 AND ea.key < eb.key ORDER BY 1, 2`,
    [space],
  );
  return { entities, mentions, statements, edges, pairs };
}
