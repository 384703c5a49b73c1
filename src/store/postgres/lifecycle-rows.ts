/**
 * SQL and row mapping of the PostgreSQL lifecycle store: the decay-facts queries (a join of
 * pre-aggregated revisions and restores for whole-space scans, index probes for a few ids), and
 * the batched writes of a maintenance run and of recorded uses, one statement per batch.
 */
import type { FactsColumns } from '../lifecycle-records.js';
import type { MaintenanceWrite, UseEventRecord } from '../lifecycle-store.js';
import type { Queryable } from './database.js';

/** An items row as the facts queries return it (the driver decodes arrays and booleans). */
export type FactsRow = FactsColumns & { pk: number };

const COLUMNS = `i.pk, i.id, i.space, i.kind, i.area, i.tags, i.status, i.pinned, i.importance,
  i.strength, i.strength_base AS base, i.created_at, i.use_count, i.last_used_at`;
const NOT_FORGOTTEN = "(i.status IS NULL OR i.status <> 'forgotten')";
/** A restore is an explicit return from a non-live status to a live one. */
const RESTORE_EVENT = `e.from_status IN ('archived', 'forgotten', 'superseded', 'merged')
  AND e.to_status IN ('active', 'candidate', 'challenged')`;

/**
 * Facts of a whole space (or store): revisions and restores aggregated once and joined, which
 * beats one index probe per item when most items are read.
 */
const SCAN_SQL = `SELECT ${COLUMNS}, rv.at AS last_revised_at, rs.at AS last_restored_at
FROM items i
LEFT JOIN (SELECT item_id, max(created_at) AS at FROM versions WHERE version > 1 GROUP BY item_id) rv
  ON rv.item_id = i.id
LEFT JOIN (SELECT e.item_id, max(e.at) AS at FROM status_events e WHERE ${RESTORE_EVENT} GROUP BY e.item_id) rs
  ON rs.item_id = i.id
WHERE ${NOT_FORGOTTEN} AND ($1::text IS NULL OR i.space = $1)
ORDER BY i.pk`;

/** Facts of a few named items: each looked up by its unique id, its history by index. */
const BY_IDS_SQL = `SELECT ${COLUMNS},
  (SELECT max(v.created_at) FROM versions v WHERE v.item_id = i.id AND v.version > 1) AS last_revised_at,
  (SELECT max(e.at) FROM status_events e WHERE e.item_id = i.id AND ${RESTORE_EVENT}) AS last_restored_at
FROM items i
WHERE i.id = ANY($2::text[]) AND ${NOT_FORGOTTEN} AND ($1::text IS NULL OR i.space = $1)
ORDER BY i.pk`;

/**
 * Reads the facts rows of a space (or all spaces), or of the named items only. With `lock` (after
 * lockFactsRows) the read also locks what it returns, so a row created since is covered too.
 */
export function readFactsRows(
  q: Queryable,
  space: string | null,
  ids?: readonly string[],
  lock = false,
): Promise<FactsRow[]> {
  const forUpdate = lock ? ' FOR UPDATE OF i' : '';
  return ids
    ? q.query<FactsRow>(BY_IDS_SQL + forUpdate, [space, [...ids]])
    : q.query<FactsRow>(SCAN_SQL + forUpdate, [space]);
}

/**
 * Locks the rows a write will be planned from (in key order, as every writer of this store locks),
 * so no other writer changes them between the read of their facts and the write of the result.
 * A statement of its own, before the read: the read then starts after every writer it waited for
 * has committed, so the revisions and restores it joins are current too.
 */
export async function lockFactsRows(
  q: Queryable,
  space: string | null,
  ids?: readonly string[],
): Promise<void> {
  const byIds = ids ? 'AND i.id = ANY($2::text[])' : '';
  await q.query(
    `SELECT count(*) FROM (SELECT 1 FROM items i WHERE ${NOT_FORGOTTEN} AND ($1::text IS NULL OR i.space = $1) ${byIds} ORDER BY i.pk FOR UPDATE) locked`,
    ids ? [space, [...ids]] : [space],
  );
}

/** Rows per statement of a maintenance write, and how often progress is reported. */
export const MAINTENANCE_BATCH = 2_000;

/**
 * Writes a maintenance run's updates, then its transitions (each with its status event), in
 * batches of MAINTENANCE_BATCH operations; `onProgress` follows every batch, so a throw from it
 * stops the run mid-write (the caller's transaction then rolls everything back).
 */
export async function writeMaintenance(
  tx: Queryable,
  result: MaintenanceWrite,
  pks: ReadonlyMap<string, number>,
  onProgress?: (done: number, total: number) => void,
): Promise<void> {
  const { updates, transitions } = result;
  const total = updates.length + transitions.length;
  const at = result.run.finished_at;
  for (let start = 0; start < total; start += MAINTENANCE_BATCH) {
    const end = Math.min(total, start + MAINTENANCE_BATCH);
    const batchUpdates = updates.slice(start, end);
    const batchTransitions = transitions.slice(
      Math.max(0, start - updates.length),
      Math.max(0, end - updates.length),
    );
    if (batchUpdates.length)
      await tx.query(
        `UPDATE items AS i SET strength = u.strength, strength_base = coalesce(u.base, i.strength_base)
FROM unnest($1::int8[], $2::float8[], $3::float8[]) AS u(pk, strength, base) WHERE i.pk = u.pk`,
        [
          batchUpdates.map((u) => pks.get(u.id)),
          batchUpdates.map((u) => u.strength),
          batchUpdates.map((u) => u.base ?? null),
        ],
      );
    if (batchTransitions.length) await writeTransitions(tx, batchTransitions, pks, at);
    onProgress?.(end, total);
  }
  if (result.prune_conversations_before !== undefined)
    await tx.query(
      'DELETE FROM autorecall_conversations WHERE updated_at < $1 AND ($2::text IS NULL OR space = $2)',
      [result.prune_conversations_before, result.run.space],
    );
  const run = result.run;
  await tx.query(
    'INSERT INTO maintenance_runs (id, space, started_at, finished_at, backup_path, summary) VALUES ($1, $2, $3, $4, $5, $6::json)',
    [
      run.id,
      run.space,
      run.started_at,
      run.finished_at,
      run.backup_path,
      JSON.stringify(run.summary),
    ],
  );
}

/**
 * Writes status changes and their events. An item can change twice in one run (promoted, then
 * archived): its row takes the last change, and every change keeps its own event.
 */
async function writeTransitions(
  tx: Queryable,
  transitions: MaintenanceWrite['transitions'],
  pks: ReadonlyMap<string, number>,
  at: number,
): Promise<void> {
  const last = [...new Map(transitions.map((t) => [t.id, t])).values()];
  await tx.query(
    `UPDATE items AS i SET status = t.status, prior = t.prior::json, updated_at = $4
FROM unnest($1::int8[], $2::text[], $3::text[]) AS t(pk, status, prior) WHERE i.pk = t.pk`,
    [
      last.map((t) => pks.get(t.id)),
      last.map((t) => t.to),
      last.map((t) => JSON.stringify(t.prior)),
      at,
    ],
  );
  await tx.query(
    `INSERT INTO status_events (id, item_id, from_status, to_status, reason, actor, at)
SELECT e.id, e.item_id, e.from_status, e.to_status, e.reason, 'engram:maintain', $6
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS e(id, item_id, from_status, to_status, reason)`,
    [
      transitions.map((t) => t.event_id),
      transitions.map((t) => t.id),
      transitions.map((t) => t.from),
      transitions.map((t) => t.to),
      transitions.map((t) => t.reason),
      at,
    ],
  );
}

/**
 * Inserts use events in one statement; with `skipExisting` (an import) an id the store holds
 * already is left alone instead of failing the statement.
 */
export async function insertUseEvents(
  tx: Queryable,
  events: readonly UseEventRecord[],
  skipExisting = false,
): Promise<void> {
  if (events.length === 0) return;
  await tx.query(
    `INSERT INTO use_events (id, space, item_id, at, source, conversation_id, actor, context_tags,
  context_area, cross_domain, base_before, base_after, strength_before, strength_after)
SELECT e.id, e.space, e.item_id, e.at, e.source, e.conversation_id, e.actor,
  ARRAY(SELECT json_array_elements_text(e.context_tags)), e.context_area, e.cross_domain,
  e.base_before, e.base_after, e.strength_before, e.strength_after
FROM json_to_recordset($1::json) AS e(id text, space text, item_id text, at int8, source text,
  conversation_id text, actor text, context_tags json, context_area text, cross_domain boolean,
  base_before float8, base_after float8, strength_before float8, strength_after float8)${skipExisting ? '\nON CONFLICT (id) DO NOTHING' : ''}`,
    [JSON.stringify(events)],
  );
}

/**
 * Writes use events and their items' new reinforcement state. Several events of one item apply
 * as they would one after another: the last base and strength, one use each, the latest time.
 */
export async function writeUses(
  tx: Queryable,
  space: string,
  events: readonly UseEventRecord[],
): Promise<void> {
  if (events.length === 0) return;
  await insertUseEvents(tx, events);
  const byItem = new Map<string, { last: UseEventRecord; uses: number; at: number }>();
  for (const e of events) {
    const seen = byItem.get(e.item_id);
    byItem.set(e.item_id, {
      last: e,
      uses: (seen?.uses ?? 0) + 1,
      at: Math.max(seen?.at ?? e.at, e.at),
    });
  }
  const items = [...byItem.values()];
  await tx.query(
    `UPDATE items AS i SET strength_base = u.base, strength = u.strength, use_count = i.use_count + u.uses,
  last_used_at = greatest(coalesce(i.last_used_at, 0), u.at)
FROM unnest($1::text[], $2::float8[], $3::float8[], $4::int8[], $5::int8[]) AS u(id, base, strength, uses, at)
WHERE i.id = u.id AND i.space = $6`,
    [
      items.map((u) => u.last.item_id),
      items.map((u) => u.last.base_after),
      items.map((u) => u.last.strength_after),
      items.map((u) => u.uses),
      items.map((u) => u.at),
      space,
    ],
  );
}
