/**
 * Item writes of the SQLite store: new items (with exact-duplicate detection), imported items and
 * relations, their version and status-event rows, and access counts.
 */
import type {
  ItemExport,
  ItemRecord,
  RelationRecord,
  StatusEventRecord,
  VersionRecord,
} from '../../domain/records.js';
import {
  type AccessCount,
  type CreateOutcome,
  type ImportOutcome,
  type ItemDraft,
  oneAccessEach,
} from '../store.js';
import { insertRelationsBatch } from './graph-batch.js';
import { rowByPk } from './item-reads.js';
import { publishedModelId } from './model-rows.js';
import type { ReadCache } from './read-cache.js';
import { itemColumns, itemFromRow, type ItemRow } from './rows.js';
import type { StoreCore } from './store-core.js';
import { writeVector } from './vector-writes.js';

/** A version row to insert: the record without its item id, with its time as `at`. */
export type VersionDraft = Omit<VersionRecord, 'item_id' | 'created_at'> & { at: number };

/** Inserts one version row of an item. */
export function insertVersion(core: StoreCore, itemId: string, v: VersionDraft): void {
  core
    .prepared(
      'INSERT INTO versions(item_id, version, title, body, tags, actor, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .run(itemId, v.version, v.title, v.body, JSON.stringify(v.tags), v.actor, v.reason, v.at);
}

/** Inserts one status-event row. */
export function insertEvent(core: StoreCore, e: StatusEventRecord): void {
  core
    .prepared(
      'INSERT INTO status_events(id, item_id, from_status, to_status, reason, actor, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    .run(e.id, e.item_id, e.from_status, e.to_status, e.reason, e.actor, e.at);
}

/** Inserts one relation row. */
export function insertRelation(core: StoreCore, r: RelationRecord): void {
  core
    .prepared(
      'INSERT INTO relations(id, space, type, from_id, to_id, actor, reason, created_at, invalidated_at, invalidated_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .run(
      r.id,
      r.space,
      r.type,
      r.from_id,
      r.to_id,
      r.actor,
      r.reason,
      r.created_at,
      r.invalidated_at,
      r.invalidated_reason,
    );
}

function findDuplicate(core: StoreCore, item: ItemRecord): ItemRow | undefined {
  return core
    .prepared(
      "SELECT * FROM items WHERE space = ? AND kind = ? AND body_hash = ? AND (status IS NULL OR status <> 'forgotten') ORDER BY pk LIMIT 1",
    )
    .get(item.space, item.kind, item.body_hash) as ItemRow | undefined;
}

function insertItem(core: StoreCore, item: ItemRecord): number {
  const cols = itemColumns(item);
  const names = Object.keys(cols);
  const sql = `INSERT INTO items(${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`;
  return Number(core.prepared(sql).run(cols).lastInsertRowid);
}

/** Inserts new items with their first version, or returns the live exact duplicate of each. */
export async function createItems(
  core: StoreCore,
  drafts: readonly ItemDraft[],
): Promise<CreateOutcome[]> {
  return core.write(() => {
    const model = publishedModelId(core);
    return drafts.map((draft) => createOne(core, draft, model));
  });
}

function createOne(core: StoreCore, draft: ItemDraft, model: string | undefined): CreateOutcome {
  const dup = findDuplicate(core, draft.item);
  if (dup) return { item: itemFromRow(dup), created: false };
  const pk = insertItem(core, { ...draft.item, vector_state: 'pending' });
  const { item } = draft;
  insertVersion(core, item.id, {
    version: item.version,
    title: item.title,
    body: item.body,
    tags: item.tags,
    actor: draft.actor,
    reason: draft.reason,
    at: item.created_at,
  });
  if (draft.vector) writeVector(core, pk, draft.vector, model);
  return { item: itemFromRow(rowByPk(core, pk)), created: true };
}

/** Imports exported items with their history and vectors; an existing id is left as it is. */
export async function importItems(
  core: StoreCore,
  records: readonly ItemExport[],
): Promise<ImportOutcome[]> {
  return core.write(() => {
    const published = publishedModelId(core);
    return records.map((record) => importOne(core, record, published));
  });
}

function importOne(
  core: StoreCore,
  record: ItemExport,
  published: string | undefined,
): ImportOutcome {
  if (core.prepared('SELECT 1 FROM items WHERE id = ?').get(record.item.id)) return 'exists';
  const pk = insertItem(core, { ...record.item, vector_state: 'pending' });
  for (const v of record.versions) insertVersion(core, v.item_id, { ...v, at: v.created_at });
  for (const e of record.status_events) insertEvent(core, e);
  for (const v of record.vectors)
    writeVector(core, pk, { model: v.model, vector: v.vector }, published);
  if (record.item.vector_state !== 'pending' && !record.vectors.some((v) => v.model === published))
    core.prepared("UPDATE items SET vector_state = 'pending' WHERE pk = ?").run(pk);
  return 'imported';
}

/** Imports exported relations; an existing id is left as it is. */
export async function importRelations(
  core: StoreCore,
  records: readonly RelationRecord[],
): Promise<ImportOutcome[]> {
  return core.write(() => {
    const outcomes: ImportOutcome[] = [];
    insertRelationsBatch(
      (sql) => core.prepared(sql),
      () => {
        const added: string[] = [];
        for (const r of records) {
          const known = core.prepared('SELECT 1 FROM relations WHERE id = ?').get(r.id);
          if (!known) {
            insertRelation(core, r);
            added.push(r.id);
          }
          outcomes.push(known ? 'exists' : 'imported');
        }
        return added;
      },
    );
    return outcomes;
  });
}

/** Counts one access of each listed item (each id once). */
export function recordAccess(
  core: StoreCore,
  space: string,
  ids: readonly string[],
  at: number,
  cache?: ReadCache,
): Promise<void> {
  return recordAccessCounts(core, space, oneAccessEach(ids, at), cache);
}

/**
 * Adds each entry's accesses to its item (the latest access time kept); told to `cache`, which
 * keeps serving recall when nothing else changed.
 */
export async function recordAccessCounts(
  core: StoreCore,
  space: string,
  counts: readonly AccessCount[],
  cache?: ReadCache,
): Promise<void> {
  if (counts.length === 0) return;
  const rows = JSON.stringify(counts.map((c) => [c.id, c.count, c.at]));
  const [before, after] = await core.write(() => {
    const start = cache?.current();
    core
      .prepared(
        // `+space`: by id, not by a scan of the space's index.
        `UPDATE items SET access_count = access_count + a.n,
           last_accessed_at = max(coalesce(last_accessed_at, a.at), a.at)
         FROM (SELECT value ->> 0 AS id, value ->> 1 AS n, value ->> 2 AS at FROM json_each(?)) AS a
         WHERE +items.space = ? AND items.id = a.id`,
      )
      .run(rows, space);
    return [start, cache?.current()];
  });
  if (cache && before && after) cache.accessed(space, counts, before, after);
}
