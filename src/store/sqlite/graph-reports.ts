/**
 * Read-only graph queries of the SQLite backend that scan more than an index seek: counts for
 * `graph stats`, provenance/area/tag profiles for the hub report, and the canonical dump.
 */
import { mentionProfile, type ProfiledMemory } from '../graph-profile.js';
import type { GraphCounts, GraphDump, MentionProfile } from '../graph-store.js';
import type { SqliteDatabase } from './database.js';
import { coMentionRowsSql } from './graph-schema.js';

/** The most used surface form (or its type) of an entity, as an SQL expression. */
function topSurface(column: 'surface' | 'type', entity: string): string {
  return `(SELECT s.${column} FROM graph_surfaces s WHERE s.entity_id = ${entity} ORDER BY s.n DESC, s.surface, s.type LIMIT 1)`;
}

/**
 * Every link of a space as rows (a, b, type): the stored ones and the co-mentions that follow
 * from the mentions. `space` is the SQL parameter holding the space.
 */
function spaceLinks(space: string): string {
  return `(SELECT l.a, l.b, l.type FROM graph_links l JOIN graph_entities e ON e.id = l.a WHERE e.space = ${space}
    UNION ALL SELECT a, b, type FROM (${coMentionRowsSql(
      `m1.item_pk IN (SELECT item_pk FROM graph_items WHERE space = ${space})`,
    )}))`;
}

function grouped(db: SqliteDatabase, sql: string, space: string): Record<string, number> {
  const rows = db.prepare(sql).all({ space }) as { k: string | null; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.k ?? 'unknown', r.n]));
}

/** Counts of a space's graph. */
export function graphCounts(db: SqliteDatabase, space: string): GraphCounts {
  const entity = db
    .prepare(
      'SELECT count(*) AS n, coalesce(sum(mentions), 0) AS m FROM graph_entities WHERE space = ?',
    )
    .get(space) as { n: number; m: number };
  const edges = db
    .prepare(
      'SELECT count(*) AS n FROM graph_pairs p JOIN graph_entities e ON e.id = p.a WHERE e.space = ? AND p.a < p.b',
    )
    .get(space) as { n: number };
  const items = db.prepare('SELECT items FROM graph_spaces WHERE space = ?').get(space) as
    | { items: number }
    | undefined;
  return {
    entities: entity.n,
    mentions: entity.m,
    edges: edges.n,
    items: items?.items ?? 0,
    by_type: grouped(
      db,
      `SELECT ${topSurface('type', 'e.id')} AS k, count(*) AS n FROM graph_entities e WHERE e.space = @space GROUP BY k ORDER BY k`,
      space,
    ),
    edges_by_type: grouped(
      db,
      `SELECT type AS k, count(*) AS n FROM (SELECT DISTINCT l.a, l.b, l.type FROM ${spaceLinks('@space')} l)
       GROUP BY type ORDER BY type`,
      space,
    ),
  };
}

interface ProfileRow {
  source: string | null;
  area: string;
  tags: string;
}

/** A sampled row as SQLite holds it (JSON text), parsed for the shared profile. */
function parsed(rows: readonly ProfileRow[]): ProfiledMemory[] {
  const json = (text: string | null, fallback: unknown): unknown => {
    if (text === null) return fallback;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return fallback; // unreadable: no provenance, no tags
    }
  };
  return rows.map((r) => {
    const tags = json(r.tags, []);
    return { source: json(r.source, null), area: r.area, tags: Array.isArray(tags) ? tags : [] };
  });
}

/** Profile of the newest `sample` counting items that mention an entity. */
export function entityProfile(db: SqliteDatabase, entity: number, sample: number): MentionProfile {
  const rows = db
    .prepare(
      `SELECT i.source, i.area, i.tags FROM graph_mentions m JOIN items i ON i.pk = m.item_pk
       WHERE m.entity_id = ? AND m.counted = 1 ORDER BY m.item_pk DESC LIMIT ?`,
    )
    .all(entity, sample) as ProfileRow[];
  return mentionProfile(parsed(rows));
}

/** Profile of the newest `sample` counting items of a space. */
export function profileOfSpace(db: SqliteDatabase, space: string, sample: number): MentionProfile {
  const rows = db
    .prepare(
      `SELECT source, area, tags FROM items WHERE space = ? AND coalesce(status, 'active') <> 'forgotten'
       ORDER BY pk DESC LIMIT ?`,
    )
    .all(space, sample) as ProfileRow[];
  return mentionProfile(parsed(rows));
}

/** The whole graph of a space by key and item id, canonically ordered. */
export function dumpGraph(db: SqliteDatabase, space: string): GraphDump {
  const entities = db
    .prepare(
      `SELECT e.key, ${topSurface('surface', 'e.id')} AS name, ${topSurface('type', 'e.id')} AS type,
         e.mentions, e.degree, e.strong FROM graph_entities e WHERE e.space = ? ORDER BY e.key`,
    )
    .all(space) as GraphDump['entities'];
  const mentions = (
    db
      .prepare(
        `SELECT e.key, i.id AS item_id, m.surface, m.count, m.counted, m.weak FROM graph_mentions m
         JOIN graph_entities e ON e.id = m.entity_id JOIN items i ON i.pk = m.item_pk
         WHERE e.space = ? ORDER BY e.key, i.id`,
      )
      .all(space) as (Omit<GraphDump['mentions'][number], 'counted' | 'weak'> & {
      counted: number;
      weak: number;
    })[]
  ).map((m) => ({ ...m, counted: m.counted === 1, weak: m.weak === 1 }));
  const statements = db
    .prepare(
      `SELECT i.id AS item_id, ea.key AS a, eb.key AS b, s.type FROM graph_statements s
       JOIN items i ON i.pk = s.item_pk JOIN graph_entities ea ON ea.id = s.a JOIN graph_entities eb ON eb.id = s.b
       WHERE ea.space = ? ORDER BY i.id, s.type, ea.key, eb.key`,
    )
    .all(space) as GraphDump['statements'];
  const edges = db
    .prepare(
      `SELECT min(ea.key, eb.key) AS a, max(ea.key, eb.key) AS b, l.type, count(*) AS weight
       FROM ${spaceLinks('@space')} l JOIN graph_entities ea ON ea.id = l.a JOIN graph_entities eb ON eb.id = l.b
       GROUP BY l.a, l.b, l.type ORDER BY 1, 2, 3`,
    )
    .all({ space }) as GraphDump['edges'];
  const pairs = db
    .prepare(
      `SELECT ea.key AS a, eb.key AS b, p.weight FROM graph_pairs p
       JOIN graph_entities ea ON ea.id = p.a JOIN graph_entities eb ON eb.id = p.b
       WHERE ea.space = ? AND ea.key < eb.key ORDER BY 1, 2`,
    )
    .all(space) as GraphDump['pairs'];
  return { entities, mentions, statements, edges, pairs };
}
