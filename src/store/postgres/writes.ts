/**
 * Writes of the PostgreSQL store, each inside one transaction: batched inserts through
 * json_to_recordset (one round trip per table, whatever the batch size), duplicate detection
 * serialised by advisory locks on (space, kind, body hash), and mutation plans run between a
 * locking read and the writes.
 */
import { EngramError } from '../../domain/errors.js';
import type {
  ItemRecord,
  RelationRecord,
  StatusEventRecord,
  VersionRecord,
} from '../../domain/records.js';
import {
  type CreateOutcome,
  type ItemChange,
  type ItemDraft,
  type MutationPlan,
  PATCHABLE_COLUMNS,
  type VectorWrite,
} from '../store.js';
import type { Queryable } from './database.js';
import { segmentedColumns } from './keyword-index.js';
import { lockKey } from './migrations.js';
import {
  assertStorable,
  ITEM_COLUMNS,
  itemFromRow,
  type PgItemRow,
  relationFromRow,
  vectorText,
} from './rows.js';

const LOCK_CLASS_DEDUPE = 0x656e6764;

/** Column list and types of an items insert from JSON. */
const ITEM_RECORDSET =
  'n int, id text, space text, area text, kind text, title text, body text, body_hash text, tags json, importance float8, pinned boolean, status text, strength float8, source json, version int, created_at int8, updated_at int8, access_count int8, last_accessed_at int8, use_count int8, last_used_at int8, prior json, vector_state text, seg_title text, seg_body text, seg_tags text';

/**
 * The published model id, read inside the caller's transaction under a share lock: a model swap
 * (which locks the model rows) waits for the writers that read the old model, and writers after it
 * see the new one, so no write's vector state can straddle a swap.
 */
export async function publishedModelId(tx: Queryable): Promise<string | undefined> {
  // Every row is locked and the latest publication chosen here: a writer that waited for a swap
  // gets the rows as the swap left them. A locking read re-reads only the rows its snapshot
  // found, so no WHERE or LIMIT may leave out the target, still unpublished in that snapshot:
  // the writer would take the replaced model for the published one.
  const rows = await tx.query<{ id: string; published_at: string | number | null }>(
    'SELECT id, published_at FROM models FOR SHARE',
  );
  let best: { id: string; at: number } | undefined;
  for (const r of rows) {
    if (r.published_at === null) continue;
    const at = Number(r.published_at);
    if (!best || at > best.at) best = { id: r.id, at };
  }
  return best?.id;
}

/** Checks every text of an item for characters PostgreSQL cannot hold. */
export function assertStorableItem(item: Partial<ItemRecord>, prefix = ''): void {
  for (const key of ['id', 'space', 'area', 'title', 'body', 'tags', 'source', 'prior'] as const)
    if (item[key] !== undefined) assertStorable(item[key], `${prefix}${key}`);
}

/** Inserts items (in the given order, so pks follow it); returns the rows written. */
export async function insertItems(
  tx: Queryable,
  items: readonly ItemRecord[],
  onConflict: 'fail' | 'skip',
): Promise<PgItemRow[]> {
  if (items.length === 0) return [];
  const json = JSON.stringify(items.map((item, n) => ({ ...item, n, ...segmentedColumns(item) })));
  return tx.query<PgItemRow>(
    `INSERT INTO items (id, space, area, kind, title, body, body_hash, tags, tags_text, importance, pinned, status, strength, source, version, created_at, updated_at, access_count, last_accessed_at, use_count, last_used_at, prior, vector_state, seg_title, seg_body, seg_tags)
SELECT r.id, r.space, r.area, r.kind, r.title, r.body, r.body_hash, t.tags, array_to_string(t.tags, ' '), r.importance, r.pinned, r.status, r.strength, r.source, r.version, r.created_at, r.updated_at, r.access_count, r.last_accessed_at, r.use_count, r.last_used_at, r.prior, r.vector_state, r.seg_title, r.seg_body, r.seg_tags
FROM json_to_recordset($1::json) AS r(${ITEM_RECORDSET})
CROSS JOIN LATERAL (SELECT ARRAY(SELECT json_array_elements_text(r.tags)) AS tags) t
ORDER BY r.n
${onConflict === 'skip' ? 'ON CONFLICT (id) DO NOTHING' : ''}
RETURNING ${ITEM_COLUMNS}`,
    [json],
  );
}

/** Inserts version rows. */
export async function insertVersions(tx: Queryable, rows: readonly VersionRecord[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO versions (item_id, version, title, body, tags, actor, reason, created_at)
SELECT r.item_id, r.version, r.title, r.body, ARRAY(SELECT json_array_elements_text(r.tags)), r.actor, r.reason, r.created_at
FROM json_to_recordset($1::json) AS r(item_id text, version int, title text, body text, tags json, actor text, reason text, created_at int8)`,
    [JSON.stringify(rows)],
  );
}

/** Inserts status events; an event id seen before is kept as it was. */
export async function insertEvents(
  tx: Queryable,
  rows: readonly StatusEventRecord[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(
    `INSERT INTO status_events (id, item_id, from_status, to_status, reason, actor, at)
SELECT r.id, r.item_id, r.from_status, r.to_status, r.reason, r.actor, r.at
FROM json_to_recordset($1::json) AS r(id text, item_id text, from_status text, to_status text, reason text, actor text, at int8)
ON CONFLICT (id) DO NOTHING`,
    [JSON.stringify(rows)],
  );
}

/** Inserts relations; with `skip`, ids that exist are left alone and the new ids are returned. */
export async function insertRelations(
  tx: Queryable,
  rows: readonly RelationRecord[],
  onConflict: 'fail' | 'skip',
): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const inserted = await tx.query<{ id: string }>(
    `INSERT INTO relations (id, space, type, from_id, to_id, actor, reason, created_at, invalidated_at, invalidated_reason)
SELECT r.id, r.space, r.type, r.from_id, r.to_id, r.actor, r.reason, r.created_at, r.invalidated_at, r.invalidated_reason
FROM json_to_recordset($1::json) AS r(id text, space text, type text, from_id text, to_id text, actor text, reason text, created_at int8, invalidated_at int8, invalidated_reason text)
${onConflict === 'skip' ? 'ON CONFLICT (id) DO NOTHING' : ''}
RETURNING id`,
    [JSON.stringify(rows)],
  );
  return new Set(inserted.map((r) => r.id));
}

/** One vector to upsert. */
export interface VectorRow {
  item_pk: number;
  model: string;
  vector: Float32Array | null;
}

/**
 * Upserts vectors (model + item), stamped with the item's current version (write the item first);
 * a null vector records "nothing to embed".
 */
export async function upsertVectors(tx: Queryable, rows: readonly VectorRow[]): Promise<void> {
  if (rows.length === 0) return;
  const json = JSON.stringify(
    rows.map((r) => ({
      item_pk: r.item_pk,
      model: r.model,
      dimension: r.vector?.length ?? 0,
      embedding: r.vector ? vectorText(r.vector) : null,
    })),
  );
  await tx.query(
    `INSERT INTO vectors (item_pk, model, dimension, embedding, version)
SELECT r.item_pk, r.model, r.dimension, r.embedding::vector, i.version
FROM json_to_recordset($1::json) AS r(item_pk int8, model text, dimension int, embedding text)
JOIN items i ON i.pk = r.item_pk
ON CONFLICT (item_pk, model) DO UPDATE SET dimension = excluded.dimension, embedding = excluded.embedding, version = excluded.version`,
    [json],
  );
}

/** The vector state an item gets from a vector write under the published model. */
export function stateAfter(write: VectorWrite | undefined, model: string | undefined) {
  if (!write || write.model !== model) return 'pending' as const;
  return write.vector ? ('ready' as const) : ('empty' as const);
}

function dedupeKey(item: ItemRecord): string {
  return `${item.space}\u0000${item.kind}\u0000${item.body_hash}`;
}

/** Serialises duplicate checks of the same (space, kind, body) across connections. */
async function lockDuplicates(tx: Queryable, items: readonly ItemRecord[]): Promise<void> {
  const keys = [...new Set(items.map((i) => lockKey(dedupeKey(i))))].sort((a, b) => a - b);
  await tx.query(
    'SELECT pg_advisory_xact_lock($1, k) FROM (SELECT unnest($2::int[]) AS k ORDER BY 1) s',
    [LOCK_CLASS_DEDUPE, keys],
  );
}

async function existingDuplicates(
  tx: Queryable,
  items: readonly ItemRecord[],
): Promise<Map<string, ItemRecord>> {
  const rows = await tx.query<PgItemRow>(
    `SELECT DISTINCT ON (space, kind, body_hash) ${ITEM_COLUMNS} FROM items
WHERE (space, kind, body_hash) IN (SELECT * FROM unnest($1::text[], $2::text[], $3::text[]))
  AND (status IS NULL OR status <> 'forgotten')
ORDER BY space, kind, body_hash, pk`,
    [items.map((i) => i.space), items.map((i) => i.kind), items.map((i) => i.body_hash)],
  );
  return new Map(rows.map((r) => [dedupeKey(itemFromRow(r)), itemFromRow(r)]));
}

/** Creates drafts in one transaction; exact duplicates (also within the batch) return the first. */
export async function createItems(
  tx: Queryable,
  drafts: readonly ItemDraft[],
): Promise<CreateOutcome[]> {
  const items = drafts.map((d) => d.item);
  await lockDuplicates(tx, items);
  const model = await publishedModelId(tx);
  const existing = await existingDuplicates(tx, items);
  const fresh: ItemDraft[] = [];
  const firstOf = new Map<string, ItemDraft>();
  for (const draft of drafts) {
    const key = dedupeKey(draft.item);
    if (existing.has(key) || firstOf.has(key)) continue;
    firstOf.set(key, draft);
    fresh.push(draft);
  }
  const rows = await insertItems(
    tx,
    fresh.map((d) => ({ ...d.item, vector_state: stateAfter(d.vector, model) })),
    'fail',
  );
  const created = new Map(rows.map((r) => [r.id, r]));
  await insertVersions(
    tx,
    fresh.map(({ item, actor, reason }) => ({
      item_id: item.id,
      version: item.version,
      title: item.title,
      body: item.body,
      tags: item.tags,
      actor,
      reason,
      created_at: item.created_at,
    })),
  );
  await upsertVectors(
    tx,
    fresh.flatMap((d) =>
      d.vector
        ? [{ item_pk: created.get(d.item.id)!.pk, model: d.vector.model, vector: d.vector.vector }]
        : [],
    ),
  );
  return drafts.map((draft) => {
    const key = dedupeKey(draft.item);
    const found = existing.get(key);
    if (found) return { item: found, created: false };
    const first = firstOf.get(key)!;
    return { item: itemFromRow(created.get(first.item.id)!), created: first === draft };
  });
}

const PATCHABLE = PATCHABLE_COLUMNS;

/** Writes (or clears, with 'pending') one item's vector and keeps vector_state in step. */
export async function writeVector(
  tx: Queryable,
  pk: number,
  write: VectorWrite | 'pending',
  model: string | undefined,
): Promise<void> {
  if (write === 'pending') {
    if (model) await tx.query('DELETE FROM vectors WHERE item_pk = $1 AND model = $2', [pk, model]);
    await tx.query("UPDATE items SET vector_state = 'pending' WHERE pk = $1", [pk]);
    return;
  }
  await upsertVectors(tx, [{ item_pk: pk, model: write.model, vector: write.vector }]);
  if (write.model === model)
    await tx.query('UPDATE items SET vector_state = $1 WHERE pk = $2', [
      stateAfter(write, model),
      pk,
    ]);
}

async function applyChange(
  tx: Queryable,
  row: PgItemRow,
  change: ItemChange,
  model: string | undefined,
): Promise<void> {
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(change.patch ?? {}))
    if (value !== undefined && PATCHABLE.has(key)) patch[key] = value;
  if (change.version) {
    const v = change.version;
    const version = row.version + 1;
    assertStorable(v, 'version');
    await insertVersions(tx, [
      {
        item_id: row.id,
        version,
        title: v.title,
        body: v.body,
        tags: v.tags,
        actor: v.actor,
        reason: v.reason,
        created_at: v.at,
      },
    ]);
    Object.assign(patch, {
      title: change.version.title,
      body: change.version.body,
      tags: change.version.tags,
      version,
    });
  }
  assertStorableItem(patch as Partial<ItemRecord>, 'patch.');
  const sets: string[] = [];
  const values: unknown[] = [];
  const set = (column: string, value: unknown, cast = '') => {
    values.push(value);
    sets.push(`${column} = $${values.length}${cast}`);
  };
  for (const [key, value] of Object.entries({ ...patch, ...segmentedColumns(patch) })) {
    if (key === 'tags') {
      set('tags', value, '::text[]');
      set('tags_text', (value as string[]).join(' '));
    } else if (key === 'source' || key === 'prior')
      set(key, value === null ? null : JSON.stringify(value), '::json');
    else set(key, value);
  }
  if (sets.length > 0) {
    values.push(row.pk);
    await tx.query(`UPDATE items SET ${sets.join(', ')} WHERE pk = $${values.length}`, values);
  }
  if (change.statusEvent) await insertEvents(tx, [{ ...change.statusEvent, item_id: row.id }]);
  if (change.vector) await writeVector(tx, row.pk, change.vector, model);
}

/** Reads the items (locked, in pk order), runs the plan, writes its mutation. */
export async function applyMutation(
  tx: Queryable,
  space: string,
  ids: readonly string[],
  plan: MutationPlan,
): Promise<ItemRecord[]> {
  const rows = await tx.query<PgItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM items WHERE space = $1 AND id = ANY($2::text[]) ORDER BY pk FOR UPDATE`,
    [space, [...ids]],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const relations = (
    await tx.query<RelationRecord>(
      'SELECT * FROM relations WHERE space = $1 AND invalidated_at IS NULL AND (from_id = ANY($2::text[]) OR to_id = ANY($2::text[])) ORDER BY created_at, id',
      [space, [...ids]],
    )
  ).map(relationFromRow);
  const mutation = plan({
    items: new Map(rows.map((r) => [r.id, itemFromRow(r)])),
    relations,
  });
  const model = await publishedModelId(tx);
  for (const change of mutation.changes) {
    const row = byId.get(change.id);
    if (!row)
      throw new EngramError(
        'INTERNAL',
        `mutation touched ${change.id}, which the plan was not given`,
      );
    await applyChange(tx, row, change, model);
  }
  for (const relation of mutation.addRelations ?? []) assertStorable(relation, 'relation');
  await insertRelations(tx, mutation.addRelations ?? [], 'fail');
  for (const inv of mutation.invalidateRelations ?? [])
    await tx.query(
      'UPDATE relations SET invalidated_at = $1, invalidated_reason = $2 WHERE id = $3 AND space = $4 AND invalidated_at IS NULL',
      [inv.at, inv.reason, inv.id, space],
    );
  if (rows.length === 0) return [];
  const after = await tx.query<PgItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM items WHERE pk = ANY($1::int8[])`,
    [rows.map((r) => r.pk)],
  );
  const fresh = new Map(after.map((r) => [r.id, itemFromRow(r)]));
  return ids.flatMap((id) => fresh.get(id) ?? []);
}
