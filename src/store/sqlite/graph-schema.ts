/**
 * The SQLite schema of the knowledge graph (migrations 2 and 5) and the link statements shared by
 * the graph store and the triggers. Extraction results (mentions, statements) are written by the
 * graph store; everything derived from them (entity counts, pair weights, degrees) is kept by
 * triggers in the same transaction as the write that changes it, so a forget, restore, relation or
 * purge can never leave the graph half updated. A batch of first extractions adds those counts
 * itself, once per entity and pair, in its own transaction (migration 5, graph-batch.ts).
 */

/** The statements of an SQL script, one per string (none of ours has a `;` inside a string). */
export function sqlStatements(sql: string): string[] {
  return sql
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Inserts the links one counted item contributes: a co-mention for every pair of its entities
 * and one link per extracted statement (arrow, alias). `pk` is an SQL expression for its pk.
 */
export function itemLinksSql(pk: string): string {
  return `
INSERT INTO graph_links(a, b, type, item_pk)
  SELECT m1.entity_id, m2.entity_id, 'co_mention', m1.item_pk
  FROM graph_mentions m1 JOIN graph_mentions m2 ON m2.item_pk = m1.item_pk AND m2.entity_id > m1.entity_id
  WHERE m1.item_pk = ${pk} AND m1.counted = 1 AND m2.counted = 1;
INSERT INTO graph_links(a, b, type, item_pk)
  SELECT min(s.a, s.b), max(s.a, s.b), s.type, s.item_pk
  FROM graph_statements s
  WHERE s.item_pk = ${pk} AND s.a <> s.b
    AND EXISTS (SELECT 1 FROM graph_mentions m WHERE m.item_pk = s.item_pk AND m.counted = 1);
`;
}

/**
 * Inserts the links of live relations (`where` selects them over alias `r`): every entity of the
 * source item paired with every other entity of the target item, when both items count.
 */
export function relationLinksSql(where: string): string {
  return `
INSERT INTO graph_links(a, b, type, item_pk, other_pk, relation_id)
  SELECT min(ma.entity_id, mb.entity_id), max(ma.entity_id, mb.entity_id), r.type, fi.pk, ti.pk, r.id
  FROM relations r
  JOIN items fi ON fi.id = r.from_id AND fi.space = r.space
  JOIN items ti ON ti.id = r.to_id AND ti.space = r.space
  JOIN graph_mentions ma ON ma.item_pk = fi.pk AND ma.counted = 1
  JOIN graph_mentions mb ON mb.item_pk = ti.pk AND mb.counted = 1
  WHERE ${where} AND r.invalidated_at IS NULL AND ma.entity_id <> mb.entity_id;
`;
}

/** Removes every link an item takes part in (its own and those of relations touching it). */
export function unlinkItemSql(pk: string): string {
  return `
DELETE FROM graph_links WHERE item_pk = ${pk};
DELETE FROM graph_links WHERE other_pk = ${pk};
`;
}

const FORGOTTEN = (row: string) => `coalesce(${row}.status, 'active') = 'forgotten'`;

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
CREATE TRIGGER graph_links_removed AFTER DELETE ON graph_links BEGIN
  UPDATE graph_entities SET degree = degree - 1 WHERE id IN (old.a, old.b)
    AND (SELECT weight FROM graph_pairs WHERE a = old.a AND b = old.b) <= 1;
  UPDATE graph_pairs SET weight = weight - 1 WHERE a = old.a AND b = old.b;
  UPDATE graph_pairs SET weight = weight - 1 WHERE a = old.b AND b = old.a;
  DELETE FROM graph_pairs WHERE a = old.a AND b = old.b AND weight <= 0;
  DELETE FROM graph_pairs WHERE a = old.b AND b = old.a AND weight <= 0;
END;

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

CREATE TRIGGER graph_relation_added AFTER INSERT ON relations WHEN new.invalidated_at IS NULL BEGIN
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
