/**
 * First extractions of a batch of items (every new memory goes this way), written together:
 * entities looked up and created in two statements, then each item's mentions and statements
 * through one prepared statement per table, in the order the items come. The counts those rows
 * feed (surface forms, entity mentions and degrees, pair weights with the items' co-mentions,
 * items per space) are added once per entity, surface, pair and space at the end, while a `graph_batch`
 * row keeps the row triggers aside (graph-schema.ts, migration 5). Statement and relation links
 * go through the triggers after that, as item-by-item writes do.
 */
import type Database from 'better-sqlite3';

import type { GraphDoc } from '../graph-store.js';
import { relationLinksBatchSql, sqlStatements, statementLinksSql } from './graph-schema.js';

/** Prepares (or reuses) a statement on the store's connection. */
export type Prepare = (sql: string) => Database.Statement;

/** What the writes of one batch share inside its transaction. */
export interface WriteContext {
  prepare: Prepare;
  space: string;
  extractor: number;
  /** Entity ids by key, learned in this batch (dropped whenever an entity may have gone). */
  entities: Map<string, number>;
  /** Items of the batch that take part in some relation. */
  related: ReadonlySet<string>;
}

/** A first extraction of an item at its current version. */
export interface FreshDoc {
  doc: GraphDoc;
  pk: number;
  counted: boolean;
}

const STATEMENT_LINKS = sqlStatements(statementLinksSql('@pk'))[0]!;
/**
 * The links of every live relation touching the batch's related items, each relation once (also
 * when both its items are in the batch), in one statement while the row triggers stand aside.
 */
const RELATION_LINKS = `${relationLinksBatchSql(
  `SELECT id FROM relations WHERE space = @space AND from_id IN (SELECT value FROM json_each(@ids))
   UNION SELECT id FROM relations WHERE space = @space AND to_id IN (SELECT value FROM json_each(@ids))`,
)} RETURNING a, b`;

/** The links of new relations (`@ids` a JSON list of their ids), while the row triggers stand aside. */
const NEW_RELATION_LINKS = `${relationLinksBatchSql('SELECT value FROM json_each(@ids)')} RETURNING a, b`;

/** What the rows of a batch add to the derived counts. */
class Tally {
  /** Per entity id: [mentions, strong, degree]. */
  readonly entities = new Map<number, [number, number, number]>();
  /** Per entity id, surface and type: the mentions using that form. */
  readonly surfaces = new Map<string, { id: number; surface: string; type: string; n: number }>();
  /** Per pair of entity ids (smaller first, joined by ','): the links added. */
  readonly pairs = new Map<string, number>();

  entity(id: number): [number, number, number] {
    let e = this.entities.get(id);
    if (!e) this.entities.set(id, (e = [0, 0, 0]));
    return e;
  }

  mention(id: number, surface: string, type: string, counted: boolean, weak: boolean): void {
    const e = this.entity(id);
    e[0] += counted ? 1 : 0;
    e[1] += weak ? 0 : 1;
    const form = JSON.stringify([id, surface, type]);
    const known = this.surfaces.get(form);
    if (known) known.n++;
    else this.surfaces.set(form, { id, surface, type, n: 1 });
  }

  link(a: number, b: number): void {
    const pair = `${a},${b}`;
    this.pairs.set(pair, (this.pairs.get(pair) ?? 0) + 1);
  }
}

/**
 * Writes the first extractions of the documents inside the caller's transaction. The graph it
 * leaves is the one writing them one by one (with the row triggers) leaves.
 */
export function writeFresh(ctx: WriteContext, docs: readonly FreshDoc[]): void {
  if (docs.length === 0) return;
  const { prepare } = ctx;
  const named = docs.filter((d) => d.doc.extraction.entities.length > 0);
  resolveEntities(ctx, named);
  const tally = new Tally();
  prepare('INSERT INTO graph_batch(id) VALUES (1)').run();
  const linked = writeRows(ctx, docs, named, tally);
  // A relation links once both its items have mentions: an item of an earlier batch found this
  // one without any and linked nothing, so every relation of the batch's items is linked here.
  if (linked.related.length > 0)
    for (const { a, b } of prepare(RELATION_LINKS).all({
      space: ctx.space,
      ids: JSON.stringify(linked.related),
    }) as { a: number; b: number }[])
      tally.link(a, b);
  applyTally(prepare, tally, { space: ctx.space, items: docs.length });
  prepare('DELETE FROM graph_batch').run();
  for (const pk of linked.statements) prepare(STATEMENT_LINKS).run({ pk });
}

/**
 * Mentions, statements and extraction records of the batch, and its co-mentions (counted in the
 * tally); returns the items whose statement and relation links are still to add.
 */
function writeRows(
  ctx: WriteContext,
  docs: readonly FreshDoc[],
  named: readonly FreshDoc[],
  tally: Tally,
): { statements: number[]; related: string[] } {
  const { prepare } = ctx;
  const mentions: [number, number, string, string, number, number, number][] = [];
  const statement = prepare(
    'INSERT OR IGNORE INTO graph_statements(item_pk, a, b, type) VALUES (?, ?, ?, ?)',
  );
  const linked = { statements: [] as number[], related: [] as string[] };
  for (const { doc, pk, counted } of named) {
    const own = new Map<string, number>();
    for (const e of doc.extraction.entities) {
      const id = ctx.entities.get(e.key)!;
      own.set(e.key, id);
      mentions.push([id, pk, e.surface, e.type, e.count, counted ? 1 : 0, e.weak ? 1 : 0]);
      tally.mention(id, e.surface, e.type, counted, e.weak);
    }
    for (const s of doc.extraction.statements) {
      const a = own.get(s.a);
      const b = own.get(s.b);
      if (a !== undefined && b !== undefined && a !== b) statement.run(pk, a, b, s.type);
    }
    if (!counted) continue;
    // Every pair of the item's entities, smaller id first: its co-mentions (addCoMentionsSql).
    const ids = [...own.values()];
    for (let i = 0; i < ids.length; i++)
      for (let j = i + 1; j < ids.length; j++)
        tally.link(Math.min(ids[i]!, ids[j]!), Math.max(ids[i]!, ids[j]!));
    if (doc.extraction.statements.length > 0) linked.statements.push(pk);
    if (ctx.related.has(doc.item_id)) linked.related.push(doc.item_id);
  }
  // The batch's mentions and extraction records, each in one statement.
  if (mentions.length > 0)
    prepare(
      `INSERT INTO graph_mentions(entity_id, item_pk, surface, type, count, counted, weak)
         SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6
         FROM json_each(?)`,
    ).run(JSON.stringify(mentions));
  prepare(
    `INSERT INTO graph_items(item_pk, space, version, extractor, truncated)
       SELECT value ->> 0, @space, value ->> 1, @extractor, value ->> 2 FROM json_each(@docs)`,
  ).run({
    space: ctx.space,
    extractor: ctx.extractor,
    docs: JSON.stringify(
      docs.map(({ doc, pk }) => [pk, doc.version, doc.extraction.truncated ? 1 : 0]),
    ),
  });
  return linked;
}

/**
 * Adds the tally to the derived counts: what the row triggers would have added row by row; `added`
 * the items newly extracted in a space, if any.
 */
function applyTally(
  prepare: Prepare,
  tally: Tally,
  added?: { space: string; items: number },
): void {
  const surface = prepare(
    `INSERT INTO graph_surfaces(entity_id, surface, type, n) VALUES (?, ?, ?, ?)
       ON CONFLICT(entity_id, surface, type) DO UPDATE SET n = n + excluded.n`,
  );
  for (const f of tally.surfaces.values()) surface.run(f.id, f.surface, f.type, f.n);
  // Both directions of every pair in one statement; a pair new to the graph (its weight is what
  // this batch adds) is a new neighbour to both of its entities.
  const pairs: [number, number, number][] = [];
  for (const [key, n] of tally.pairs) {
    const [a, b] = key.split(',').map(Number) as [number, number];
    pairs.push([a, b, n], [b, a, n]);
  }
  if (pairs.length > 0) {
    const weights = prepare(
      `INSERT INTO graph_pairs(a, b, weight)
         SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?) WHERE true
         ON CONFLICT(a, b) DO UPDATE SET weight = weight + excluded.weight RETURNING a, b, weight`,
    ).all(JSON.stringify(pairs)) as { a: number; b: number; weight: number }[];
    for (const { a, b, weight } of weights)
      if (a < b && weight === tally.pairs.get(`${a},${b}`)) {
        tally.entity(a)[2]++;
        tally.entity(b)[2]++;
      }
  }
  const entity = prepare(
    'UPDATE graph_entities SET mentions = mentions + ?, strong = strong + ?, degree = degree + ? WHERE id = ?',
  );
  for (const [id, [mentions, strong, degree]] of tally.entities)
    entity.run(mentions, strong, degree, id);
  if (added)
    prepare(
      `INSERT INTO graph_spaces(space, items) VALUES (?, ?)
         ON CONFLICT(space) DO UPDATE SET items = items + excluded.items`,
    ).run(added.space, added.items);
}

/**
 * Inserts many relations at once (an import; `insert` returns the ids of those it inserted) while
 * the relation and link row triggers stand aside, then links them in one statement and adds their
 * pair weights and degrees once per pair, inside the caller's transaction.
 */
export function insertRelationsBatch(prepare: Prepare, insert: () => readonly string[]): void {
  prepare('INSERT INTO graph_batch(id) VALUES (1)').run();
  const ids = insert();
  const tally = new Tally();
  if (ids.length > 0)
    for (const { a, b } of prepare(NEW_RELATION_LINKS).all({ ids: JSON.stringify(ids) }) as {
      a: number;
      b: number;
    }[])
      tally.link(a, b);
  applyTally(prepare, tally);
  prepare('DELETE FROM graph_batch').run();
}

/** Ids of every entity the documents name: known ones looked up, the others created in order. */
function resolveEntities(ctx: WriteContext, docs: readonly FreshDoc[]): void {
  const keys = [...new Set(docs.flatMap((d) => d.doc.extraction.entities.map((e) => e.key)))];
  const wanted = keys.filter((k) => !ctx.entities.has(k));
  if (wanted.length === 0) return;
  const found = ctx
    .prepare(
      `SELECT key, id FROM graph_entities WHERE space = @space
         AND key IN (SELECT value FROM json_each(@keys))`,
    )
    .all({ space: ctx.space, keys: JSON.stringify(wanted) }) as { key: string; id: number }[];
  for (const { key, id } of found) ctx.entities.set(key, id);
  const missing = wanted.filter((k) => !ctx.entities.has(k));
  if (missing.length === 0) return;
  // Rows of one INSERT ... SELECT take ascending ids in the order json_each gives them.
  const created = ctx
    .prepare(
      `INSERT INTO graph_entities(space, key) SELECT @space, value FROM json_each(@keys)
       ORDER BY key ASC RETURNING id, key`,
    )
    .all({ space: ctx.space, keys: JSON.stringify(missing) }) as { key: string; id: number }[];
  for (const { key, id } of created) ctx.entities.set(key, id);
}
