/**
 * Session neighbours for recall's session context: items recorded as turns of one conversation
 * (`source.session` + `source.turn`) found through the expression index `items_session_turn`.
 */
import type { ItemFilter } from '../../domain/filter.js';
import { type SessionTurn, WRITE_ORDER, WRITE_ORDER_KINDS } from '../store.js';
import { compileFilter } from './rows.js';
import type { StoreCore } from './store-core.js';

/** Index DDL (migration 4): the index expressions must match the query's text exactly. */
export const SESSION_TURN_INDEX_SQL = `
CREATE INDEX IF NOT EXISTS items_session_turn
  ON items(space, json_extract(source, '$.session'), json_extract(source, '$.turn'))
  WHERE json_extract(source, '$.session') IS NOT NULL;
`;

/**
 * Positions of `ids` that are conversation turns, plus every item passing `filter` within
 * `window` turns of one of them in the same session. Seeds need not pass the filter (they come
 * from recall's candidates, which did); neighbours must, so hidden items never become context.
 */
export function sessionNeighbors(
  core: StoreCore,
  filter: ItemFilter,
  ids: readonly string[],
  window: number,
): SessionTurn[] {
  if (ids.length === 0 || !(window >= 0)) return [];
  const where = compileFilter(filter);
  // Seeds' windows are merged into disjoint turn ranges first (a window function over each
  // session's seeds), so each neighbour row is read once and needs no DISTINCT: on a LoCoMo
  // conversation the seeds' windows overlap about three times over (2.4 -> 1.6 ms a recall).
  // CROSS JOIN keeps the ranges outside: each is one probe of the session-turn index.
  const sql = `
WITH seeds AS (
  SELECT DISTINCT json_extract(source, '$.session') AS session, json_extract(source, '$.turn') AS turn
  FROM items
  WHERE id IN (SELECT value FROM json_each(@ids)) AND +space = @f_space
    AND json_type(source, '$.session') = 'text' AND json_type(source, '$.turn') = 'integer'
), starts AS (
  SELECT session, turn,
    coalesce(turn - lag(turn) OVER (PARTITION BY session ORDER BY turn) > 2 * @window + 1, 1) AS starts
  FROM seeds
), runs AS (
  SELECT session, turn, sum(starts) OVER (PARTITION BY session ORDER BY turn) AS run FROM starts
), ranges AS (
  SELECT session, min(turn) - @window AS lo, max(turn) + @window AS hi
  FROM runs GROUP BY session, run
)
SELECT i.id AS id, ranges.session AS session, json_extract(i.source, '$.turn') AS turn,
  i.body AS body
FROM ranges CROSS JOIN items i
  ON i.space = @f_space
  AND json_extract(i.source, '$.session') = ranges.session
  AND json_extract(i.source, '$.turn') BETWEEN ranges.lo AND ranges.hi
WHERE json_extract(i.source, '$.session') IS NOT NULL
  AND json_type(i.source, '$.turn') = 'integer'
  AND ${where.sql}`;
  // Compiled once per filter shape (the filter's values are bound): compiling took as long as
  // running it on a LoCoMo conversation.
  const rows = core
    .prepared(sql)
    .all({ ...where.params, ids: JSON.stringify(ids), window: Math.floor(window) }) as {
    id: string;
    session: string;
    turn: number;
    body: string;
  }[];
  return rows;
}

/**
 * The session neighbours of each of `ids` apart (what `sessionNeighbors` returns for it alone):
 * one read of every seed's neighbours, then each seed's own found by position. Seeds that are no
 * turn have no entry.
 */
export function sessionNeighborsBySeed(
  core: StoreCore,
  filter: ItemFilter,
  ids: readonly string[],
  window: number,
): Map<string, SessionTurn[]> {
  const out = new Map<string, SessionTurn[]>();
  const rows = sessionNeighbors(core, filter, ids, window);
  if (rows.length === 0) return out;
  const seeds = core
    .prepared(
      `SELECT id, json_extract(source, '$.session') AS session, json_extract(source, '$.turn') AS turn
       FROM items WHERE id IN (SELECT value FROM json_each(?)) AND +space = ?
         AND json_type(source, '$.session') = 'text' AND json_type(source, '$.turn') = 'integer'`,
    )
    .all(JSON.stringify(ids), filter.space) as { id: string; session: string; turn: number }[];
  const bySession = new Map<string, SessionTurn[]>();
  for (const row of rows) {
    const list = bySession.get(row.session);
    if (list) list.push(row);
    else bySession.set(row.session, [row]);
  }
  for (const seed of seeds)
    out.set(
      seed.id,
      (bySession.get(seed.session) ?? []).filter((t) => Math.abs(t.turn - seed.turn) <= window),
    );
  return out;
}

/**
 * Write neighbours (Store.writeNeighbors): for each of `ids` without a session and of a kind of
 * WRITE_ORDER_KINDS, itself and the alike items of its space within `window` rowids of it, created
 * at most `gapMs` apart, passing `filter`; the rowid is the turn. Neighbours come through the primary key: seeds first
 * (CROSS JOIN), and no index of the space, whose scan would read every item of it per seed.
 */
export function writeNeighbors(
  core: StoreCore,
  filter: ItemFilter,
  ids: readonly string[],
  window: number,
  gapMs: number,
): SessionTurn[] {
  if (ids.length === 0 || !(window >= 1) || !(gapMs >= 0)) return [];
  const where = compileFilter(filter);
  const sql = `
WITH seeds AS (
  SELECT pk AS seed_pk, created_at AS seed_at FROM items
  WHERE id IN (SELECT value FROM json_each(@ids)) AND +space = @f_space
    AND json_extract(source, '$.session') IS NULL
    AND kind IN (SELECT value FROM json_each(@kinds))
)
SELECT DISTINCT i.id AS id, i.pk AS turn, i.body AS body, i.created_at AS at
FROM seeds CROSS JOIN items AS i NOT INDEXED
  ON i.pk BETWEEN seeds.seed_pk - @window AND seeds.seed_pk + @window
  AND i.space = @f_space
  AND json_extract(i.source, '$.session') IS NULL
  AND i.kind IN (SELECT value FROM json_each(@kinds))
  AND abs(i.created_at - seeds.seed_at) <= @gap
WHERE ${where.sql}
ORDER BY i.pk`;
  const rows = core.prepared(sql).all({
    ...where.params,
    ids: JSON.stringify(ids),
    window: Math.floor(window),
    gap: gapMs,
    kinds: JSON.stringify(WRITE_ORDER_KINDS),
  }) as { id: string; turn: number; body: string; at: number }[];
  return rows.map((r) => ({ ...r, session: WRITE_ORDER }));
}

/**
 * The write neighbours of each of `ids` apart (what `writeNeighbors` returns for it alone): one
 * read of every seed's neighbours, then each seed's own found by key and time. Seeds with a
 * session or of another kind have no entry.
 */
export function writeNeighborsBySeed(
  core: StoreCore,
  filter: ItemFilter,
  ids: readonly string[],
  window: number,
  gapMs: number,
): Map<string, SessionTurn[]> {
  const out = new Map<string, SessionTurn[]>();
  const rows = writeNeighbors(core, filter, ids, window, gapMs);
  if (rows.length === 0) return out;
  const seeds = core
    .prepared(
      `SELECT id, pk, created_at AS at FROM items
       WHERE id IN (SELECT value FROM json_each(?)) AND +space = ?
         AND json_extract(source, '$.session') IS NULL
         AND kind IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(ids), filter.space, JSON.stringify(WRITE_ORDER_KINDS)) as {
    id: string;
    pk: number;
    at: number;
  }[];
  for (const seed of seeds)
    out.set(
      seed.id,
      rows.filter(
        (t) => Math.abs(t.turn - seed.pk) <= window && Math.abs(t.at! - seed.at) <= gapMs,
      ),
    );
  return out;
}

/** The highest turn of a session in a space (through `items_session_turn`), or null. */
export function lastTurn(core: StoreCore, space: string, session: string): number | null {
  const row = core
    .prepared(
      `SELECT max(json_extract(source, '$.turn')) AS turn FROM items
       WHERE space = ? AND json_extract(source, '$.session') = ?
         AND json_type(source, '$.turn') = 'integer'`,
    )
    .get(space, session) as { turn: number | null };
  return row.turn;
}
