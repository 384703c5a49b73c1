/**
 * SQL of the SQLite dormant-recall store (dormant-store.ts): the lazily created tables, the
 * primitives the shared flows of src/dormant run inside a transaction, and the exact cosine of a
 * stored vector blob.
 */
import type { Kind } from '../../domain/types.js';
import type { DormantRowOps } from '../dormant/flows.js';
import { DORMANT_EVENT_COLUMNS, DORMANT_STATE_COLUMNS } from '../dormant/rows.js';
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

/** True when a memory row is eligible: active or legacy null status, a profile kind. */
export const ELIGIBLE_ITEM_SQL = `(i.status IS NULL OR i.status = 'active') AND i.kind IN (SELECT value FROM json_each(@kinds))`;
/** Start of dormancy of a row of items `i` joined with its state `s`. */
export const DORMANT_SINCE_SQL = `max(i.created_at, coalesce(i.last_accessed_at, 0), coalesce(s.used_at, 0))`;

const INSERT_EVENT = `INSERT INTO dormant_recall_events(${DORMANT_EVENT_COLUMNS.join(', ')}) VALUES (${DORMANT_EVENT_COLUMNS.map((c) => `@${c}`).join(', ')})`;
const INSERT_STATE = `INSERT INTO dormant_recall_state(${DORMANT_STATE_COLUMNS.join(', ')}) VALUES (${DORMANT_STATE_COLUMNS.map((c) => `@${c}`).join(', ')}) ON CONFLICT(space, item_id) DO NOTHING`;

const kindsParam = (kinds: readonly Kind[]) => JSON.stringify(kinds);
/** Named parameters of a record for the given columns (and nothing else). */
const named = <R extends object>(columns: readonly (keyof R & string)[], record: R) =>
  Object.fromEntries(columns.map((c) => [c, record[c]]));

/** The dormant primitives on one connection (inside its transaction when writing). */
export function sqliteDormantRows(db: SqliteDatabase): DormantRowOps {
  return {
    serialise: () => {}, // an IMMEDIATE transaction already holds the one write lock
    candidate: (space, id) =>
      db
        .prepare(
          `SELECT i.version, i.body_hash, i.status, i.kind, ${DORMANT_SINCE_SQL} AS since, s.cooldown_until
FROM items i LEFT JOIN dormant_recall_state s ON s.space = i.space AND s.item_id = i.id
WHERE i.id = ? AND i.space = ?`,
        )
        .get(id, space) as ReturnType<DormantRowOps['candidate']>,
    readEvent: (space, id) =>
      db
        .prepare('SELECT * FROM dormant_recall_events WHERE id = ? AND space = ?')
        .get(id, space) as ReturnType<DormantRowOps['readEvent']>,
    insertEvent: (event, ifAbsent) =>
      db
        .prepare(`${INSERT_EVENT}${ifAbsent ? ' ON CONFLICT(id) DO NOTHING' : ''}`)
        .run(named(DORMANT_EVENT_COLUMNS, event)).changes > 0,
    setShown: (eventId, at) => {
      db.prepare('UPDATE dormant_recall_events SET shown_at = ? WHERE id = ?').run(at, eventId);
    },
    setFeedback: (eventId, category, at) => {
      db.prepare('UPDATE dormant_recall_events SET feedback = ?, feedback_at = ? WHERE id = ?').run(
        category,
        at,
        eventId,
      );
    },
    isEligible: (space, id, kinds) =>
      db
        .prepare(
          `SELECT 1 FROM items i WHERE i.id = @id AND i.space = @space AND ${ELIGIBLE_ITEM_SQL}`,
        )
        .get({ id, space, kinds: kindsParam(kinds) }) !== undefined,
    upsertState: (space, itemId, at, change) => {
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
    },
    insertState: (record) =>
      db.prepare(INSERT_STATE).run(named(DORMANT_STATE_COLUMNS, record)).changes > 0,
    prune: (space, retention, kinds) => {
      db.prepare('DELETE FROM dormant_recall_events WHERE at < ?').run(retention.before);
      db.prepare(
        'DELETE FROM dormant_recall_events WHERE id IN (SELECT id FROM dormant_recall_events WHERE space = ? ORDER BY at DESC, id DESC LIMIT -1 OFFSET ?)',
      ).run(space, retention.maxEvents);
      db.prepare(
        `DELETE FROM dormant_recall_state WHERE NOT EXISTS (SELECT 1 FROM items i WHERE i.id = dormant_recall_state.item_id AND i.space = dormant_recall_state.space AND ${ELIGIBLE_ITEM_SQL})`,
      ).run({ kinds: kindsParam(kinds) });
    },
    listEvents: (space, limit) =>
      db
        .prepare(
          'SELECT * FROM dormant_recall_events WHERE space = ? ORDER BY at DESC, id DESC LIMIT ?',
        )
        .all(space, limit) as ReturnType<DormantRowOps['listEvents']>,
    readState: (space, itemId) =>
      db
        .prepare('SELECT * FROM dormant_recall_state WHERE space = ? AND item_id = ?')
        .get(space, itemId) as ReturnType<DormantRowOps['readState']>,
    page: ({ name, key }, space, after, limit) =>
      db
        .prepare(
          `SELECT * FROM ${name} WHERE ${key} > ? ${space === null ? '' : 'AND space = ?'} ORDER BY ${key} LIMIT ${limit}`,
        )
        .all(...(space === null ? [after] : [after, space])) as object[],
  };
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
