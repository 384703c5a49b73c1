/**
 * Writing item extractions into the SQLite graph. A batch is read in one query (versions, earlier
 * extractions, relations); first extractions are written together (graph-batch.ts); the others
 * (re-extractions of revised items, repeats) item by item here: entities by key, mentions,
 * statements, then what the item contributes to the graph (co-mention weights, statement and
 * relation links), with counts, pair weights and degrees following by trigger (graph-schema.ts). An unchanged
 * extraction is not rewritten.
 */
import type { GraphDoc } from '../graph-store.js';
import { type FreshDoc, type Prepare, type WriteContext, writeFresh } from './graph-batch.js';
import { itemLinksSql, relationLinksSql, sqlStatements, unlinkItemSql } from './graph-schema.js';

const UNLINK = sqlStatements(unlinkItemSql('@pk'));
const ITEM_LINKS = sqlStatements(itemLinksSql('@pk'));
const RELATION_LINKS = [
  ...sqlStatements(relationLinksSql('r.from_id = @id AND r.space = @space')),
  ...sqlStatements(relationLinksSql('r.to_id = @id AND r.space = @space')),
];

/** Where an item of the batch stands before the batch is written. */
interface ItemState {
  id: string;
  pk: number;
  version: number;
  status: string | null;
  extracted: number | null;
  related: number;
}

/**
 * Replaces the stored extraction of each item inside the caller's transaction; returns how many
 * were written (items gone or at another version are skipped).
 */
export function writeBatch(
  prepare: Prepare,
  space: string,
  extractor: number,
  docs: readonly GraphDoc[],
): number {
  const states = itemStates(
    prepare,
    space,
    docs.map((d) => d.item_id),
  );
  const related = new Set([...states.values()].filter((s) => s.related).map((s) => s.id));
  const ctx: WriteContext = { prepare, space, extractor, entities: new Map(), related };
  const fresh: FreshDoc[] = [];
  const rest: GraphDoc[] = [];
  const seen = new Set<string>();
  for (const doc of docs) {
    const state = states.get(doc.item_id);
    // A repeated item sees the first one's write, as it would item by item: it goes the slow way.
    if (
      state &&
      !seen.has(doc.item_id) &&
      state.extracted === null &&
      state.version === doc.version
    )
      fresh.push({ doc, pk: state.pk, counted: state.status !== 'forgotten' });
    else rest.push(doc);
    seen.add(doc.item_id);
  }
  writeFresh(ctx, fresh);
  return fresh.length + rest.filter((doc) => writeExtraction(ctx, doc)).length;
}

/** The batch's items as stored: version, status, whether extracted, whether in a relation. */
function itemStates(
  prepare: Prepare,
  space: string,
  ids: readonly string[],
): Map<string, ItemState> {
  const rows = prepare(
    // CROSS JOIN keeps this order: the given ids through the id index, never a space scan.
    `SELECT i.id, i.pk, i.version, i.status, g.item_pk AS extracted,
       EXISTS (SELECT 1 FROM relations r WHERE r.from_id = i.id AND r.space = @space)
         OR EXISTS (SELECT 1 FROM relations r WHERE r.to_id = i.id AND r.space = @space) AS related
     FROM json_each(@ids) x CROSS JOIN items i ON i.id = x.value
       LEFT JOIN graph_items g ON g.item_pk = i.pk
     WHERE i.space = @space`,
  ).all({ ids: JSON.stringify(ids), space }) as ItemState[];
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Replaces the stored extraction of one item inside the caller's transaction; false when the item
 * is gone or at another version (a newer write carries its extraction).
 */
function writeExtraction(ctx: WriteContext, doc: GraphDoc): boolean {
  const { prepare, space, extractor } = ctx;
  const item = prepare(
    `SELECT i.pk, i.version, i.status, g.item_pk AS extracted FROM items i
       LEFT JOIN graph_items g ON g.item_pk = i.pk WHERE i.id = ? AND i.space = ?`,
  ).get(doc.item_id, space) as
    | { pk: number; version: number; status: string | null; extracted: number | null }
    | undefined;
  if (!item || item.version !== doc.version) return false;
  const { pk } = item;
  const fresh = item.extracted === null;
  const changed = fresh
    ? doc.extraction.entities.length > 0
    : signature(prepare, pk) !== signatureOf(doc);
  if (changed) replaceExtraction(ctx, pk, item.status !== 'forgotten', doc, fresh);
  prepare(
    `INSERT INTO graph_items(item_pk, space, version, extractor, truncated) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(item_pk) DO UPDATE SET version = excluded.version, extractor = excluded.extractor, truncated = excluded.truncated`,
  ).run(pk, space, doc.version, extractor, doc.extraction.truncated ? 1 : 0);
  return true;
}

/** A text form of the stored extraction, to skip rewriting one that did not change. */
function signature(prepare: Prepare, pk: number): string {
  const mentions = prepare(
    `SELECT e.key, m.surface, m.type, m.count, m.weak FROM graph_mentions m
       JOIN graph_entities e ON e.id = m.entity_id WHERE m.item_pk = ? ORDER BY e.key`,
  ).all(pk) as { key: string; surface: string; type: string; count: number; weak: number }[];
  const stated = prepare(
    `SELECT ea.key AS a, eb.key AS b, s.type FROM graph_statements s
       JOIN graph_entities ea ON ea.id = s.a JOIN graph_entities eb ON eb.id = s.b WHERE s.item_pk = ?`,
  ).all(pk) as { a: string; b: string; type: string }[];
  return signatureParts(
    mentions.map((m) => [m.key, m.surface, m.type, String(m.count), String(m.weak === 1)]),
    stated.map((s) => [s.type, s.a, s.b]),
  );
}

function replaceExtraction(
  ctx: WriteContext,
  pk: number,
  counted: boolean,
  doc: GraphDoc,
  fresh: boolean,
): void {
  const { prepare, space } = ctx;
  if (!fresh) {
    // Deleting mentions may delete entities: ids learned so far may no longer exist.
    ctx.entities.clear();
    for (const sql of UNLINK) prepare(sql).run({ pk });
    prepare('DELETE FROM graph_statements WHERE item_pk = ?').run(pk);
    prepare('DELETE FROM graph_mentions WHERE item_pk = ?').run(pk);
  }
  const ids = new Map<string, number>();
  for (const e of doc.extraction.entities) {
    const id = entityId(ctx, e.key);
    ids.set(e.key, id);
    prepare(
      'INSERT INTO graph_mentions(entity_id, item_pk, surface, type, count, counted, weak) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ).run(id, pk, e.surface, e.type, e.count, counted ? 1 : 0, e.weak ? 1 : 0);
  }
  for (const s of doc.extraction.statements) {
    const a = ids.get(s.a);
    const b = ids.get(s.b);
    if (a === undefined || b === undefined || a === b) continue;
    prepare('INSERT OR IGNORE INTO graph_statements(item_pk, a, b, type) VALUES (?, ?, ?, ?)').run(
      pk,
      a,
      b,
      s.type,
    );
  }
  if (!counted) return;
  if (ids.size > 1 || doc.extraction.statements.length > 0)
    for (const sql of ITEM_LINKS) prepare(sql).run({ pk });
  const id = doc.item_id;
  if (ctx.related.has(id)) for (const sql of RELATION_LINKS) prepare(sql).run({ id, space });
}

function entityId(ctx: WriteContext, key: string): number {
  const known = ctx.entities.get(key);
  if (known !== undefined) return known;
  const row = ctx
    .prepare(
      `INSERT INTO graph_entities(space, key) VALUES (?, ?)
       ON CONFLICT(space, key) DO UPDATE SET key = excluded.key RETURNING id`,
    )
    .get(ctx.space, key) as { id: number };
  ctx.entities.set(key, row.id);
  return row.id;
}

function signatureParts(mentions: string[][], stated: string[][]): string {
  const m = mentions.map((p) => p.join('\u0001')).sort();
  const s = stated.map((p) => p.join('\u0001')).sort();
  return `${m.join('\u0002')}\u0003${s.join('\u0002')}`;
}

function signatureOf(doc: GraphDoc): string {
  return signatureParts(
    doc.extraction.entities.map((e) => [e.key, e.surface, e.type, String(e.count), String(e.weak)]),
    doc.extraction.statements.map((s) => [s.type, s.a, s.b]),
  );
}
