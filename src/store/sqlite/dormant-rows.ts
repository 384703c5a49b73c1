/**
 * SQL and row helpers of the SQLite dormant-recall store (dormant-store.ts): the lazily created
 * tables, event rows, state upserts that only ever extend a cooldown, pruning, and the exact
 * cosine of a stored vector blob.
 */
import type { Kind } from '../../core/types.js';
import type {
  DormantEligibility,
  DormantEventRecord,
  DormantRetention,
} from '../../dormant/dormant-store.js';
import type { SqliteDatabase } from './database.js';

/** The two additive tables (created lazily, never by a migration). */
export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS dormant_recall_events (
  id TEXT PRIMARY KEY,
  space TEXT NOT NULL,
  at INTEGER NOT NULL,
  algorithm TEXT NOT NULL,
  model TEXT,
  outcome TEXT NOT NULL,
  error_type TEXT,
  candidate_id TEXT,
  candidate_version INTEGER,
  candidate_count INTEGER NOT NULL DEFAULT 0,
  above_floor INTEGER NOT NULL DEFAULT 0,
  checked INTEGER NOT NULL DEFAULT 0,
  passed INTEGER NOT NULL DEFAULT 0,
  raw_relevance REAL,
  relevance_score REAL,
  bonus REAL,
  dormant_days REAL,
  overlap_terms INTEGER,
  query_terms INTEGER,
  retrieved_at INTEGER,
  shown_at INTEGER,
  feedback TEXT,
  feedback_at INTEGER,
  duration_ms REAL NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS dormant_recall_events_space_at ON dormant_recall_events(space, at, id);
CREATE TABLE IF NOT EXISTS dormant_recall_state (
  space TEXT NOT NULL,
  item_id TEXT NOT NULL,
  retrieved_at INTEGER,
  shown_at INTEGER,
  used_at INTEGER,
  cooldown_until INTEGER,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (space, item_id)
) WITHOUT ROWID;
`;

/** Columns of an event row, in insert order. */
export const EVENT_COLUMNS = [
  'id',
  'space',
  'at',
  'algorithm',
  'model',
  'outcome',
  'error_type',
  'candidate_id',
  'candidate_version',
  'candidate_count',
  'above_floor',
  'checked',
  'passed',
  'raw_relevance',
  'relevance_score',
  'bonus',
  'dormant_days',
  'overlap_terms',
  'query_terms',
  'retrieved_at',
  'shown_at',
  'feedback',
  'feedback_at',
  'duration_ms',
] as const;

/** True when a memory row is eligible: active or legacy null status, a profile kind. */
export const ELIGIBLE_ITEM_SQL = `(i.status IS NULL OR i.status = 'active') AND i.kind IN (SELECT value FROM json_each(@kinds))`;
/** Start of dormancy of a row of items `i` joined with its state `s`. */
export const DORMANT_SINCE_SQL = `max(i.created_at, coalesce(i.last_accessed_at, 0), coalesce(s.used_at, 0))`;

/** One event of a space, or undefined. */
export function readEvent(
  db: SqliteDatabase,
  space: string,
  id: string,
): DormantEventRecord | undefined {
  const row = db
    .prepare('SELECT * FROM dormant_recall_events WHERE id = ? AND space = ?')
    .get(id, space) as DormantEventRecord | undefined;
  return row ? eventFromRow(row) : undefined;
}

/** An event row as a record. */
export function eventFromRow(row: DormantEventRecord): DormantEventRecord {
  return { ...row };
}

/** Inserts one event row. */
export function insertEvent(db: SqliteDatabase, e: DormantEventRecord): void {
  db.prepare(
    `INSERT INTO dormant_recall_events(${EVENT_COLUMNS.join(', ')}) VALUES (${EVENT_COLUMNS.map((c) => `@${c}`).join(', ')})`,
  ).run(Object.fromEntries(EVENT_COLUMNS.map((c) => [c, e[c]])));
}

/** True when the memory exists in the space, is active (or legacy null) and of a profile kind. */
export function isEligible(
  db: SqliteDatabase,
  space: string,
  id: string,
  kinds: readonly Kind[],
): boolean {
  return (
    db
      .prepare(
        `SELECT 1 FROM items i WHERE i.id = @id AND i.space = @space AND ${ELIGIBLE_ITEM_SQL}`,
      )
      .get({ id, space, kinds: JSON.stringify(kinds) }) !== undefined
  );
}

/** Sets exposure times and extends (never shortens) the cooldown of one memory's state row. */
export function upsertState(
  db: SqliteDatabase,
  space: string,
  itemId: string,
  at: number,
  change: { retrieved_at?: number; shown_at?: number; used_at?: number; cooldown_until: number },
): void {
  db.prepare(
    `INSERT INTO dormant_recall_state(space, item_id, retrieved_at, shown_at, used_at, cooldown_until, updated_at)
VALUES (@space, @item_id, @retrieved_at, @shown_at, @used_at, @cooldown_until, @at)
ON CONFLICT(space, item_id) DO UPDATE SET
  retrieved_at = coalesce(excluded.retrieved_at, retrieved_at),
  shown_at = coalesce(excluded.shown_at, shown_at),
  used_at = coalesce(excluded.used_at, used_at),
  cooldown_until = max(coalesce(cooldown_until, 0), excluded.cooldown_until),
  updated_at = excluded.updated_at`,
  ).run({
    space,
    item_id: itemId,
    retrieved_at: change.retrieved_at ?? null,
    shown_at: change.shown_at ?? null,
    used_at: change.used_at ?? null,
    cooldown_until: change.cooldown_until,
    at,
  });
}

/**
 * Caps the review log by age (all spaces) and by count (per space, newest kept), and drops state
 * rows of memories that are gone, forgotten or otherwise no longer eligible.
 */
export function prune(
  db: SqliteDatabase,
  space: string,
  retention: DormantRetention,
  kinds: DormantEligibility['kinds'],
): true {
  db.prepare('DELETE FROM dormant_recall_events WHERE at < ?').run(retention.before);
  db.prepare(
    'DELETE FROM dormant_recall_events WHERE id IN (SELECT id FROM dormant_recall_events WHERE space = ? ORDER BY at DESC, id DESC LIMIT -1 OFFSET ?)',
  ).run(space, retention.maxEvents);
  db.prepare(
    `DELETE FROM dormant_recall_state WHERE NOT EXISTS (SELECT 1 FROM items i WHERE i.id = dormant_recall_state.item_id AND i.space = dormant_recall_state.space AND ${ELIGIBLE_ITEM_SQL})`,
  ).run({ kinds: JSON.stringify(kinds) });
  return true;
}

/** A unit-length copy of the query. */
export function unit(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const inv = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  return Float32Array.from(vector, (x) => x * inv);
}

/** Exact cosine of a unit query with a stored vector blob; null for a mismatched or zero vector. */
export function cosineWith(query: Float32Array, blob: Buffer): number | null {
  if (blob.byteLength !== query.length * 4) return null;
  const v =
    blob.byteOffset % 4 === 0
      ? new Float32Array(blob.buffer, blob.byteOffset, query.length)
      : new Float32Array(new Uint8Array(blob).buffer);
  let dot = 0;
  let norm = 0;
  for (let d = 0; d < query.length; d++) {
    const x = v[d]!;
    dot += x * query[d]!;
    norm += x * x;
  }
  return norm > 0 ? dot / Math.sqrt(norm) : null;
}
