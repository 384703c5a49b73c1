/**
 * Sessions on PostgreSQL (§1.4): a session row and one row per turn, each turn with a generated
 * `english` tsvector under a GIN index (of its segmented text when it is in an unspaced script:
 * keyword-index.ts), ranked as the items' keyword channel ranks (keyword.ts: IDF-weighted
 * ts_rank), with a ts_headline snippet of the indexed text for the best turns only. Export pages
 * through any Queryable, so a snapshot's transaction reads the same way the pool does.
 */
import { notFound } from '../../domain/errors.js';
import { withoutStems } from '../../domain/inflection.js';
import { indexText } from '../../domain/segment.js';
import type {
  SessionPurgeRecord,
  SessionPutOutcome,
  SessionRecord,
  SessionSource,
  SessionSummaryRecord,
  TurnRecord,
  TurnRole,
} from '../../domain/sessions.js';
import { decodeCursor, encodeCursor } from '../item-rows.js';
import type {
  SessionExportRecord,
  SessionHitRecord,
  SessionImportOutcome,
  SessionRecordPage,
  SessionStore,
} from '../session-store.js';
import type { PgDatabase, Queryable } from './database.js';
import { idf, termQuery } from './keyword.js';
import { assertStorable, Params } from './rows.js';

/** Rows read per page of an export. */
const PAGE = 200;

/** A sessions row as the driver returns it (int8 as numbers, json parsed). */
interface SessionRow {
  pk: number;
  space: string;
  id: string;
  agent: string | null;
  title: string | null;
  started_at: number;
  ended_at: number | null;
  source: SessionSource | null;
  turn_count: number;
  created_at: number;
}

interface TurnRow {
  session_pk: number;
  turn: number;
  role: string;
  text: string;
  at: number | null;
}

function summaryOf(row: SessionRow): SessionSummaryRecord {
  return {
    id: row.id,
    space: row.space,
    agent: row.agent,
    title: row.title,
    started_at: row.started_at,
    ended_at: row.ended_at,
    source: row.source,
    created_at: row.created_at,
    turn_count: row.turn_count,
  };
}

const turnOf = (t: TurnRow): TurnRecord => ({
  index: t.turn,
  role: t.role as TurnRole,
  text: t.text,
  at: t.at,
});

/** Full records of a page of session rows: their turns in one query. */
async function withTurns(q: Queryable, rows: readonly SessionRow[]): Promise<SessionRecord[]> {
  if (rows.length === 0) return [];
  const turns = await q.query<TurnRow>(
    'SELECT session_pk, turn, role, text, at FROM session_turns WHERE session_pk = ANY($1::int8[]) ORDER BY session_pk, turn',
    [rows.map((r) => r.pk)],
  );
  const of = new Map<number, TurnRecord[]>();
  for (const t of turns) {
    const list = of.get(t.session_pk) ?? [];
    list.push(turnOf(t));
    of.set(t.session_pk, list);
  }
  return rows.map((row) => {
    const { turn_count: _n, ...summary } = summaryOf(row);
    return { ...summary, turns: of.get(row.pk) ?? [] };
  });
}

/** Inserts one session with its turns (inside the caller's transaction). */
async function insertSession(tx: Queryable, r: SessionRecord): Promise<SessionPutOutcome> {
  const [purged] = await tx.query(
    'SELECT 1 FROM session_purges WHERE space = $1 AND session_id = $2',
    [r.space, r.id],
  );
  if (purged) return 'purged';
  const [row] = await tx.query<{ pk: number }>(
    `INSERT INTO sessions (space, id, agent, title, started_at, ended_at, source, turn_count, created_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (space, id) DO NOTHING RETURNING pk`,
    [
      r.space,
      r.id,
      r.agent,
      r.title,
      r.started_at,
      r.ended_at,
      r.source === null ? null : JSON.stringify(r.source),
      r.turns.length,
      r.created_at,
    ],
  );
  if (!row) return 'exists';
  await tx.query(
    `INSERT INTO session_turns (session_pk, turn, role, text, at, seg_text)
SELECT $1, * FROM unnest($2::int4[], $3::text[], $4::text[], $5::int8[], $6::text[])`,
    [
      row.pk,
      r.turns.map((t) => t.index),
      r.turns.map((t) => t.role),
      r.turns.map((t) => t.text),
      r.turns.map((t) => t.at),
      r.turns.map((t) => indexText(t.text)),
    ],
  );
  return 'created';
}

async function insertPurge(tx: Queryable, p: SessionPurgeRecord): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO session_purges (space, session_id, actor, reason, at) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT DO NOTHING RETURNING 1`,
    [p.space, p.id, p.actor, p.reason, p.at],
  );
  return rows.length > 0;
}

/** Streams sessions, then purge audit rows, of a space (or all) in (space, id) order. */
export async function* exportSessionRows(
  q: Queryable,
  space: string | null,
): AsyncIterable<SessionExportRecord> {
  let after = ['', ''];
  for (;;) {
    const rows = await q.query<SessionRow>(
      `SELECT * FROM sessions WHERE (space, id) > ($1, $2) AND ($3::text IS NULL OR space = $3)
ORDER BY space, id LIMIT ${PAGE}`,
      [...after, space],
    );
    for (const value of await withTurns(q, rows)) yield { kind: 'session', value };
    if (rows.length < PAGE) break;
    after = [rows[rows.length - 1]!.space, rows[rows.length - 1]!.id];
  }
  after = ['', ''];
  for (;;) {
    const rows = await q.query<SessionPurgeRecord>(
      `SELECT space, session_id AS id, actor, reason, at FROM session_purges
WHERE (space, session_id) > ($1, $2) AND ($3::text IS NULL OR space = $3)
ORDER BY space, session_id LIMIT ${PAGE}`,
      [...after, space],
    );
    for (const value of rows) yield { kind: 'session_purge', value: { ...value } };
    if (rows.length < PAGE) return;
    after = [rows[rows.length - 1]!.space, rows[rows.length - 1]!.id];
  }
}

/**
 * The ranking SQL of a search (see the file header); `where` filters the sessions (alias s). Terms
 * rank with their Latin diacritics folded, as the index holds them (`termQuery`); the snippet
 * marks the words as they were typed, in the turn's own text.
 */
function searchSql(params: Params, terms: string[], where: string, limit: number): string {
  const list = params.add(terms, '::text[]');
  // Each term quoted: a phrase of one word, so no term is read as an operator.
  const any = params.add(terms.map((t) => `"${t.replaceAll('"', ' ')}"`).join(' or '));
  return `
WITH queries AS MATERIALIZED (
  SELECT DISTINCT ${termQuery('t')} AS q FROM unnest(${list}) AS t
), terms AS MATERIALIZED (
  SELECT q, (SELECT count(*) FROM session_turns x WHERE x.search @@ queries.q) AS df
  FROM queries WHERE numnode(q) > 0
), total AS MATERIALIZED (
  SELECT CASE WHEN c.reltuples > 0 THEN c.reltuples::float8
    ELSE (SELECT count(*)::float8 FROM session_turns) END AS n
  FROM pg_class c WHERE c.oid = 'session_turns'::regclass
), ranked AS (
  SELECT t.session_pk, t.turn,
    sum(${idf('total.n', 'terms.df')} * ts_rank(t.search, terms.q, 1)) AS score
  FROM terms JOIN session_turns t ON t.search @@ terms.q CROSS JOIN total
  JOIN sessions s ON s.pk = t.session_pk
  WHERE ${where}
  GROUP BY t.session_pk, t.turn
  ORDER BY score DESC, t.session_pk, t.turn
  LIMIT ${params.add(limit)}
)
SELECT r.score, t.turn, t.role, t.text, s.id, s.agent, s.title, s.started_at,
  ts_headline('english', coalesce(t.seg_text, t.text), websearch_to_tsquery('english', ${any}),
    'StartSel=**, StopSel=**, MaxWords=35, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "') AS snippet
FROM ranked r JOIN session_turns t ON t.session_pk = r.session_pk AND t.turn = r.turn
JOIN sessions s ON s.pk = r.session_pk
ORDER BY r.score DESC, r.session_pk, r.turn`;
}

/** The PostgreSQL session store. */
export class PgSessionStore implements SessionStore {
  constructor(private readonly db: PgDatabase) {}

  putSessions(records: readonly SessionRecord[]): Promise<SessionPutOutcome[]> {
    if (records.length === 0) return Promise.resolve([]);
    records.forEach((r, i) => assertStorable(r, `sessions[${i}]`));
    return this.db.transaction(async (tx) => {
      const out: SessionPutOutcome[] = [];
      for (const r of records) out.push(await insertSession(tx, r));
      return out;
    });
  }

  async getSession(space: string, id: string): Promise<SessionRecord | undefined> {
    const rows = await this.db.query<SessionRow>(
      'SELECT * FROM sessions WHERE space = $1 AND id = $2',
      [space, id],
    );
    return (await withTurns(this.db, rows))[0];
  }

  async listSessions(
    space: string,
    options: { agent?: string; limit: number; cursor?: string },
  ): Promise<SessionRecordPage> {
    const params = new Params();
    const where = [`space = ${params.add(space)}`];
    if (options.agent !== undefined) where.push(`agent = ${params.add(options.agent)}`);
    if (options.cursor !== undefined) {
      const [at, id] = decodeCursor(options.cursor);
      where.push(`(started_at, id) < (${params.add(at)}::int8, ${params.add(id)})`);
    }
    const rows = await this.db.query<SessionRow>(
      `SELECT * FROM sessions WHERE ${where.join(' AND ')}
ORDER BY started_at DESC, id DESC LIMIT ${params.add(options.limit + 1)}`,
      params.values,
    );
    const page = rows.slice(0, options.limit);
    const last = page[page.length - 1];
    const more = rows.length > options.limit && last;
    return {
      sessions: page.map(summaryOf),
      next_cursor: more ? encodeCursor(last.started_at, last.id) : null,
    };
  }

  async searchSessions(
    space: string,
    terms: readonly string[],
    options: { agent?: string; limit: number },
  ): Promise<SessionHitRecord[]> {
    // PostgreSQL text cannot hold NUL; a NUL only ever separates words.
    const clean = [...new Set(terms.map((t) => t.replaceAll('\u0000', ' ').trim()))].filter(
      Boolean,
    );
    if (clean.length === 0 || options.limit <= 0) return [];
    const params = new Params();
    const where = [`s.space = ${params.add(space)}`];
    if (options.agent !== undefined) where.push(`s.agent = ${params.add(options.agent)}`);
    const sql = searchSql(params, clean, where.join(' AND '), options.limit);
    const rows = await this.db.query<
      Omit<TurnRow, 'session_pk' | 'at'> &
        Pick<SessionRow, 'id' | 'agent' | 'title' | 'started_at'> & {
          score: number;
          snippet: string | null;
        }
    >(sql, params.values);
    return rows.map((r) => ({
      session_id: r.id,
      turn_index: r.turn,
      role: r.role as TurnRole,
      text: r.text,
      snippet: withoutStems(r.snippet),
      score: Number(r.score),
      session: { id: r.id, agent: r.agent, title: r.title, started_at: r.started_at },
    }));
  }

  async purgeSession(
    space: string,
    id: string,
    audit: { actor: string | null; reason: string | null; at: number },
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx.query<{ pk: number }>(
        'SELECT pk FROM sessions WHERE space = $1 AND id = $2 FOR UPDATE',
        [space, id],
      );
      if (!row) throw notFound('session', id);
      await tx.query('DELETE FROM session_turns WHERE session_pk = $1', [row.pk]);
      await tx.query('DELETE FROM sessions WHERE pk = $1', [row.pk]);
      await insertPurge(tx, { id, space, ...audit });
    });
  }

  exportSessions(space: string | null): AsyncIterable<SessionExportRecord> {
    return exportSessionRows(this.db, space);
  }

  importSessions(records: readonly SessionExportRecord[]): Promise<SessionImportOutcome[]> {
    if (records.length === 0) return Promise.resolve([]);
    records.forEach((r, i) => assertStorable(r.value, `records[${i}]`));
    return this.db.transaction(async (tx) => {
      const out: SessionImportOutcome[] = [];
      for (const r of records) {
        if (r.kind === 'session_purge') {
          out.push((await insertPurge(tx, r.value)) ? 'imported' : 'exists');
          continue;
        }
        const outcome = await insertSession(tx, r.value);
        out.push(outcome === 'created' ? 'imported' : outcome);
      }
      return out;
    });
  }
}
