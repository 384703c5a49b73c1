/**
 * Sessions on SQLite (§1.4): a session row and one row per turn, each turn indexed by the FTS5
 * table `session_turns_fts` (triggers keep it in step, reading the segmented text beside a turn
 * in an unspaced script: keyword-index.ts), searched with BM25. Writes run in the store's
 * immediate transactions; export pages through a page reader, so a snapshot's connection reads
 * the same way the store's own does.
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
import type { SqliteDatabase } from './database.js';
import type { PageReader } from './lifecycle-transfer.js';
import { scrub } from './purge.js';
import type { StoreCore } from './store-core.js';

/** Rows read per page of an export. */
const PAGE = 200;

/** A sessions row as SQLite returns it. */
interface SessionRow {
  pk: number;
  space: string;
  id: string;
  agent: string | null;
  title: string | null;
  started_at: number;
  ended_at: number | null;
  source: string | null;
  turn_count: number;
  created_at: number;
}

interface TurnRow {
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
    source: row.source === null ? null : (JSON.parse(row.source) as SessionSource),
    created_at: row.created_at,
    turn_count: row.turn_count,
  };
}

function turnsOf(db: SqliteDatabase, pk: number): TurnRecord[] {
  const rows = db
    .prepare('SELECT turn, role, text, at FROM session_turns WHERE session_pk = ? ORDER BY turn')
    .all(pk) as TurnRow[];
  return rows.map((t) => ({ index: t.turn, role: t.role as TurnRole, text: t.text, at: t.at }));
}

function sessionOf(db: SqliteDatabase, row: SessionRow): SessionRecord {
  const { turn_count: _n, ...summary } = summaryOf(row);
  return { ...summary, turns: turnsOf(db, row.pk) };
}

/** Inserts one session with its turns (inside the caller's transaction). */
function insertSession(db: SqliteDatabase, r: SessionRecord): SessionPutOutcome {
  const purged = db
    .prepare('SELECT 1 FROM session_purges WHERE space = ? AND session_id = ?')
    .get(r.space, r.id);
  if (purged) return 'purged';
  const inserted = db
    .prepare(
      `INSERT INTO sessions (space, id, agent, title, started_at, ended_at, source, turn_count, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (space, id) DO NOTHING`,
    )
    .run(
      r.space,
      r.id,
      r.agent,
      r.title,
      r.started_at,
      r.ended_at,
      r.source === null ? null : JSON.stringify(r.source),
      r.turns.length,
      r.created_at,
    );
  if (inserted.changes === 0) return 'exists';
  const turn = db.prepare(
    'INSERT INTO session_turns (session_pk, turn, role, text, at, seg_text) VALUES (?, ?, ?, ?, ?, ?)',
  );
  for (const t of r.turns)
    turn.run(inserted.lastInsertRowid, t.index, t.role, t.text, t.at, indexText(t.text));
  return 'created';
}

function insertPurge(db: SqliteDatabase, p: SessionPurgeRecord): boolean {
  return (
    db
      .prepare(
        'INSERT INTO session_purges (space, session_id, actor, reason, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      )
      .run(p.space, p.id, p.actor, p.reason, p.at).changes > 0
  );
}

/** A term as an FTS5 string: plain text, never query syntax (FTS5 reads NUL as the end). */
function quote(term: string): string {
  return `"${term.replaceAll('\u0000', ' ').replaceAll('"', '""')}"`;
}

/** Streams sessions, then purge audit rows, of a space (or all) in (space, id) order. */
export async function* exportSessionRows(
  read: PageReader,
  space: string | null,
): AsyncIterable<SessionExportRecord> {
  const only = space === null ? '' : 'AND space = @space';
  let after = { s: '', i: '' };
  for (;;) {
    const page = read((db) =>
      (
        db
          .prepare(
            `SELECT * FROM sessions WHERE (space, id) > (@s, @i) ${only} ORDER BY space, id LIMIT ${PAGE}`,
          )
          .all({ ...after, space }) as SessionRow[]
      ).map((row) => sessionOf(db, row)),
    );
    for (const value of page) yield { kind: 'session', value };
    if (page.length < PAGE) break;
    const last = page[page.length - 1]!;
    after = { s: last.space, i: last.id };
  }
  after = { s: '', i: '' };
  for (;;) {
    const rows = read(
      (db) =>
        db
          .prepare(
            `SELECT space, session_id AS id, actor, reason, at FROM session_purges WHERE (space, session_id) > (@s, @i) ${only} ORDER BY space, session_id LIMIT ${PAGE}`,
          )
          .all({ ...after, space }) as SessionPurgeRecord[],
    );
    for (const value of rows) yield { kind: 'session_purge', value: { ...value } };
    if (rows.length < PAGE) return;
    const last = rows[rows.length - 1]!;
    after = { s: last.space, i: last.id };
  }
}

/** The SQLite session store, over the store's connection and write queue. */
export class SqliteSessionStore implements SessionStore {
  constructor(private readonly core: StoreCore) {}

  private get db(): SqliteDatabase {
    return this.core.db;
  }

  putSessions(records: readonly SessionRecord[]): Promise<SessionPutOutcome[]> {
    if (records.length === 0) return Promise.resolve([]);
    return this.core.write(() => records.map((r) => insertSession(this.db, r)));
  }

  async getSession(space: string, id: string): Promise<SessionRecord | undefined> {
    return this.core.read(() => {
      const row = this.db
        .prepare('SELECT * FROM sessions WHERE space = ? AND id = ?')
        .get(space, id) as SessionRow | undefined;
      return row && sessionOf(this.db, row);
    });
  }

  async listSessions(
    space: string,
    options: { agent?: string; limit: number; cursor?: string },
  ): Promise<SessionRecordPage> {
    const [at, id] = options.cursor === undefined ? [] : decodeCursor(options.cursor);
    const rows = this.core.read(
      () =>
        this.db
          .prepare(
            `SELECT * FROM sessions WHERE space = @space
${options.agent === undefined ? '' : 'AND agent = @agent'}
${at === undefined ? '' : 'AND (started_at, id) < (@at, @id)'}
ORDER BY started_at DESC, id DESC LIMIT @limit`,
          )
          .all({ space, agent: options.agent, at, id, limit: options.limit + 1 }) as SessionRow[],
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
    if (terms.length === 0 || options.limit <= 0) return [];
    const match = [...new Set(terms)].map(quote).join(' OR ');
    // CROSS JOIN keeps the full-text index outermost, as the items' keyword search does.
    const rows = this.core.read(
      () =>
        this.db
          .prepare(
            `SELECT t.turn, t.role, t.text, s.id, s.agent, s.title, s.started_at,
  bm25(session_turns_fts) AS rank,
  snippet(session_turns_fts, 0, '**', '**', '…', 24) AS snippet
FROM session_turns_fts
CROSS JOIN session_turns t ON t.pk = session_turns_fts.rowid
CROSS JOIN sessions s ON s.pk = t.session_pk
WHERE session_turns_fts MATCH @match AND s.space = @space
${options.agent === undefined ? '' : 'AND s.agent = @agent'}
ORDER BY rank, t.pk LIMIT @limit`,
          )
          .all({ match, space, agent: options.agent, limit: options.limit }) as (TurnRow &
          Pick<SessionRow, 'id' | 'agent' | 'title' | 'started_at'> & {
            rank: number;
            snippet: string | null;
          })[],
    );
    return rows.map((r) => ({
      session_id: r.id,
      turn_index: r.turn,
      role: r.role as TurnRole,
      text: r.text,
      snippet: withoutStems(r.snippet),
      score: -r.rank,
      session: { id: r.id, agent: r.agent, title: r.title, started_at: r.started_at },
    }));
  }

  async purgeSession(
    space: string,
    id: string,
    audit: { actor: string | null; reason: string | null; at: number },
  ): Promise<void> {
    await this.core.write(() => {
      const row = this.db
        .prepare('SELECT pk FROM sessions WHERE space = ? AND id = ?')
        .get(space, id) as { pk: number } | undefined;
      if (!row) throw notFound('session', id);
      this.db.prepare('DELETE FROM session_turns WHERE session_pk = ?').run(row.pk);
      this.db.prepare('DELETE FROM sessions WHERE pk = ?').run(row.pk);
      insertPurge(this.db, { id, space, ...audit });
    });
    scrub(this.core);
  }

  exportSessions(space: string | null): AsyncIterable<SessionExportRecord> {
    return exportSessionRows((fn) => this.core.read(() => fn(this.db)), space);
  }

  importSessions(records: readonly SessionExportRecord[]): Promise<SessionImportOutcome[]> {
    if (records.length === 0) return Promise.resolve([]);
    return this.core.write(() =>
      records.map((r): SessionImportOutcome => {
        if (r.kind === 'session_purge')
          return insertPurge(this.db, r.value) ? 'imported' : 'exists';
        const outcome = insertSession(this.db, r.value);
        return outcome === 'created' ? 'imported' : outcome;
      }),
    );
  }
}
