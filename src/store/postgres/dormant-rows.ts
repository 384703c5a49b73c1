/**
 * SQL and row helpers of the PostgreSQL dormant-recall store (dormant-store.ts), mirroring the
 * SQLite ones: the lazily created tables, event and state rows, the in-lock candidate re-check,
 * state upserts that only ever extend a cooldown, and pruning.
 */
import type { Kind } from '../../core/types.js';
import type {
  DormantEventRecord,
  DormantRecordRequest,
  DormantRetention,
  DormantStateRecord,
} from '../../dormant/dormant-store.js';
import type { Queryable } from './database.js';

/** The two additive tables (created lazily, never by a migration). */
export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS dormant_recall_events (
  id text COLLATE "C" PRIMARY KEY,
  space text COLLATE "C" NOT NULL,
  at bigint NOT NULL,
  algorithm text NOT NULL,
  model text,
  outcome text NOT NULL,
  error_type text,
  candidate_id text COLLATE "C",
  candidate_version integer,
  candidate_count integer NOT NULL DEFAULT 0,
  above_floor integer NOT NULL DEFAULT 0,
  checked integer NOT NULL DEFAULT 0,
  passed integer NOT NULL DEFAULT 0,
  raw_relevance double precision,
  relevance_score double precision,
  bonus double precision,
  dormant_days double precision,
  overlap_terms integer,
  query_terms integer,
  retrieved_at bigint,
  shown_at bigint,
  feedback text,
  feedback_at bigint,
  duration_ms double precision NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS dormant_recall_events_space_at ON dormant_recall_events (space, at, id);
CREATE TABLE IF NOT EXISTS dormant_recall_state (
  space text COLLATE "C" NOT NULL,
  item_id text COLLATE "C" NOT NULL,
  retrieved_at bigint,
  shown_at bigint,
  used_at bigint,
  cooldown_until bigint,
  updated_at bigint NOT NULL,
  PRIMARY KEY (space, item_id)
);
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

/** Start of dormancy of items `i` joined with their state `s`. */
export const SINCE = `greatest(i.created_at, coalesce(i.last_accessed_at, 0), coalesce(s.used_at, 0))`;
/** Eligibility of items `i`: active or legacy null status, a profile kind (`kinds` a text[] parameter). */
export const ELIGIBLE = (kinds: string) =>
  `(i.status IS NULL OR i.status = 'active') AND i.kind = ANY(${kinds}::text[])`;

/** Re-checks, inside the serialising transaction, that a scored candidate may still be chosen. */
export async function stillSelectable(
  tx: Queryable,
  request: DormantRecordRequest,
  c: DormantRecordRequest['ranked'][number],
): Promise<boolean> {
  const [row] = await tx.query<{
    version: number;
    body_hash: string;
    status: string | null;
    kind: string;
    since: string;
    cooldown_until: string | null;
  }>(
    `SELECT i.version, i.body_hash, i.status, i.kind, ${SINCE} AS since, s.cooldown_until
FROM items i LEFT JOIN dormant_recall_state s ON s.space = i.space AND s.item_id = i.id
WHERE i.id = $1 AND i.space = $2`,
    [c.id, request.event.space],
  );
  const e = request.eligibility;
  return (
    row !== undefined &&
    row.version === c.version &&
    row.body_hash === c.body_hash &&
    (row.status === null || row.status === 'active') &&
    e.kinds.includes(row.kind as Kind) &&
    Number(row.since) <= e.dormantBefore &&
    (row.cooldown_until === null || Number(row.cooldown_until) <= e.now)
  );
}

/** Event columns the driver returns as strings (bigint). */
export const NUMERIC_EVENT = ['at', 'retrieved_at', 'shown_at', 'feedback_at'] as const;

/** An event row as a record. */
export function eventFromRow(row: DormantEventRecord): DormantEventRecord {
  const out = { ...row };
  for (const key of NUMERIC_EVENT)
    if (out[key] !== null) (out as Record<string, unknown>)[key] = Number(out[key]);
  return out;
}

/** A state row as a record. */
export function stateFromRow(row: DormantStateRecord): DormantStateRecord {
  const n = (v: number | null) => (v === null ? null : Number(v));
  return {
    space: row.space,
    item_id: row.item_id,
    retrieved_at: n(row.retrieved_at),
    shown_at: n(row.shown_at),
    used_at: n(row.used_at),
    cooldown_until: n(row.cooldown_until),
    updated_at: Number(row.updated_at),
  };
}

/** One event of a space (optionally locked for update), or undefined. */
export async function readEvent(
  q: Queryable,
  space: string,
  id: string,
  lock = false,
): Promise<DormantEventRecord | undefined> {
  const [row] = await q.query<DormantEventRecord>(
    `SELECT * FROM dormant_recall_events WHERE id = $1 AND space = $2${lock ? ' FOR UPDATE' : ''}`,
    [id, space],
  );
  return row ? eventFromRow(row) : undefined;
}

/** Inserts an event; false when `ifAbsent` and the id exists. */
export async function insertEvent(
  tx: Queryable,
  e: DormantEventRecord,
  ifAbsent = false,
): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO dormant_recall_events(${EVENT_COLUMNS.join(', ')}) VALUES (${EVENT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})${ifAbsent ? ' ON CONFLICT (id) DO NOTHING' : ''} RETURNING 1`,
    EVENT_COLUMNS.map((c) => e[c]),
  );
  return rows.length > 0;
}

/** True when the memory exists in the space, is active (or legacy null) and of a profile kind. */
export async function isEligible(
  tx: Queryable,
  space: string,
  id: string,
  kinds: readonly Kind[],
): Promise<boolean> {
  const rows = await tx.query(
    `SELECT 1 FROM items i WHERE i.id = $1 AND i.space = $2 AND ${ELIGIBLE('$3')}`,
    [id, space, [...kinds]],
  );
  return rows.length > 0;
}

/** Sets exposure times and extends (never shortens) the cooldown of one memory's state row. */
export async function upsertState(
  tx: Queryable,
  space: string,
  itemId: string,
  at: number,
  change: { retrieved_at?: number; shown_at?: number; used_at?: number; cooldown_until: number },
): Promise<void> {
  await tx.query(
    `INSERT INTO dormant_recall_state AS s (space, item_id, retrieved_at, shown_at, used_at, cooldown_until, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7)
ON CONFLICT (space, item_id) DO UPDATE SET
  retrieved_at = coalesce(excluded.retrieved_at, s.retrieved_at),
  shown_at = coalesce(excluded.shown_at, s.shown_at),
  used_at = coalesce(excluded.used_at, s.used_at),
  cooldown_until = greatest(coalesce(s.cooldown_until, 0), excluded.cooldown_until),
  updated_at = excluded.updated_at`,
    [
      space,
      itemId,
      change.retrieved_at ?? null,
      change.shown_at ?? null,
      change.used_at ?? null,
      change.cooldown_until,
      at,
    ],
  );
}

/** The same pruning as the SQLite store: age (all spaces), count (per space), stale state. */
export async function prune(
  tx: Queryable,
  space: string,
  retention: DormantRetention,
  kinds: readonly Kind[],
): Promise<true> {
  await tx.query('DELETE FROM dormant_recall_events WHERE at < $1', [retention.before]);
  await tx.query(
    'DELETE FROM dormant_recall_events WHERE id IN (SELECT id FROM dormant_recall_events WHERE space = $1 ORDER BY at DESC, id DESC OFFSET $2)',
    [space, retention.maxEvents],
  );
  await tx.query(
    `DELETE FROM dormant_recall_state s WHERE NOT EXISTS (SELECT 1 FROM items i WHERE i.id = s.item_id AND i.space = s.space AND ${ELIGIBLE('$1')})`,
    [[...kinds]],
  );
  return true;
}
