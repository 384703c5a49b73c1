/**
 * Export and import of the SQLite lifecycle state (§12): pages of reinforcement bases, use events,
 * settings, conversation states and maintenance runs in a stable key order, and the reads and
 * writes of one import batch (planned by src/lifecycle/import-plan.ts) inside its transaction.
 */
import {
  type LifecycleImportKeys,
  type LifecycleImportState,
  type LifecycleImportWrites,
  pairKey,
} from '../lifecycle-import-plan.js';
import { type UseColumns, useFromColumns } from '../lifecycle-records.js';
import type {
  ConversationState,
  LifecycleRecord,
  MaintenanceRunRecord,
  SettingRecord,
  UseEventRecord,
} from '../lifecycle-store.js';
import type { SqliteDatabase } from './database.js';

/** Rows read per page of an export. */
const PAGE = 500;

/** Runs one page's read (the store's read wrapper: open check, error mapping). */
export type PageReader = <T>(fn: (db: SqliteDatabase) => T) => T;

/** A use_events row as SQLite returns it. */
export interface SqliteUseRow extends Omit<UseColumns, 'context_tags' | 'cross_domain'> {
  context_tags: string;
  cross_domain: number;
}

/** Maps a use_events row. */
export function useFromRow(row: SqliteUseRow): UseEventRecord {
  return useFromColumns({
    ...row,
    context_tags: JSON.parse(row.context_tags) as string[],
    cross_domain: row.cross_domain === 1,
  });
}

type Row = Record<string, unknown>;

/**
 * Streams rows of one table page by page, by a key of one or two text columns (keyset paging:
 * stable while others write, and each page a short read).
 */
async function* pages<T>(
  read: PageReader,
  table: string,
  keys: readonly string[],
  where: string,
  params: readonly unknown[],
  map: (row: Row) => T,
): AsyncIterable<T> {
  const order = keys.join(', ');
  const after = keys.length === 1 ? `${keys[0]} > ?` : `(${order}) > (?, ?)`;
  const sql = `SELECT * FROM ${table} WHERE ${where} AND ${after} ORDER BY ${order} LIMIT ${PAGE}`;
  let last: unknown[] = keys.map(() => '');
  for (;;) {
    const rows = read((db) => db.prepare(sql).all(...params, ...last) as Row[]);
    for (const row of rows) yield map(row);
    if (rows.length < PAGE) return;
    const end = rows[rows.length - 1]!;
    last = keys.map((k) => end[k]);
  }
}

/** Streams the lifecycle records of a space (or all) in the LifecycleStore's export order. */
export async function* exportLifecycleRows(
  read: PageReader,
  space: string | null,
): AsyncIterable<LifecycleRecord> {
  const where = space === null ? '1 = 1' : 'space = ?';
  const params = space === null ? [] : [space];
  yield* pages(read, 'items', ['id'], `${where} AND strength_base IS NOT NULL`, params, (r) => ({
    kind: 'strength_base' as const,
    value: { space: r.space as string, item_id: r.id as string, base: r.strength_base as number },
  }));
  yield* pages(read, 'use_events', ['id'], where, params, (r) => ({
    kind: 'use_event' as const,
    value: useFromRow(r as unknown as SqliteUseRow),
  }));
  yield* pages(read, 'settings', ['space', 'key'], where, params, (r) => ({
    kind: 'setting' as const,
    value: {
      space: r.space as string,
      key: r.key as string,
      value: JSON.parse(r.value as string) as unknown,
      updated_at: r.updated_at as number,
    },
  }));
  yield* pages(
    read,
    'autorecall_conversations',
    ['space', 'conversation_id'],
    where,
    params,
    (r) => ({
      kind: 'autorecall_conversation' as const,
      value: {
        space: r.space as string,
        conversation_id: r.conversation_id as string,
        topics: JSON.parse(r.topics as string) as string[][],
        last_recall_at: r.last_recall_at as number | null,
        updated_at: r.updated_at as number,
      },
    }),
  );
  yield* pages(read, 'maintenance_runs', ['id'], where, params, (r) => ({
    kind: 'maintenance_run' as const,
    value: {
      id: r.id as string,
      space: r.space as string | null,
      started_at: r.started_at as number,
      finished_at: r.finished_at as number,
      backup_path: r.backup_path as string | null,
      summary: JSON.parse(r.summary as string) as Record<string, unknown>,
    },
  }));
}

/** Reads what the store holds for an import batch's keys (inside its write transaction). */
export function readImportState(
  db: SqliteDatabase,
  keys: LifecycleImportKeys,
): LifecycleImportState {
  const base = db.prepare('SELECT strength_base AS base FROM items WHERE id = ? AND space = ?');
  const event = db.prepare('SELECT 1 FROM use_events WHERE id = ?');
  const setting = db.prepare('SELECT updated_at FROM settings WHERE space = ? AND key = ?');
  const conversation = db.prepare(
    'SELECT updated_at FROM autorecall_conversations WHERE space = ? AND conversation_id = ?',
  );
  const run = db.prepare('SELECT 1 FROM maintenance_runs WHERE id = ?');
  const state: LifecycleImportState = {
    bases: new Map(),
    use_events: new Set(keys.use_events.filter((id) => event.get(id))),
    settings: new Map(),
    conversations: new Map(),
    runs: new Set(keys.runs.filter((id) => run.get(id))),
  };
  for (const k of keys.items) {
    const row = base.get(k.id, k.space) as { base: number | null } | undefined;
    if (row) state.bases.set(pairKey(k.space, k.id), row.base);
  }
  for (const k of keys.settings) {
    const row = setting.get(k.space, k.key) as { updated_at: number } | undefined;
    if (row) state.settings.set(pairKey(k.space, k.key), row.updated_at);
  }
  for (const k of keys.conversations) {
    const row = conversation.get(k.space, k.conversation_id) as { updated_at: number } | undefined;
    if (row) state.conversations.set(pairKey(k.space, k.conversation_id), row.updated_at);
  }
  return state;
}

/** Inserts use events (recorded uses and imported ones alike). */
export function insertUse(db: SqliteDatabase, events: readonly UseEventRecord[]): void {
  const insert = db.prepare(
    `INSERT INTO use_events(id, space, item_id, at, source, conversation_id, actor, context_tags,
      context_area, cross_domain, base_before, base_after, strength_before, strength_after)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const e of events)
    insert.run(
      e.id,
      e.space,
      e.item_id,
      e.at,
      e.source,
      e.conversation_id,
      e.actor,
      JSON.stringify(e.context_tags),
      e.context_area,
      e.cross_domain ? 1 : 0,
      e.base_before,
      e.base_after,
      e.strength_before,
      e.strength_after,
    );
}

function upsertSettings(db: SqliteDatabase, settings: readonly SettingRecord[]): void {
  const upsert = db.prepare(
    `INSERT INTO settings(space, key, value, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(space, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  for (const s of settings) upsert.run(s.space, s.key, JSON.stringify(s.value), s.updated_at);
}

function upsertConversations(db: SqliteDatabase, states: readonly ConversationState[]): void {
  const upsert = db.prepare(
    `INSERT INTO autorecall_conversations(space, conversation_id, topics, last_recall_at, updated_at)
     VALUES (?, ?, ?, ?, ?) ON CONFLICT(space, conversation_id) DO UPDATE SET
     topics = excluded.topics, last_recall_at = excluded.last_recall_at, updated_at = excluded.updated_at`,
  );
  for (const c of states)
    upsert.run(
      c.space,
      c.conversation_id,
      JSON.stringify(c.topics),
      c.last_recall_at,
      c.updated_at,
    );
}

function insertRuns(db: SqliteDatabase, runs: readonly MaintenanceRunRecord[]): void {
  const insert = db.prepare(
    'INSERT INTO maintenance_runs(id, space, started_at, finished_at, backup_path, summary) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const r of runs)
    insert.run(
      r.id,
      r.space,
      r.started_at,
      r.finished_at,
      r.backup_path,
      JSON.stringify(r.summary),
    );
}

/** Writes a planned import batch (inside the transaction that read its state). */
export function writeImport(db: SqliteDatabase, writes: LifecycleImportWrites): void {
  const setBase = db.prepare(
    'UPDATE items SET strength_base = ? WHERE id = ? AND space = ? AND strength_base IS NULL',
  );
  for (const b of writes.bases) setBase.run(b.base, b.item_id, b.space);
  insertUse(db, writes.use_events);
  upsertSettings(db, writes.settings);
  upsertConversations(db, writes.conversations);
  insertRuns(db, writes.runs);
}
