/**
 * Export and import of the PostgreSQL lifecycle state (§12), the twin of SQLite's: pages of
 * reinforcement bases, use events, settings, conversation states and maintenance runs in a stable
 * key order (over any Queryable, so a snapshot reads them inside its transaction), and the
 * locked reads and batched writes of one import batch (planned by src/lifecycle/import-plan.ts).
 */
import type {
  LifecycleImportKeys,
  LifecycleImportState,
  LifecycleImportWrites,
} from '../lifecycle-import-plan.js';
import { pairKey } from '../lifecycle-import-plan.js';
import { type UseColumns, useFromColumns } from '../lifecycle-records.js';
import type {
  ConversationState,
  LifecycleRecord,
  MaintenanceRunRecord,
  SettingRecord,
} from '../lifecycle-store.js';
import type { Queryable } from './database.js';
import { insertUseEvents } from './lifecycle-rows.js';

/** Rows read per page of an export. */
const PAGE = 500;

type Row = Record<string, unknown>;

/**
 * Streams rows of one table page by page, by a key of one or two text columns (keyset paging:
 * stable while others write, and each page a short read). `$1` is the space filter (or null).
 */
async function* pages<T>(
  q: Queryable,
  select: string,
  keys: readonly string[],
  space: string | null,
  map: (row: Row) => T,
): AsyncIterable<T> {
  const order = keys.join(', ');
  const after = keys.length === 1 ? `${keys[0]} > $2` : `(${order}) > ($2, $3)`;
  const sql = `${select} AND ($1::text IS NULL OR space = $1) AND ${after} ORDER BY ${order} LIMIT ${PAGE}`;
  let last: unknown[] = keys.map(() => '');
  for (;;) {
    const rows = await q.query<Row>(sql, [space, ...last]);
    for (const row of rows) yield map(row);
    if (rows.length < PAGE) return;
    const end = rows[rows.length - 1]!;
    last = keys.map((k) => end[k]);
  }
}

/** Streams the lifecycle records of a space (or all) in the LifecycleStore's export order. */
export async function* exportLifecycleRows(
  q: Queryable,
  space: string | null,
): AsyncIterable<LifecycleRecord> {
  yield* pages(
    q,
    'SELECT id, space, strength_base FROM items WHERE strength_base IS NOT NULL',
    ['id'],
    space,
    (r) => ({
      kind: 'strength_base' as const,
      value: { space: r.space as string, item_id: r.id as string, base: r.strength_base as number },
    }),
  );
  yield* pages(q, 'SELECT * FROM use_events WHERE true', ['id'], space, (r) => ({
    kind: 'use_event' as const,
    value: useFromColumns(r as unknown as UseColumns),
  }));
  yield* pages(q, 'SELECT * FROM settings WHERE true', ['space', 'key'], space, (r) => ({
    kind: 'setting' as const,
    value: r as unknown as SettingRecord,
  }));
  yield* pages(
    q,
    'SELECT * FROM autorecall_conversations WHERE true',
    ['space', 'conversation_id'],
    space,
    (r) => ({ kind: 'autorecall_conversation' as const, value: r as unknown as ConversationState }),
  );
  yield* pages(q, 'SELECT * FROM maintenance_runs WHERE true', ['id'], space, (r) => ({
    kind: 'maintenance_run' as const,
    value: r as unknown as MaintenanceRunRecord,
  }));
}

/**
 * Reads what the store holds for an import batch's keys, locking the rows it will change (items
 * in key order, as every writer of this store locks them) so the plan stays true until commit.
 */
export async function readImportState(
  tx: Queryable,
  keys: LifecycleImportKeys,
): Promise<LifecycleImportState> {
  const state: LifecycleImportState = {
    bases: new Map(),
    use_events: new Set(),
    settings: new Map(),
    conversations: new Map(),
    runs: new Set(),
  };
  if (keys.items.length) {
    const rows = await tx.query<{ id: string; space: string; base: number | null }>(
      `SELECT i.id, i.space, i.strength_base AS base FROM items i
JOIN unnest($1::text[], $2::text[]) AS k(id, space) ON i.id = k.id AND i.space = k.space
ORDER BY i.pk FOR UPDATE OF i`,
      [keys.items.map((k) => k.id), keys.items.map((k) => k.space)],
    );
    for (const r of rows) state.bases.set(pairKey(r.space, r.id), r.base);
  }
  if (keys.use_events.length)
    for (const r of await tx.query<{ id: string }>(
      'SELECT id FROM use_events WHERE id = ANY($1::text[])',
      [keys.use_events],
    ))
      state.use_events.add(r.id);
  if (keys.runs.length)
    for (const r of await tx.query<{ id: string }>(
      'SELECT id FROM maintenance_runs WHERE id = ANY($1::text[])',
      [keys.runs],
    ))
      state.runs.add(r.id);
  if (keys.settings.length)
    for (const r of await tx.query<{ space: string; key: string; updated_at: number }>(
      `SELECT s.space, s.key, s.updated_at FROM settings s
JOIN unnest($1::text[], $2::text[]) AS k(space, key) ON s.space = k.space AND s.key = k.key
ORDER BY 1, 2 FOR UPDATE OF s`,
      [keys.settings.map((k) => k.space), keys.settings.map((k) => k.key)],
    ))
      state.settings.set(pairKey(r.space, r.key), r.updated_at);
  if (keys.conversations.length)
    for (const r of await tx.query<{ space: string; conversation_id: string; updated_at: number }>(
      `SELECT c.space, c.conversation_id, c.updated_at FROM autorecall_conversations c
JOIN unnest($1::text[], $2::text[]) AS k(space, id) ON c.space = k.space AND c.conversation_id = k.id
ORDER BY 1, 2 FOR UPDATE OF c`,
      [keys.conversations.map((k) => k.space), keys.conversations.map((k) => k.conversation_id)],
    ))
      state.conversations.set(pairKey(r.space, r.conversation_id), r.updated_at);
  return state;
}

/**
 * Writes a planned import batch, one statement per table. Inserts skip a row another process
 * wrote since the read, and an upsert replaces only an older row, so a race never goes backwards.
 */
export async function writeImport(tx: Queryable, writes: LifecycleImportWrites): Promise<void> {
  const { bases, settings, conversations, runs } = writes;
  if (bases.length)
    await tx.query(
      `UPDATE items AS i SET strength_base = u.base
FROM unnest($1::text[], $2::text[], $3::float8[]) AS u(id, space, base)
WHERE i.id = u.id AND i.space = u.space AND i.strength_base IS NULL`,
      [bases.map((b) => b.item_id), bases.map((b) => b.space), bases.map((b) => b.base)],
    );
  await insertUseEvents(tx, writes.use_events, true);
  if (settings.length)
    await tx.query(
      `INSERT INTO settings (space, key, value, updated_at)
SELECT s.space, s.key, s.value::json, s.updated_at
FROM unnest($1::text[], $2::text[], $3::text[], $4::int8[]) AS s(space, key, value, updated_at)
ON CONFLICT (space, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
WHERE excluded.updated_at > settings.updated_at`,
      [
        settings.map((s) => s.space),
        settings.map((s) => s.key),
        settings.map((s) => JSON.stringify(s.value)),
        settings.map((s) => s.updated_at),
      ],
    );
  if (conversations.length)
    await tx.query(
      `INSERT INTO autorecall_conversations (space, conversation_id, topics, last_recall_at, updated_at)
SELECT c.space, c.id, c.topics::json, c.last_recall_at, c.updated_at
FROM unnest($1::text[], $2::text[], $3::text[], $4::int8[], $5::int8[])
  AS c(space, id, topics, last_recall_at, updated_at)
ON CONFLICT (space, conversation_id) DO UPDATE SET topics = excluded.topics,
  last_recall_at = excluded.last_recall_at, updated_at = excluded.updated_at
WHERE excluded.updated_at > autorecall_conversations.updated_at`,
      [
        conversations.map((c) => c.space),
        conversations.map((c) => c.conversation_id),
        conversations.map((c) => JSON.stringify(c.topics)),
        conversations.map((c) => c.last_recall_at),
        conversations.map((c) => c.updated_at),
      ],
    );
  if (runs.length)
    await tx.query(
      `INSERT INTO maintenance_runs (id, space, started_at, finished_at, backup_path, summary)
SELECT r.id, r.space, r.started_at, r.finished_at, r.backup_path, r.summary::json
FROM unnest($1::text[], $2::text[], $3::int8[], $4::int8[], $5::text[], $6::text[])
  AS r(id, space, started_at, finished_at, backup_path, summary)
ON CONFLICT (id) DO NOTHING`,
      [
        runs.map((r) => r.id),
        runs.map((r) => r.space),
        runs.map((r) => r.started_at),
        runs.map((r) => r.finished_at),
        runs.map((r) => r.backup_path),
        runs.map((r) => JSON.stringify(r.summary)),
      ],
    );
}
