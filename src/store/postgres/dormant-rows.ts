/**
 * SQL of the PostgreSQL dormant-recall store (dormant-store.ts), mirroring the SQLite one: the
 * lazily created tables and the primitives the shared flows of src/dormant run inside a
 * transaction (state upserts only ever extend a cooldown).
 */
import type { AsyncDormantRowOps } from '../dormant/flows.js';
import { DORMANT_EVENT_COLUMNS, DORMANT_STATE_COLUMNS } from '../dormant/rows.js';
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

/** Start of dormancy of items `i` joined with their state `s`. */
export const SINCE = `greatest(i.created_at, coalesce(i.last_accessed_at, 0), coalesce(s.used_at, 0))`;
/** Eligibility of items `i`: active or legacy null status, a profile kind (`kinds` a text[] parameter). */
export const ELIGIBLE = (kinds: string) =>
  `(i.status IS NULL OR i.status = 'active') AND i.kind = ANY(${kinds}::text[])`;

/** `INSERT INTO table(columns) VALUES ($1, ...)` for the given columns. */
const insertInto = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table}(${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
const INSERT_EVENT = insertInto('dormant_recall_events', DORMANT_EVENT_COLUMNS);
const INSERT_STATE = `${insertInto('dormant_recall_state', DORMANT_STATE_COLUMNS)} ON CONFLICT (space, item_id) DO NOTHING RETURNING 1`;

/** Advisory-lock class of dormant-recall decisions (the second key is the space's hash). */
export const LOCK_CLASS = 0x646f726d; // "dorm"

/** The dormant primitives on one transaction (or the pool, for reads). */
export function pgDormantRows(tx: Queryable): AsyncDormantRowOps {
  const exists = async (sql: string, params: unknown[]) => (await tx.query(sql, params)).length > 0;
  const first = async <R>(sql: string, params: unknown[]) =>
    (await tx.query(sql, params))[0] as R | undefined;
  return {
    serialise: async (space) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS, space]);
    },
    candidate: (space, id) =>
      first(
        `SELECT i.version, i.body_hash, i.status, i.kind, ${SINCE} AS since, s.cooldown_until
FROM items i LEFT JOIN dormant_recall_state s ON s.space = i.space AND s.item_id = i.id
WHERE i.id = $1 AND i.space = $2`,
        [id, space],
      ),
    readEvent: (space, id, forUpdate) =>
      first(
        `SELECT * FROM dormant_recall_events WHERE id = $1 AND space = $2${forUpdate ? ' FOR UPDATE' : ''}`,
        [id, space],
      ),
    insertEvent: (event, ifAbsent) =>
      exists(
        `${INSERT_EVENT}${ifAbsent ? ' ON CONFLICT (id) DO NOTHING' : ''} RETURNING 1`,
        DORMANT_EVENT_COLUMNS.map((c) => event[c]),
      ),
    setShown: async (eventId, at) => {
      await tx.query('UPDATE dormant_recall_events SET shown_at = $1 WHERE id = $2', [at, eventId]);
    },
    setFeedback: async (eventId, category, at) => {
      await tx.query(
        'UPDATE dormant_recall_events SET feedback = $1, feedback_at = $2 WHERE id = $3',
        [category, at, eventId],
      );
    },
    isEligible: (space, id, kinds) =>
      exists(`SELECT 1 FROM items i WHERE i.id = $1 AND i.space = $2 AND ${ELIGIBLE('$3')}`, [
        id,
        space,
        [...kinds],
      ]),
    upsertState: async (space, itemId, at, change) => {
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
    },
    insertState: (record) =>
      exists(
        INSERT_STATE,
        DORMANT_STATE_COLUMNS.map((c) => record[c]),
      ),
    prune: async (space, retention, kinds) => {
      await tx.query('DELETE FROM dormant_recall_events WHERE at < $1', [retention.before]);
      await tx.query(
        'DELETE FROM dormant_recall_events WHERE id IN (SELECT id FROM dormant_recall_events WHERE space = $1 ORDER BY at DESC, id DESC OFFSET $2)',
        [space, retention.maxEvents],
      );
      await tx.query(
        `DELETE FROM dormant_recall_state s WHERE NOT EXISTS (SELECT 1 FROM items i WHERE i.id = s.item_id AND i.space = s.space AND ${ELIGIBLE('$1')})`,
        [[...kinds]],
      );
    },
    listEvents: (space, limit) =>
      tx.query(
        'SELECT * FROM dormant_recall_events WHERE space = $1 ORDER BY at DESC, id DESC LIMIT $2',
        [space, limit],
      ) as ReturnType<AsyncDormantRowOps['listEvents']>,
    readState: (space, itemId) =>
      first('SELECT * FROM dormant_recall_state WHERE space = $1 AND item_id = $2', [
        space,
        itemId,
      ]),
    page: ({ name, key }, space, after, limit) =>
      tx.query(
        `SELECT * FROM ${name} WHERE ${key} > $1 ${space === null ? '' : 'AND space = $2'} ORDER BY ${key} LIMIT ${limit}`,
        space === null ? [after] : [after, space],
      ),
  };
}
