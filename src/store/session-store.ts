/**
 * The persistence of sessions (§1.4), one implementation per backend: past conversations and
 * their turns, indexed for full-text search turn by turn, apart from memory items (a session never
 * becomes an item, and neither search reaches the other's rows), and the audit rows purges leave.
 */
import type {
  SessionPurgeRecord,
  SessionPutOutcome,
  SessionRecord,
  SessionSummaryRecord,
  TurnRole,
} from '../domain/sessions.js';

/** A page of session summaries, newest first (by started_at, then id). */
export interface SessionRecordPage {
  sessions: SessionSummaryRecord[];
  next_cursor: string | null;
}

/** One turn found by a search, with its session (times in epoch milliseconds). */
export interface SessionHitRecord {
  session_id: string;
  turn_index: number;
  role: TurnRole;
  text: string;
  snippet: string | null;
  score: number;
  session: { id: string; agent: string | null; title: string | null; started_at: number };
}

/** A record of the sessions part of an export: a session, or the audit row of a purged one. */
export type SessionExportRecord =
  | { kind: 'session'; value: SessionRecord }
  | { kind: 'session_purge'; value: SessionPurgeRecord };

/** What importing one exported record did. */
export type SessionImportOutcome = 'imported' | 'exists' | 'purged';

/** Sessions and their purge audit rows in one store. */
export interface SessionStore {
  /**
   * Stores sessions in one transaction. A session whose space and id exist already is left as it
   * is (`exists`); one whose id was purged in that space is not stored again (`purged`).
   */
  putSessions(records: readonly SessionRecord[]): Promise<SessionPutOutcome[]>;
  /** One session with its turns in order, or undefined. */
  getSession(space: string, id: string): Promise<SessionRecord | undefined>;
  /** Session summaries of a space, newest first; `cursor` continues a previous page. */
  listSessions(
    space: string,
    options: { agent?: string; limit: number; cursor?: string },
  ): Promise<SessionRecordPage>;
  /**
   * The turns of a space's sessions that match any of the plain query terms, best first by the
   * backend's full-text ranking (FTS5 BM25 on SQLite, ts_rank with IDF on PostgreSQL).
   */
  searchSessions(
    space: string,
    terms: readonly string[],
    options: { agent?: string; limit: number },
  ): Promise<SessionHitRecord[]>;
  /**
   * Deletes a session, its turns and their index entries for good and leaves an audit row
   * (NOT_FOUND when the space holds no such session).
   */
  purgeSession(
    space: string,
    id: string,
    audit: { actor: string | null; reason: string | null; at: number },
  ): Promise<void>;
  /** Sessions, then purge audit rows, of a space (or all), in id order. */
  exportSessions(space: string | null): AsyncIterable<SessionExportRecord>;
  /**
   * Imports exported records in one transaction, never deleting anything: a session is `imported`
   * (its created_at kept), `exists` or `purged` as putSessions decides; an audit row is `imported`
   * or `exists`.
   */
  importSessions(records: readonly SessionExportRecord[]): Promise<SessionImportOutcome[]>;
}
