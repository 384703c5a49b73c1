/**
 * The SQLite schema of the knowledge graph (migrations 2 and 5) and the link statements shared by
 * the graph store and the triggers. Extraction results (mentions, statements) are written by the
 * graph store; everything derived from them (entity counts, pair weights, degrees) is kept by
 * triggers in the same transaction as the write that changes it, so a forget, restore, relation or
 * purge can never leave the graph half updated. A batch of first extractions adds those counts
 * itself, once per entity and pair, in its own transaction (migration 5, graph-batch.ts).
 */

import { RELATION_FANOUT } from '../graph-store.js';

/** The statements of an SQL script, one per string (none of ours has a `;` inside a string). */
export function sqlStatements(sql: string): string[] {
  return sql
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The entity ids of an item's counted mentions (`pk` an SQL expression for its pk). */
const countedEntities = (pk: string) =>
  `SELECT entity_id FROM graph_mentions WHERE item_pk = ${pk} AND counted = 1`;

/**
 * Adds the co-mentions of one counted item to the pair weights: one for every ordered pair of its
 * counted entities, and a degree to both ends of a pair new to the graph. Co-mentions are not
 * stored as links: they follow from the mentions (graph_mentions), and only their weights are
 * kept (migration 12).
 */
export function addCoMentionsSql(pk: string): string {
  return `
UPDATE graph_entities SET degree = degree + (
    SELECT count(*) FROM graph_mentions m2
    WHERE m2.item_pk = ${pk} AND m2.counted = 1 AND m2.entity_id <> graph_entities.id
      AND NOT EXISTS (SELECT 1 FROM graph_pairs p WHERE p.a = graph_entities.id AND p.b = m2.entity_id))
  WHERE id IN (${countedEntities(pk)});
INSERT INTO graph_pairs(a, b, weight)
  SELECT m1.entity_id, m2.entity_id, 1
  FROM graph_mentions m1 JOIN graph_mentions m2 ON m2.item_pk = m1.item_pk AND m2.entity_id <> m1.entity_id
  WHERE m1.item_pk = ${pk} AND m1.counted = 1 AND m2.counted = 1
  ON CONFLICT(a, b) DO UPDATE SET weight = weight + 1;
`;
}

/**
 * Takes the co-mentions of one counted item out of the pair weights (before its mentions stop
 * counting or go): a pair left at zero goes, with a degree from both ends.
 */
export function removeCoMentionsSql(pk: string): string {
  return `
UPDATE graph_pairs SET weight = weight - 1
  WHERE a IN (${countedEntities(pk)}) AND b IN (${countedEntities(pk)}) AND a <> b;
UPDATE graph_entities SET degree = degree - (
    SELECT count(*) FROM graph_pairs p WHERE p.a = graph_entities.id AND p.weight <= 0)
  WHERE id IN (${countedEntities(pk)});
DELETE FROM graph_pairs WHERE weight <= 0 AND a IN (${countedEntities(pk)});
`;
}

/**
 * The co-mention links of counted items as rows (a, b, type, item_pk; a < b), for the reads that
 * list links by type: `where` narrows them over the aliases m1 (smaller entity) and m2.
 */
export function coMentionRowsSql(where: string): string {
  return `SELECT m1.entity_id AS a, m2.entity_id AS b, 'co_mention' AS type, m1.item_pk AS item_pk
  FROM graph_mentions m1 JOIN graph_mentions m2 ON m2.item_pk = m1.item_pk AND m2.entity_id > m1.entity_id
  WHERE m1.counted = 1 AND m2.counted = 1 AND ${where}`;
}

/** Inserts one link per extracted statement (arrow, alias) of a counted item. */
export function statementLinksSql(pk: string): string {
  return `
INSERT INTO graph_links(a, b, type, item_pk)
  SELECT min(s.a, s.b), max(s.a, s.b), s.type, s.item_pk
  FROM graph_statements s
  WHERE s.item_pk = ${pk} AND s.a <> s.b
    AND EXISTS (SELECT 1 FROM graph_mentions m WHERE m.item_pk = s.item_pk AND m.counted = 1);
`;
}

/** What one counted item contributes by itself: its co-mentions and its statement links. */
export function itemLinksSql(pk: string): string {
  return `${addCoMentionsSql(pk)}${statementLinksSql(pk)}`;
}

/** The first RELATION_FANOUT counted entities of an item, as they are linked. */
const linkedEntities = (pk: string) =>
  `SELECT m.entity_id FROM graph_mentions m JOIN graph_entities e ON e.id = m.entity_id
     WHERE m.item_pk = ${pk} AND m.counted = 1
     ORDER BY m.weak, m.count DESC, e.key LIMIT ${RELATION_FANOUT}`;

/**
 * Inserts the links of live relations (`where` selects them over alias `r`): each of the first
 * RELATION_FANOUT entities of the source item paired with each other one of the target item's,
 * when both items count.
 */
export function relationLinksSql(where: string): string {
  return `
INSERT INTO graph_links(a, b, type, item_pk, other_pk, relation_id)
  SELECT min(ma.entity_id, mb.entity_id), max(ma.entity_id, mb.entity_id), r.type, fi.pk, ti.pk, r.id
  FROM relations r
  JOIN items fi ON fi.id = r.from_id AND fi.space = r.space
  JOIN items ti ON ti.id = r.to_id AND ti.space = r.space
  JOIN graph_mentions ma ON ma.item_pk = fi.pk AND ma.entity_id IN (${linkedEntities('fi.pk')})
  JOIN graph_mentions mb ON mb.item_pk = ti.pk AND mb.entity_id IN (${linkedEntities('ti.pk')})
  WHERE ${where} AND r.invalidated_at IS NULL AND ma.entity_id <> mb.entity_id;
`;
}

/**
 * The links of many live relations in one statement (`ids` an SQL list of relation ids), the same
 * ones relationLinksSql gives them, each item's first entities ranked once. Not for triggers
 * (SQLite allows no WITH there).
 */
export function relationLinksBatchSql(ids: string): string {
  return `
WITH rel AS (
  SELECT r.id, r.type, fi.pk AS fpk, ti.pk AS tpk FROM relations r
  JOIN items fi ON fi.id = r.from_id AND fi.space = r.space
  JOIN items ti ON ti.id = r.to_id AND ti.space = r.space
  WHERE r.id IN (${ids}) AND r.invalidated_at IS NULL),
top AS MATERIALIZED (
  SELECT item_pk, entity_id FROM (
    SELECT m.item_pk, m.entity_id,
      row_number() OVER (PARTITION BY m.item_pk ORDER BY m.weak, m.count DESC, e.key) AS rank
    FROM graph_mentions m JOIN graph_entities e ON e.id = m.entity_id
    WHERE m.counted = 1 AND m.item_pk IN (SELECT fpk FROM rel UNION SELECT tpk FROM rel))
  WHERE rank <= ${RELATION_FANOUT})
INSERT INTO graph_links(a, b, type, item_pk, other_pk, relation_id)
  SELECT min(ta.entity_id, tb.entity_id), max(ta.entity_id, tb.entity_id), rel.type, rel.fpk, rel.tpk, rel.id
  FROM rel JOIN top ta ON ta.item_pk = rel.fpk JOIN top tb ON tb.item_pk = rel.tpk
  WHERE ta.entity_id <> tb.entity_id`;
}

/**
 * Removes every link an item takes part in (its own and those of relations touching it) and its
 * co-mentions, while its mentions still count.
 */
export function unlinkItemSql(pk: string): string {
  return `
DELETE FROM graph_links WHERE item_pk = ${pk};
DELETE FROM graph_links WHERE other_pk = ${pk};
${removeCoMentionsSql(pk)}`;
}

const FORGOTTEN = (row: string) => `coalesce(${row}.status, 'active') = 'forgotten'`;

/** Keeps pair weights and degrees when a link goes (migration 2). */
const LINKS_REMOVED_TRIGGER_SQL = `
CREATE TRIGGER graph_links_removed AFTER DELETE ON graph_links BEGIN
  UPDATE graph_entities SET degree = degree - 1 WHERE id IN (old.a, old.b)
    AND (SELECT weight FROM graph_pairs WHERE a = old.a AND b = old.b) <= 1;
  UPDATE graph_pairs SET weight = weight - 1 WHERE a = old.a AND b = old.b;
  UPDATE graph_pairs SET weight = weight - 1 WHERE a = old.b AND b = old.a;
  DELETE FROM graph_pairs WHERE a = old.a AND b = old.b AND weight <= 0;
  DELETE FROM graph_pairs WHERE a = old.b AND b = old.a AND weight <= 0;
END;
`;

/**
 * What a forget, restore, purge or relation change does to the links (migrations 2 and 12); a new
 * relation is linked by trigger when `relationAdded` holds (since migration 12, outside a batch).
 */
const itemTriggersSql = (relationAdded: string) => `
CREATE TRIGGER graph_item_forgotten AFTER UPDATE OF status ON items
WHEN ${FORGOTTEN('new')} AND NOT ${FORGOTTEN('old')} BEGIN
  ${unlinkItemSql('new.pk')}
  UPDATE graph_mentions SET counted = 0 WHERE item_pk = new.pk;
END;
CREATE TRIGGER graph_item_unforgotten AFTER UPDATE OF status ON items
WHEN NOT ${FORGOTTEN('new')} AND ${FORGOTTEN('old')} BEGIN
  UPDATE graph_mentions SET counted = 1 WHERE item_pk = new.pk;
  ${itemLinksSql('new.pk')}
  ${relationLinksSql('r.from_id = new.id AND r.space = new.space')}
  ${relationLinksSql('r.to_id = new.id AND r.space = new.space')}
END;
CREATE TRIGGER graph_item_purged AFTER DELETE ON items BEGIN
  ${unlinkItemSql('old.pk')}
  DELETE FROM graph_statements WHERE item_pk = old.pk;
  DELETE FROM graph_mentions WHERE item_pk = old.pk;
  DELETE FROM graph_items WHERE item_pk = old.pk;
END;

CREATE TRIGGER graph_relation_added AFTER INSERT ON relations WHEN ${relationAdded} BEGIN
  ${relationLinksSql('r.id = new.id')}
END;
CREATE TRIGGER graph_relation_invalidated AFTER UPDATE OF invalidated_at ON relations
WHEN new.invalidated_at IS NOT NULL AND old.invalidated_at IS NULL BEGIN
  DELETE FROM graph_links WHERE relation_id = new.id;
END;
CREATE TRIGGER graph_relation_revalidated AFTER UPDATE OF invalidated_at ON relations
WHEN new.invalidated_at IS NULL AND old.invalidated_at IS NOT NULL BEGIN
  ${relationLinksSql('r.id = new.id')}
END;
`;

/** Migration 2: graph tables, indexes and the triggers that keep derived counts exact. */
export const GRAPH_SCHEMA_SQL = `
CREATE TABLE graph_spaces (
  space TEXT PRIMARY KEY,
  items INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TABLE graph_entities (
  id INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  key TEXT NOT NULL,
  mentions INTEGER NOT NULL DEFAULT 0,
  strong INTEGER NOT NULL DEFAULT 0,
  degree INTEGER NOT NULL DEFAULT 0,
  UNIQUE (space, key)
);
CREATE INDEX graph_entities_by_mentions ON graph_entities(space, mentions DESC, key);
CREATE INDEX graph_entities_by_degree ON graph_entities(space, degree DESC, key);

CREATE TABLE graph_items (
  item_pk INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  version INTEGER NOT NULL,
  extractor INTEGER NOT NULL,
  truncated INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE graph_mentions (
  entity_id INTEGER NOT NULL,
  item_pk INTEGER NOT NULL,
  surface TEXT NOT NULL,
  type TEXT NOT NULL,
  count INTEGER NOT NULL,
  counted INTEGER NOT NULL,
  weak INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (entity_id, item_pk)
) WITHOUT ROWID;
CREATE INDEX graph_mentions_by_item ON graph_mentions(item_pk, entity_id);

CREATE TABLE graph_surfaces (
  entity_id INTEGER NOT NULL,
  surface TEXT NOT NULL,
  type TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (entity_id, surface, type)
) WITHOUT ROWID;
CREATE INDEX graph_surfaces_top ON graph_surfaces(entity_id, n DESC, surface, type);

CREATE TABLE graph_statements (
  item_pk INTEGER NOT NULL,
  a INTEGER NOT NULL,
  b INTEGER NOT NULL,
  type TEXT NOT NULL,
  PRIMARY KEY (item_pk, a, b, type)
) WITHOUT ROWID;

CREATE TABLE graph_links (
  a INTEGER NOT NULL,
  b INTEGER NOT NULL,
  type TEXT NOT NULL,
  item_pk INTEGER NOT NULL,
  other_pk INTEGER,
  relation_id TEXT
);
CREATE INDEX graph_links_by_item ON graph_links(item_pk);
CREATE INDEX graph_links_by_pair ON graph_links(a, b, type);
CREATE INDEX graph_links_alias_a ON graph_links(a) WHERE type = 'alias';
CREATE INDEX graph_links_alias_b ON graph_links(b) WHERE type = 'alias';
CREATE INDEX graph_links_by_other ON graph_links(other_pk) WHERE other_pk IS NOT NULL;
CREATE INDEX graph_links_by_relation ON graph_links(relation_id) WHERE relation_id IS NOT NULL;

CREATE TABLE graph_pairs (
  a INTEGER NOT NULL,
  b INTEGER NOT NULL,
  weight INTEGER NOT NULL,
  PRIMARY KEY (a, b)
) WITHOUT ROWID;
CREATE INDEX graph_pairs_strongest ON graph_pairs(a, weight DESC, b);

CREATE TRIGGER graph_items_added AFTER INSERT ON graph_items BEGIN
  INSERT INTO graph_spaces(space, items) VALUES (new.space, 1)
    ON CONFLICT(space) DO UPDATE SET items = items + 1;
END;
CREATE TRIGGER graph_items_removed AFTER DELETE ON graph_items BEGIN
  UPDATE graph_spaces SET items = items - 1 WHERE space = old.space;
END;

CREATE TRIGGER graph_mentions_added AFTER INSERT ON graph_mentions BEGIN
  INSERT INTO graph_surfaces(entity_id, surface, type, n) VALUES (new.entity_id, new.surface, new.type, 1)
    ON CONFLICT(entity_id, surface, type) DO UPDATE SET n = n + 1;
  UPDATE graph_entities SET mentions = mentions + new.counted, strong = strong + 1 - new.weak
    WHERE id = new.entity_id;
END;
CREATE TRIGGER graph_mentions_removed AFTER DELETE ON graph_mentions BEGIN
  UPDATE graph_surfaces SET n = n - 1
    WHERE entity_id = old.entity_id AND surface = old.surface AND type = old.type;
  DELETE FROM graph_surfaces
    WHERE entity_id = old.entity_id AND surface = old.surface AND type = old.type AND n <= 0;
  UPDATE graph_entities SET mentions = mentions - old.counted, strong = strong - 1 + old.weak
    WHERE id = old.entity_id;
  DELETE FROM graph_entities WHERE id = old.entity_id
    AND NOT EXISTS (SELECT 1 FROM graph_mentions WHERE entity_id = old.entity_id);
END;
CREATE TRIGGER graph_mentions_recounted AFTER UPDATE OF counted ON graph_mentions BEGIN
  UPDATE graph_entities SET mentions = mentions + new.counted - old.counted WHERE id = new.entity_id;
END;

CREATE TRIGGER graph_links_added AFTER INSERT ON graph_links BEGIN
  UPDATE graph_entities SET degree = degree + 1 WHERE id IN (new.a, new.b)
    AND NOT EXISTS (SELECT 1 FROM graph_pairs WHERE a = new.a AND b = new.b);
  INSERT INTO graph_pairs(a, b, weight) VALUES (new.a, new.b, 1)
    ON CONFLICT(a, b) DO UPDATE SET weight = weight + 1;
  INSERT INTO graph_pairs(a, b, weight) VALUES (new.b, new.a, 1)
    ON CONFLICT(a, b) DO UPDATE SET weight = weight + 1;
END;
${LINKS_REMOVED_TRIGGER_SQL}
${itemTriggersSql('new.invalidated_at IS NULL')}`;

/** The condition of the row triggers a batch write stands in for (see GRAPH_BATCH_SQL). */
const OUTSIDE_BATCH = 'NOT EXISTS (SELECT 1 FROM graph_batch)';

/**
 * Migration 5: a batch of first extractions keeps the derived counts itself, one update per
 * entity, surface form, pair and space instead of one trigger run per mention, link and item
 * (graph-batch.ts). It marks itself with a `graph_batch` row, inserted and deleted inside its own
 * transaction, so no other connection ever sees one; the three row triggers below stand aside
 * while it exists and otherwise do exactly what migration 2's did, for every other writer
 * (older engram versions included).
 */
export const GRAPH_BATCH_SQL = `
CREATE TABLE graph_batch (id INTEGER PRIMARY KEY);

DROP TRIGGER graph_items_added;
CREATE TRIGGER graph_items_added AFTER INSERT ON graph_items WHEN ${OUTSIDE_BATCH} BEGIN
  INSERT INTO graph_spaces(space, items) VALUES (new.space, 1)
    ON CONFLICT(space) DO UPDATE SET items = items + 1;
END;

DROP TRIGGER graph_mentions_added;
CREATE TRIGGER graph_mentions_added AFTER INSERT ON graph_mentions WHEN ${OUTSIDE_BATCH} BEGIN
  INSERT INTO graph_surfaces(entity_id, surface, type, n) VALUES (new.entity_id, new.surface, new.type, 1)
    ON CONFLICT(entity_id, surface, type) DO UPDATE SET n = n + 1;
  UPDATE graph_entities SET mentions = mentions + new.counted, strong = strong + 1 - new.weak
    WHERE id = new.entity_id;
END;

DROP TRIGGER graph_links_added;
CREATE TRIGGER graph_links_added AFTER INSERT ON graph_links WHEN ${OUTSIDE_BATCH} BEGIN
  UPDATE graph_entities SET degree = degree + 1 WHERE id IN (new.a, new.b)
    AND NOT EXISTS (SELECT 1 FROM graph_pairs WHERE a = new.a AND b = new.b);
  INSERT INTO graph_pairs(a, b, weight) VALUES (new.a, new.b, 1)
    ON CONFLICT(a, b) DO UPDATE SET weight = weight + 1;
  INSERT INTO graph_pairs(a, b, weight) VALUES (new.b, new.a, 1)
    ON CONFLICT(a, b) DO UPDATE SET weight = weight + 1;
END;
`;

/**
 * Migration 12: co-mentions follow from the mentions instead of one stored link per pair of an
 * item's entities (three quarters of all link rows, and most of the cost of writing a note), and
 * a relation links only the first RELATION_FANOUT entities of each of its items. The pair weights
 * already count the co-mention links, so those rows go without the removal trigger; the relation
 * links are rebuilt under the new rule, their weights following by trigger. The item and relation
 * triggers are replaced by ones that keep co-mention weights from the mentions.
 */
export const GRAPH_DERIVED_CO_MENTIONS_SQL = `
DROP TRIGGER graph_item_forgotten;
DROP TRIGGER graph_item_unforgotten;
DROP TRIGGER graph_item_purged;
DROP TRIGGER graph_relation_added;
DROP TRIGGER graph_relation_invalidated;
DROP TRIGGER graph_relation_revalidated;
${itemTriggersSql(`new.invalidated_at IS NULL AND ${OUTSIDE_BATCH}`)}
DROP TRIGGER graph_links_removed;
DELETE FROM graph_links WHERE type = 'co_mention';
${LINKS_REMOVED_TRIGGER_SQL}
DELETE FROM graph_links WHERE relation_id IS NOT NULL;
${relationLinksBatchSql('SELECT id FROM relations')};
`;
