/**
 * Session neighbours for recall's session context on PostgreSQL: items recorded as turns of one
 * conversation (`source.session` a JSON string, `source.turn` a JSON integer) found through the
 * expression index `items_session_turn` (migration 3). Same results as the SQLite primitive.
 */
import type { ItemFilter } from '../../domain/filter.js';
import { CONVERSATION_KINDS, type SessionTurn, WRITE_ORDER } from '../store.js';
import type { Queryable } from './database.js';
import { compileFilter, Params } from './rows.js';

/** The session of a row (alias `a`): the text of `source.session`. */
function sessionOf(a: string): string {
  return `(${a}.source ->> 'session')`;
}

/**
 * The turn of a row (alias `a`) when `source.turn` is a JSON integer, else null. A JSON number
 * written with a fraction or an exponent is no turn (SQLite's json_type says 'real' for it).
 */
function turnOf(a: string): string {
  return `(CASE WHEN json_typeof(${a}.source -> 'turn') = 'number' AND (${a}.source ->> 'turn') ~ '^-?[0-9]{1,18}$' THEN (${a}.source ->> 'turn')::int8 END)`;
}

/** Whether a row's session is a JSON string (the index's predicate). */
function hasSession(a: string): string {
  return `json_typeof(${a}.source -> 'session') = 'string'`;
}

/**
 * Index DDL (migration 3): the query below repeats these expressions, so the planner matches
 * them to the index (space, session, turn) and its predicate.
 */
export const PG_SESSION_TURN_INDEX_SQL = `
CREATE INDEX items_session_turn ON items (space, ${sessionOf('items')}, ${turnOf('items')})
  WHERE ${hasSession('items')};
`;

/** The highest turn of a session in a space (through `items_session_turn`), or null. */
export async function lastTurn(
  db: Queryable,
  space: string,
  session: string,
): Promise<number | null> {
  // A NUL character names no session (PostgreSQL text cannot hold one).
  if (session.includes('\u0000')) return null;
  const rows = await db.query<{ turn: string | null }>(
    `SELECT max(${turnOf('items')}) AS turn FROM items
     WHERE space = $1 AND ${hasSession('items')} AND ${sessionOf('items')} = $2`,
    [space, session],
  );
  const turn = rows[0]?.turn;
  return turn === null || turn === undefined ? null : Number(turn);
}

/**
 * Positions of `ids` that are conversation turns (of CONVERSATION_KINDS), plus every such turn
 * passing `filter` within `window` turns of one of them in the same session. Seeds need not pass
 * the filter (they come from recall's candidates, which did); neighbours must, so hidden items
 * never become context.
 */
export async function sessionNeighbors(
  db: Queryable,
  filter: ItemFilter,
  ids: readonly string[],
  window: number,
): Promise<SessionTurn[]> {
  // An id with a NUL character names no item (PostgreSQL text cannot hold one).
  const lookup = [...new Set(ids)].filter((id) => !id.includes('\u0000'));
  if (lookup.length === 0 || !(window >= 0)) return [];
  const params = new Params();
  const space = params.add(filter.space);
  const seedIds = params.add(lookup, '::text[]');
  const span = params.add(Math.floor(window), '::int8');
  const kinds = params.add([...CONVERSATION_KINDS], '::text[]');
  const where = compileFilter(filter, params, 'i');
  // Seeds through the id index (a MATERIALIZED list of distinct positions), neighbours through
  // the session-turn index; one row per item, whichever seeds reach it.
  const sql = `
WITH seeds AS MATERIALIZED (
  SELECT DISTINCT t.session, t.turn FROM unnest(${seedIds}) AS x(id)
  CROSS JOIN LATERAL (
    -- LIMIT keeps this a probe of the id index per seed, never a scan of the space's turns.
    SELECT ${sessionOf('s')} AS session, ${turnOf('s')} AS turn FROM items s
    WHERE s.id = x.id AND s.space = ${space} AND ${hasSession('s')} AND s.kind = ANY(${kinds})
    LIMIT 1
  ) t
  WHERE t.turn IS NOT NULL
)
SELECT DISTINCT ON (i.id) i.id, seeds.session, ${turnOf('i')} AS turn, i.body
FROM seeds JOIN items i
  ON i.space = ${space} AND ${hasSession('i')}
  AND ${sessionOf('i')} = seeds.session
  AND ${turnOf('i')} BETWEEN seeds.turn - ${span} AND seeds.turn + ${span}
  AND i.kind = ANY(${kinds})
WHERE ${where}
ORDER BY i.id`;
  const rows = await db.query<SessionTurn>(sql, params.values);
  return rows.sort(
    (a, b) => compare(a.session, b.session) || a.turn - b.turn || compare(a.id, b.id),
  );
}

/**
 * Write neighbours (Store.writeNeighbors): for each of `ids` without a session and of a kind of
 * CONVERSATION_KINDS, itself and the alike items of its space within `window` primary keys of it,
 * created at most `gapMs` apart, passing `filter`; the primary key is the turn. Neighbours are
 * looked up key by key (each seed's key plus an offset): given a key range instead, the planner
 * also reads the (space, kind) index, every item of the space for every seed (7.5 → 2.3 ms for 150
 * seeds on 10,000 items).
 */
export async function writeNeighbors(
  db: Queryable,
  filter: ItemFilter,
  ids: readonly string[],
  window: number,
  gapMs: number,
): Promise<SessionTurn[]> {
  const lookup = [...new Set(ids)].filter((id) => !id.includes('\u0000'));
  if (lookup.length === 0 || !(window >= 1) || !(gapMs >= 0)) return [];
  const params = new Params();
  const space = params.add(filter.space);
  const seedIds = params.add(lookup, '::text[]');
  const span = params.add(Math.floor(window), '::int8');
  const gap = params.add(gapMs, '::float8');
  const kinds = params.add([...CONVERSATION_KINDS], '::text[]');
  const where = compileFilter(filter, params, 'i');
  const sql = `
WITH seeds AS MATERIALIZED (
  SELECT s.pk AS seed_pk, s.created_at AS seed_at FROM items s
  WHERE s.id = ANY(${seedIds}) AND s.space = ${space} AND (s.source ->> 'session') IS NULL
    AND s.kind = ANY(${kinds})
)
SELECT DISTINCT ON (i.pk) i.id, i.pk AS turn, i.body, i.created_at AS at
FROM seeds CROSS JOIN generate_series(-${span}, ${span}) AS d(o) JOIN items i
  ON i.pk = seeds.seed_pk + d.o
  AND i.space = ${space} AND (i.source ->> 'session') IS NULL AND i.kind = ANY(${kinds})
  AND abs(i.created_at - seeds.seed_at) <= ${gap}
WHERE ${where}
ORDER BY i.pk`;
  const rows = await db.query<{ id: string; turn: number; body: string; at: number }>(
    sql,
    params.values,
  );
  return rows.map((r) => ({ ...r, turn: Number(r.turn), at: Number(r.at), session: WRITE_ORDER }));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
