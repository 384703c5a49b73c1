/**
 * Writing item extractions into the PostgreSQL graph, a batch in one transaction under the
 * space's graph lock (graph-schema.ts): store first extractions together (one statement per
 * table), replace re-extractions that changed one by one, then add the links the changed items
 * contribute (co-mentions, statements, relations), each relation once. Counts, pair weights and
 * degrees follow by trigger. The order of work is SQLite's (graph-writes.ts there): first
 * extractions in batch order, then the others in order, so the graph is the same, entity ids
 * included in the same relative order (they break ties in traversal and reports).
 */
import type { GraphDoc } from '../graph-store.js';
import type { Queryable } from './database.js';

/** An item of the batch as it is stored. */
interface StoredItem {
  pk: number;
  id: string;
  version: number;
  status: string | null;
  extracted: boolean;
}

/** An extraction to store for an item. */
interface Change {
  item: StoredItem;
  doc: GraphDoc;
}

/** A live relation touching the batch. */
interface RelationEnds {
  id: string;
  from_id: string;
  to_id: string;
}

/**
 * Replaces the stored extraction of each doc whose item exists at the doc's version; returns how
 * many docs were written. Runs inside the caller's transaction.
 */
export async function writeExtractions(
  tx: Queryable,
  space: string,
  docs: readonly GraphDoc[],
  extractor: number,
): Promise<number> {
  // Everything below is read under the lock, so it is what the graph's last change committed.
  await tx.query('SELECT graph_lock($1)', [space]);
  const items = await readItems(tx, space, [...new Set(docs.map((d) => d.item_id))]);
  if (items.size === 0) return 0;
  const relations = await liveRelations(tx, space, items);
  const { fresh, rest } = split(docs, items);
  const current = await storedSignatures(
    tx,
    [...items.values()].filter((i) => i.extracted),
  );
  const changed: Change[] = fresh.filter((c) => c.doc.extraction.entities.length > 0);
  await storeExtractions(tx, space, changed);
  const records = new Map<number, Change>();
  for (const change of fresh) record(change, records, current);
  let written = fresh.length;
  for (const doc of rest) {
    const item = items.get(doc.item_id);
    if (!item || item.version !== doc.version) continue;
    written++;
    const change = { item, doc };
    const extracted = item.extracted || records.has(item.pk);
    const differs = extracted
      ? (current.get(item.pk) ?? signatureParts([], [])) !== signatureOf(doc)
      : doc.extraction.entities.length > 0;
    if (differs) {
      if (extracted) await removeExtraction(tx, item.pk);
      await storeExtractions(tx, space, [change]);
      changed.push(change);
    }
    record(change, records, current);
  }
  await link(tx, changed, relations);
  await recordExtractions(tx, space, extractor, [...records.values()]);
  return written;
}

/**
 * First extractions (items never extracted, at the doc's version, first doc of each item) and
 * the rest in batch order: repeated items and re-extractions go one by one, as SQLite's do.
 */
function split(
  docs: readonly GraphDoc[],
  items: ReadonlyMap<string, StoredItem>,
): { fresh: Change[]; rest: GraphDoc[] } {
  const fresh: Change[] = [];
  const rest: GraphDoc[] = [];
  const seen = new Set<string>();
  for (const doc of docs) {
    const item = items.get(doc.item_id);
    if (item && !seen.has(doc.item_id) && !item.extracted && item.version === doc.version)
      fresh.push({ item, doc });
    else rest.push(doc);
    seen.add(doc.item_id);
  }
  return { fresh, rest };
}

/** Notes what an item's stored extraction now is. */
function record(change: Change, records: Map<number, Change>, current: Map<number, string>): void {
  records.set(change.item.pk, change);
  current.set(change.item.pk, signatureOf(change.doc));
}

/** The extraction records (version, extractor) of the items written. */
async function recordExtractions(
  tx: Queryable,
  space: string,
  extractor: number,
  changes: readonly Change[],
): Promise<void> {
  if (changes.length === 0) return;
  await tx.query(
    `INSERT INTO graph_items (item_pk, space, version, extractor, truncated)
     SELECT unnest($1::int8[]), $2::text, unnest($3::int[]), $4::int, unnest($5::boolean[])
     ON CONFLICT (item_pk) DO UPDATE SET version = excluded.version,
       extractor = excluded.extractor, truncated = excluded.truncated`,
    [
      changes.map((c) => c.item.pk),
      space,
      changes.map((c) => c.doc.version),
      extractor,
      changes.map((c) => c.doc.extraction.truncated),
    ],
  );
}

/** The batch's items as stored: version, status and whether they were extracted before. */
async function readItems(
  tx: Queryable,
  space: string,
  ids: readonly string[],
): Promise<Map<string, StoredItem>> {
  const rows = await tx.query<StoredItem>(
    `SELECT i.pk, i.id, i.version, i.status, g.item_pk IS NOT NULL AS extracted
     FROM items i LEFT JOIN graph_items g ON g.item_pk = i.pk
     WHERE i.space = $1 AND i.id = ANY($2::text[])`,
    [space, ids],
  );
  return new Map(rows.map((r) => [r.id, r]));
}

/** Live relations touching the batch's items. */
async function liveRelations(
  tx: Queryable,
  space: string,
  items: ReadonlyMap<string, StoredItem>,
): Promise<RelationEnds[]> {
  return tx.query<RelationEnds>(
    `SELECT id, from_id, to_id FROM relations
     WHERE space = $1 AND invalidated_at IS NULL AND (from_id = ANY($2::text[]) OR to_id = ANY($2::text[]))`,
    [space, [...items.keys()]],
  );
}

/** Text forms of the stored extractions of items, by pk. */
async function storedSignatures(
  tx: Queryable,
  items: readonly StoredItem[],
): Promise<Map<number, string>> {
  if (items.length === 0) return new Map();
  const pks = items.map((i) => i.pk);
  const mentions = await tx.query<{
    item_pk: number;
    key: string;
    surface: string;
    type: string;
    count: number;
    weak: boolean;
  }>(
    `SELECT m.item_pk, e.key, m.surface, m.type, m.count, m.weak FROM graph_mentions m
     JOIN graph_entities e ON e.id = m.entity_id WHERE m.item_pk = ANY($1::int8[])`,
    [pks],
  );
  const stated = await tx.query<{ item_pk: number; a: string; b: string; type: string }>(
    `SELECT s.item_pk, ea.key AS a, eb.key AS b, s.type FROM graph_statements s
     JOIN graph_entities ea ON ea.id = s.a JOIN graph_entities eb ON eb.id = s.b
     WHERE s.item_pk = ANY($1::int8[])`,
    [pks],
  );
  const parts = new Map(pks.map((pk) => [pk, { m: [] as string[][], s: [] as string[][] }]));
  for (const m of mentions)
    parts.get(m.item_pk)?.m.push([m.key, m.surface, m.type, String(m.count), String(m.weak)]);
  for (const s of stated) parts.get(s.item_pk)?.s.push([s.type, s.a, s.b]);
  return new Map([...parts].map(([pk, p]) => [pk, signatureParts(p.m, p.s)]));
}

/** Adds the links of the changed items that count, and of the live relations touching them. */
async function link(
  tx: Queryable,
  changed: readonly Change[],
  relations: readonly RelationEnds[],
): Promise<void> {
  const counted = [...new Map(changed.map((c) => [c.item.pk, c.item])).values()].filter(
    (i) => i.status !== 'forgotten',
  );
  if (counted.length === 0) return;
  await tx.query('SELECT graph_link_items($1::int8[])', [counted.map((i) => i.pk)]);
  const linked = new Set(counted.map((i) => i.id));
  const touching = relations.filter((r) => linked.has(r.from_id) || linked.has(r.to_id));
  if (touching.length > 0)
    await tx.query('SELECT graph_link_relations($1::text[])', [touching.map((r) => r.id)]);
}

/** Deletes an item's links, statements and mentions (its entities may go with them). */
async function removeExtraction(tx: Queryable, pk: number): Promise<void> {
  await tx.query('SELECT graph_unlink_items($1::int8[])', [[pk]]);
  await tx.query('DELETE FROM graph_statements WHERE item_pk = $1', [pk]);
  await tx.query('DELETE FROM graph_mentions WHERE item_pk = $1', [pk]);
}

/** Stores the entities, mentions and statements of some changes, entities in doc order. */
async function storeExtractions(
  tx: Queryable,
  space: string,
  changes: readonly Change[],
): Promise<void> {
  const keys = [...new Set(changes.flatMap((c) => c.doc.extraction.entities.map((e) => e.key)))];
  if (keys.length === 0) return;
  // ORDER BY makes new ids follow the keys' order; DO UPDATE returns the existing ones too.
  const rows = await tx.query<{ id: number; key: string }>(
    `INSERT INTO graph_entities (space, key)
     SELECT $1, k.key FROM unnest($2::text[]) WITH ORDINALITY AS k(key, n) ORDER BY k.n
     ON CONFLICT (space, key) DO UPDATE SET key = excluded.key RETURNING id, key`,
    [space, keys],
  );
  const ids = new Map(rows.map((r) => [r.key, r.id]));
  const mentions = changes.flatMap((c) =>
    c.doc.extraction.entities.map((e) => ({
      entity_id: ids.get(e.key)!,
      item_pk: c.item.pk,
      surface: e.surface,
      type: e.type,
      count: e.count,
      counted: c.item.status !== 'forgotten',
      weak: e.weak,
    })),
  );
  await tx.query(
    `INSERT INTO graph_mentions (entity_id, item_pk, surface, type, count, counted, weak)
     SELECT r.entity_id, r.item_pk, r.surface, r.type, r.count, r.counted, r.weak
     FROM json_to_recordset($1::json) AS r(entity_id int8, item_pk int8, surface text, type text, count int, counted boolean, weak boolean)`,
    [JSON.stringify(mentions)],
  );
  const statements = changes.flatMap((c) =>
    c.doc.extraction.statements.flatMap((s) => {
      const a = ids.get(s.a);
      const b = ids.get(s.b);
      if (a === undefined || b === undefined || a === b) return [];
      // Only keys the item itself names: another doc's entity with that key is not this one's.
      const named =
        c.doc.extraction.entities.some((e) => e.key === s.a) &&
        c.doc.extraction.entities.some((e) => e.key === s.b);
      return named ? [{ item_pk: c.item.pk, a, b, type: s.type }] : [];
    }),
  );
  if (statements.length > 0)
    await tx.query(
      `INSERT INTO graph_statements (item_pk, a, b, type)
       SELECT r.item_pk, r.a, r.b, r.type
       FROM json_to_recordset($1::json) AS r(item_pk int8, a int8, b int8, type text)
       ON CONFLICT DO NOTHING`,
      [JSON.stringify(statements)],
    );
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
