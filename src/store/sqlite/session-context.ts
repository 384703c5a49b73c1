/**
 * Session neighbours for recall's session context: items recorded as turns of one conversation
 * (`source.session` + `source.turn`) found through the expression index `items_session_turn`.
 */
import type { ItemFilter } from '../../domain/filter.js';
import { CONVERSATION_KINDS, type SessionTurn, WRITE_ORDER } from '../store.js';
import { compileFilter } from './rows.js';
import type { StoreCore } from './store-core.js';

/** The kinds of CONVERSATION_KINDS as the statements bind them. */
const KINDS_JSON = JSON.stringify(CONVERSATION_KINDS);

/** Index DDL (migration 4): the index expressions must match the query's text exactly. */
export const SESSION_TURN_INDEX_SQL = `
CREATE INDEX IF NOT EXISTS items_session_turn
  ON items(space, json_extract(source, '$.session'), json_extract(source, '$.turn'))
  WHERE json_extract(source, '$.session') IS NOT NULL;
`;

/**
 * The neighbour query: seeds' windows merged into disjoint turn ranges first (a window function
 * over each session's seeds), so each neighbour row is read once and needs no DISTINCT (on a
 * LoCoMo conversation the seeds' windows overlap about three times over: 2.4 -> 1.6 ms a recall).
 * CROSS JOIN keeps the ranges outside: each is one probe of the session-turn index. With
 * `seeds`, the seeds' own positions follow, marked `seed = 1` (the neighbours `seed = 0`).
 */
function neighbourSql(where: string, seeds: boolean): string {
  return `
WITH seedrows AS (
  SELECT id, json_extract(source, '$.session') AS session, json_extract(source, '$.turn') AS turn
  FROM items
  WHERE id IN (SELECT value FROM json_each(@ids)) AND +space = @f_space
    AND json_type(source, '$.session') = 'text' AND json_type(source, '$.turn') = 'integer'
    AND kind IN (SELECT value FROM json_each(@kinds))
), seeds AS (
  SELECT DISTINCT session, turn FROM seedrows
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
SELECT ${seeds ? '0 AS seed, ' : ''}i.id AS id, ranges.session AS session,
  json_extract(i.source, '$.turn') AS turn, i.body AS body
FROM ranges CROSS JOIN items i
  ON i.space = @f_space
  AND json_extract(i.source, '$.session') = ranges.session
  AND json_extract(i.source, '$.turn') BETWEEN ranges.lo AND ranges.hi
WHERE json_extract(i.source, '$.session') IS NOT NULL
  AND json_type(i.source, '$.turn') = 'integer'
  AND i.kind IN (SELECT value FROM json_each(@kinds))
  AND ${where}${seeds ? '\nUNION ALL SELECT 1, id, session, turn, NULL FROM seedrows' : ''}`;
}

/**
 * Whether the space holds any conversation turn: one probe of the partial index `items_session_turn`
 * (microseconds). A store written without sessions skips the neighbour query, which otherwise
 * reads every seed's row to find it is no turn (a millisecond a recall at 100,000 memories).
 */
function holdsTurns(core: StoreCore, space: string): boolean {
  const row = core
    .prepared(
      "SELECT EXISTS (SELECT 1 FROM items WHERE space = ? AND json_extract(source, '$.session') IS NOT NULL) AS held",
    )
    .get(space) as { held: number };
  return row.held === 1;
}

/**
 * Positions of `ids` that are conversation turns (of CONVERSATION_KINDS), plus every such turn
 * passing `filter` within `window` turns of one of them in the same session. Seeds need not pass
 * the filter (they come from recall's candidates, which did); neighbours must, so hidden items
 * never become context.
 */
export function sessionNeighbors(
  core: StoreCore,
  filter: ItemFilter,
  ids: readonly string[],
  window: number,
): SessionTurn[] {
  if (ids.length === 0 || !(window >= 0) || !holdsTurns(core, filter.space)) return [];
  const where = compileFilter(filter);
  // Compiled once per filter shape (the filter's values are bound): compiling took as long as
  // running it on a LoCoMo conversation.
  return core.prepared(neighbourSql(where.sql, false)).all({
    ...where.params,
    ids: JSON.stringify(ids),
    window: Math.floor(window),
    kinds: KINDS_JSON,
  }) as SessionTurn[];
}

/**
 * The session neighbours of each of `ids` apart (what `sessionNeighbors` returns for it alone),
 * from the same one statement, which also gives the seeds' positions. Seeds that are no turn
 * have no entry.
 */
export function sessionNeighborsBySeed(
  core: StoreCore,
  filter: ItemFilter,
  ids: readonly string[],
  window: number,
): Map<string, SessionTurn[]> {
  const out = new Map<string, SessionTurn[]>();
  if (ids.length === 0 || !(window >= 0) || !holdsTurns(core, filter.space)) return out;
  const where = compileFilter(filter);
  const rows = core.prepared(neighbourSql(where.sql, true)).all({
    ...where.params,
    ids: JSON.stringify(ids),
    window: Math.floor(window),
    kinds: KINDS_JSON,
  }) as (SessionTurn & {
    seed: number;
  })[];
  const bySession = new Map<string, SessionTurn[]>();
  const seeds: SessionTurn[] = [];
  for (const { seed, ...turn } of rows) {
    if (seed === 1) seeds.push(turn);
    else {
      const list = bySession.get(turn.session);
      if (list) list.push(turn);
      else bySession.set(turn.session, [turn]);
    }
  }
  for (const list of bySession.values()) list.sort((a, b) => a.turn - b.turn);
  for (const seed of seeds)
    out.set(
      seed.id,
      within(bySession.get(seed.session) ?? [], seed.turn - window, seed.turn + window),
    );
  return out;
}

/** The turns of a list sorted by turn that lie in [lo, hi]. */
function within(sorted: readonly SessionTurn[], lo: number, hi: number): SessionTurn[] {
  let a = 0;
  let b = sorted.length;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (sorted[mid]!.turn < lo) a = mid + 1;
    else b = mid;
  }
  const out: SessionTurn[] = [];
  for (let i = a; i < sorted.length && sorted[i]!.turn <= hi; i++) out.push(sorted[i]!);
  return out;
}

/**
 * The write-neighbour query. Neighbours come through the primary key: seeds first (CROSS JOIN),
 * and no index of the space, whose scan would read every item of it per seed. With `perSeed`,
 * one row per seed and neighbour, named by `seed` (no DISTINCT).
 */
function writeSql(where: string, perSeed: boolean): string {
  return `
WITH seeds AS (
  SELECT id AS seed_id, pk AS seed_pk, created_at AS seed_at FROM items
  WHERE id IN (SELECT value FROM json_each(@ids)) AND +space = @f_space
    AND json_extract(source, '$.session') IS NULL
    AND kind IN (SELECT value FROM json_each(@kinds))
)
SELECT ${perSeed ? 'seeds.seed_id AS seed,' : 'DISTINCT'} i.id AS id, i.pk AS turn, i.body AS body,
  i.created_at AS at
FROM seeds CROSS JOIN items AS i NOT INDEXED
  ON i.pk BETWEEN seeds.seed_pk - @window AND seeds.seed_pk + @window
  AND i.space = @f_space
  AND json_extract(i.source, '$.session') IS NULL
  AND i.kind IN (SELECT value FROM json_each(@kinds))
  AND abs(i.created_at - seeds.seed_at) <= @gap
WHERE ${where}
ORDER BY i.pk`;
}

/**
 * The write-neighbour query's rows, each given to `visit` as a turn of the write order (with the
 * seed it neighbours when `perSeed`). Rows are read as arrays (raw mode): at 100,000 memories a
 * recall reads about 1,500 of them, and the driver's row objects made much of its garbage.
 */
function visitWriteRows(
  core: StoreCore,
  filter: ItemFilter,
  ids: readonly string[],
  window: number,
  gapMs: number,
  perSeed: boolean,
  visit: (turn: SessionTurn, seed: string) => void,
): void {
  const where = compileFilter(filter);
  const rows = core
    .prepared(writeSql(where.sql, perSeed))
    .raw(true)
    .all({
      ...where.params,
      ids: JSON.stringify(ids),
      window: Math.floor(window),
      gap: gapMs,
      kinds: KINDS_JSON,
    }) as unknown[][];
  // Columns: [seed,] id, pk (the turn), body, created_at.
  const at = perSeed ? 1 : 0;
  for (const r of rows) {
    const turn: SessionTurn = {
      id: r[at] as string,
      turn: r[at + 1] as number,
      body: r[at + 2] as string,
      at: r[at + 3] as number,
      session: WRITE_ORDER,
    };
    visit(turn, perSeed ? (r[0] as string) : '');
  }
}

/**
 * Write neighbours (Store.writeNeighbors): for each of `ids` without a session and of a kind of
 * CONVERSATION_KINDS, itself and the alike items of its space within `window` rowids of it, created
 * at most `gapMs` apart, passing `filter`; the rowid is the turn.
 */
export function writeNeighbors(
  core: StoreCore,
  filter: ItemFilter,
  ids: readonly string[],
  window: number,
  gapMs: number,
): SessionTurn[] {
  const out: SessionTurn[] = [];
  if (ids.length === 0 || !(window >= 1) || !(gapMs >= 0)) return out;
  visitWriteRows(core, filter, ids, window, gapMs, false, (turn) => out.push(turn));
  return out;
}

/**
 * The write neighbours of each of `ids` apart (what `writeNeighbors` returns for it alone), from
 * one statement. Seeds with a session or of another kind have no entry.
 */
export function writeNeighborsBySeed(
  core: StoreCore,
  filter: ItemFilter,
  ids: readonly string[],
  window: number,
  gapMs: number,
): Map<string, SessionTurn[]> {
  const out = new Map<string, SessionTurn[]>();
  if (ids.length === 0 || !(window >= 1) || !(gapMs >= 0)) return out;
  visitWriteRows(core, filter, ids, window, gapMs, true, (turn, seed) => {
    const list = out.get(seed);
    if (list) list.push(turn);
    else out.set(seed, [turn]);
  });
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
