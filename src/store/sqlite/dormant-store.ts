/**
 * The SQLite side of dormant recall (§9.5). Its two additive tables are created lazily with
 * CREATE TABLE IF NOT EXISTS on the first evaluation or review (no migration, no rewrite of the
 * items table). It works on its own connection to the store file with a short busy wait, so a
 * failed or blocked shadow write can never disturb ordinary recall's transactions, and a lock
 * held too long makes the evaluation fail open instead of waiting. The exact scan reads the
 * stored vectors directly (never the in-memory mirror or its HNSW index), in pages, yielding to
 * the event loop between pages so a concurrent recall waits at most one page.
 */
import Database from 'better-sqlite3';

import type { Kind } from '../../core/types.js';
import type {
  DormantEventRecord,
  DormantFeedback,
  DormantRecordRequest,
  DormantRetention,
  DormantScanHit,
  DormantScanRequest,
  DormantStateRecord,
  DormantStore,
} from '../../dormant/dormant-store.js';
import { BoundedHeap } from '../../dormant/heap.js';
import { checkFeedback } from '../../dormant/profile.js';
import { EngramError } from '../../errors/errors.js';
import { isBusyError, type SqliteDatabase, storeError } from './database.js';
import {
  cosineWith,
  DORMANT_SINCE_SQL,
  eventFromRow,
  insertEvent,
  isEligible,
  prune,
  readEvent,
  SCHEMA_SQL,
  unit,
  upsertState,
} from './dormant-rows.js';
import { compileFilter } from './rows.js';

/** How long a dormant write waits for another process's write lock before failing open. */
export const DORMANT_BUSY_MS = 250;
/** Rows read per page of the exact scan (one page blocks the event loop for about a millisecond). */
const SCAN_PAGE = 256;
const EXPORT_PAGE = 500;

/** What the dormant store borrows from the SQLite store. */
export interface SqliteDormantContext {
  /** The store's own connection (used for in-memory stores, which cannot be opened twice). */
  db: SqliteDatabase;
  path: string;
  assertOpen(): void;
}

/** A scan row in raw mode: pk, id, version, dormancy start, vector blob. */
type ScanRow = [pk: number, id: string, version: number, since: number, vector: Buffer];

interface CandidateRow {
  version: number;
  body_hash: string;
  status: string | null;
  kind: string;
  since: number;
  cooldown_until: number | null;
}

/** Dormant-recall persistence over SQLite. */
export class SqliteDormantStore implements DormantStore {
  private own: SqliteDatabase | undefined;
  private ready = false;

  constructor(private readonly ctx: SqliteDormantContext) {}

  /** The dormant connection: a second one to the file, opened on first use. */
  private get db(): SqliteDatabase {
    this.ctx.assertOpen();
    if (this.ctx.path === ':memory:') return this.ctx.db;
    if (!this.own) {
      const db = new Database(this.ctx.path, { timeout: DORMANT_BUSY_MS, fileMustExist: true });
      db.pragma(`busy_timeout = ${DORMANT_BUSY_MS}`);
      // As the store's own connection: in WAL mode a commit need not wait for the disk.
      db.pragma('synchronous = NORMAL');
      this.own = db;
    }
    return this.own;
  }

  /** Creates the two tables when missing (additive; the first evaluation or review does it). */
  private ensureSchema(): void {
    if (this.ready) return;
    const db = this.db;
    const present = db
      .prepare(
        "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('dormant_recall_events', 'dormant_recall_state')",
      )
      .get() as { n: number };
    if (present.n < 2) this.guard(() => db.transaction(() => db.exec(SCHEMA_SQL)).immediate());
    this.ready = true;
  }

  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (err instanceof EngramError) throw err;
      throw storeError(err, this.ctx.path);
    }
  }

  /** Runs a write transaction; null when the short lock wait runs out (the caller fails open). */
  private tryWrite<T>(fn: (db: SqliteDatabase) => T): T | null {
    this.ensureSchema();
    const db = this.db;
    try {
      return db.transaction(() => fn(db)).immediate();
    } catch (err) {
      if (isBusyError(err)) return null;
      if (err instanceof EngramError) throw err;
      throw storeError(err, this.ctx.path);
    }
  }

  private write<T>(fn: (db: SqliteDatabase) => T): T {
    const out = this.tryWrite(fn);
    if (out === null)
      throw new EngramError('STORE_BUSY', 'the store stayed busy; try again', { rule: 'busy' });
    return out;
  }

  async scan(request: DormantScanRequest): Promise<{ hits: DormantScanHit[]; scanned: number }> {
    const { eligibility } = request;
    if (eligibility.kinds.length === 0 || request.limit <= 0) return { hits: [], scanned: 0 };
    const where = compileFilter({
      ...request.filter,
      statuses: ['active'],
      kinds: eligibility.kinds,
    });
    // Before the first evaluation creates the state table there is no state to join.
    const state = this.tablesExist()
      ? 'dormant_recall_state'
      : '(SELECT NULL AS space, NULL AS item_id, NULL AS used_at, NULL AS cooldown_until)';
    const sql = `SELECT i.pk, i.id, i.version, ${DORMANT_SINCE_SQL} AS since, v.vector
FROM items i NOT INDEXED
CROSS JOIN vectors v ON v.item_pk = i.pk AND v.model = @d_model
LEFT JOIN ${state} s ON s.space = i.space AND s.item_id = i.id
WHERE i.pk > @d_after AND ${where.sql} AND v.vector IS NOT NULL
  AND i.id NOT IN (SELECT value FROM json_each(@d_exclude))
  AND (@d_before IS NULL OR ${DORMANT_SINCE_SQL} <= @d_before)
  AND (@d_now IS NULL OR s.cooldown_until IS NULL OR s.cooldown_until <= @d_now)
ORDER BY i.pk LIMIT ${SCAN_PAGE}`;
    // NOT INDEXED + CROSS JOIN: walk items in rowid order, so a page is a range read, never a sort.
    const statement = this.guard(() => this.db.prepare(sql).raw(true));
    const query = unit(request.vector);
    const heap = new BoundedHeap<{ version: number; since: number }>(request.limit);
    const params = {
      ...where.params,
      d_model: request.model,
      d_exclude: JSON.stringify(request.exclude),
      d_before: eligibility.dormantBefore,
      d_now: eligibility.now,
      d_after: 0,
    };
    let scanned = 0;
    for (;;) {
      // Yield before each page: a recall arriving meanwhile waits one page, not the whole scan.
      await (request.pause?.() ?? new Promise<void>((resolve) => setImmediate(resolve)));
      const rows = this.guard(() => statement.all(params) as ScanRow[]);
      for (const [, id, version, since, vector] of rows) {
        const cosine = cosineWith(query, vector);
        if (cosine === null) continue;
        scanned++;
        heap.push({ id, score: cosine, value: { version, since } });
      }
      if (rows.length < SCAN_PAGE) break;
      params.d_after = rows[rows.length - 1]![0];
    }
    const hits = heap.sorted().map((e) => ({
      id: e.id,
      cosine: e.score,
      version: e.value.version,
      dormant_since: e.value.since,
    }));
    return { hits, scanned };
  }

  async record(request: DormantRecordRequest): Promise<DormantEventRecord | null> {
    return this.tryWrite((db) => {
      const { eligibility } = request;
      const chosen = request.ranked.find((c) => this.stillSelectable(db, request, c));
      const event: DormantEventRecord = {
        ...request.event,
        outcome: chosen ? 'selected' : request.event.outcome === 'failed' ? 'failed' : 'none',
        candidate_id: chosen?.id ?? null,
        candidate_version: chosen?.version ?? null,
        raw_relevance: chosen?.raw_relevance ?? null,
        relevance_score: chosen?.relevance_score ?? null,
        bonus: chosen?.bonus ?? null,
        dormant_days: chosen?.dormant_days ?? null,
        overlap_terms: chosen?.overlap_terms ?? null,
        retrieved_at: chosen ? eligibility.now : null,
        shown_at: null,
        feedback: null,
        feedback_at: null,
      };
      insertEvent(db, event);
      if (chosen)
        upsertState(db, request.event.space, chosen.id, eligibility.now, {
          retrieved_at: eligibility.now,
          cooldown_until: request.cooldownUntil,
        });
      prune(db, request.event.space, request.retention, eligibility.kinds);
      return event;
    });
  }

  /** Re-checks, inside the serialising transaction, that a scored candidate may still be chosen. */
  private stillSelectable(
    db: SqliteDatabase,
    request: DormantRecordRequest,
    candidate: DormantRecordRequest['ranked'][number],
  ): boolean {
    const row = db
      .prepare(
        `SELECT i.version, i.body_hash, i.status, i.kind, ${DORMANT_SINCE_SQL} AS since, s.cooldown_until
FROM items i LEFT JOIN dormant_recall_state s ON s.space = i.space AND s.item_id = i.id
WHERE i.id = ? AND i.space = ?`,
      )
      .get(candidate.id, request.event.space) as CandidateRow | undefined;
    const { eligibility } = request;
    return (
      row !== undefined &&
      row.version === candidate.version &&
      row.body_hash === candidate.body_hash &&
      (row.status === null || row.status === 'active') &&
      eligibility.kinds.includes(row.kind as Kind) &&
      row.since <= eligibility.dormantBefore &&
      (row.cooldown_until === null || row.cooldown_until <= eligibility.now)
    );
  }

  async review(
    space: string,
    limit: number,
    retention: DormantRetention,
    kinds: readonly Kind[],
  ): Promise<DormantEventRecord[]> {
    // Pruning needs the write lock; when another process holds it, review still answers.
    await this.prune(space, retention, kinds);
    return this.guard(
      () =>
        this.db
          .prepare(
            'SELECT * FROM dormant_recall_events WHERE space = ? ORDER BY at DESC, id DESC LIMIT ?',
          )
          .all(space, limit) as DormantEventRecord[],
    ).map(eventFromRow);
  }

  async prune(
    space: string,
    retention: DormantRetention,
    kinds: readonly Kind[],
  ): Promise<boolean> {
    return this.tryWrite((db) => prune(db, space, retention, kinds)) !== null;
  }

  async event(space: string, id: string): Promise<DormantEventRecord | undefined> {
    this.ensureSchema();
    return this.guard(() => readEvent(this.db, space, id));
  }

  async state(space: string, itemId: string): Promise<DormantStateRecord | undefined> {
    this.ensureSchema();
    const row = this.guard(
      () =>
        this.db
          .prepare('SELECT * FROM dormant_recall_state WHERE space = ? AND item_id = ?')
          .get(space, itemId) as DormantStateRecord | undefined,
    );
    return row ? { ...row } : undefined;
  }

  async markShown(
    space: string,
    eventId: string,
    at: number,
    cooldownUntil: number,
    kinds: readonly Kind[],
  ): Promise<DormantEventRecord | undefined> {
    return this.write((db) => {
      const event = readEvent(db, space, eventId);
      if (!event) return undefined;
      if (event.shown_at === null)
        db.prepare('UPDATE dormant_recall_events SET shown_at = ? WHERE id = ?').run(at, eventId);
      if (event.candidate_id && isEligible(db, space, event.candidate_id, kinds))
        upsertState(db, space, event.candidate_id, at, {
          shown_at: at,
          cooldown_until: cooldownUntil,
        });
      return readEvent(db, space, eventId);
    });
  }

  async feedback(
    space: string,
    eventId: string,
    category: DormantFeedback,
    at: number,
    cooldownUntil: number,
    kinds: readonly Kind[],
  ): Promise<{ event: DormantEventRecord; changed: boolean } | undefined> {
    return this.write((db) => {
      const event = readEvent(db, space, eventId);
      if (!event) return undefined;
      if (!checkFeedback(event, category)) return { event, changed: false };
      db.prepare('UPDATE dormant_recall_events SET feedback = ?, feedback_at = ? WHERE id = ?').run(
        category,
        at,
        eventId,
      );
      const id = event.candidate_id!;
      if (isEligible(db, space, id, kinds))
        upsertState(db, space, id, at, {
          cooldown_until: cooldownUntil,
          ...(category === 'useful' ? { used_at: at } : {}),
        });
      return { event: readEvent(db, space, eventId)!, changed: true };
    });
  }

  async *exportEvents(space: string | null): AsyncIterable<DormantEventRecord> {
    yield* this.page<DormantEventRecord>('dormant_recall_events', 'id', space, eventFromRow);
  }

  async *exportStates(space: string | null): AsyncIterable<DormantStateRecord> {
    yield* this.page<DormantStateRecord>('dormant_recall_state', 'item_id', space, (r) => ({
      ...r,
    }));
  }

  private async *page<T>(
    table: string,
    key: string,
    space: string | null,
    map: (row: T) => T,
  ): AsyncIterable<T> {
    if (!this.tablesExist()) return;
    let after = '';
    for (;;) {
      const rows = this.guard(
        () =>
          this.db
            .prepare(
              `SELECT * FROM ${table} WHERE ${key} > ? ${space === null ? '' : 'AND space = ?'} ORDER BY ${key} LIMIT ${EXPORT_PAGE}`,
            )
            .all(...(space === null ? [after] : [after, space])) as T[],
      );
      for (const row of rows) yield map(row);
      if (rows.length < EXPORT_PAGE) return;
      after = String((rows[rows.length - 1] as Record<string, unknown>)[key]);
    }
  }

  /** True when the tables exist (export never creates them). */
  private tablesExist(): boolean {
    if (this.ready) return true;
    const n = this.guard(
      () =>
        this.db
          .prepare(
            "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('dormant_recall_events', 'dormant_recall_state')",
          )
          .get() as { n: number },
    ).n;
    if (n === 2) this.ready = true;
    return n === 2;
  }

  async importEvents(records: readonly DormantEventRecord[]): Promise<('imported' | 'exists')[]> {
    return this.write((db) =>
      records.map((r) => {
        if (db.prepare('SELECT 1 FROM dormant_recall_events WHERE id = ?').get(r.id))
          return 'exists';
        insertEvent(db, r);
        return 'imported';
      }),
    );
  }

  async importStates(records: readonly DormantStateRecord[]): Promise<('imported' | 'exists')[]> {
    return this.write((db) =>
      records.map((r) => {
        const result = db
          .prepare(
            'INSERT INTO dormant_recall_state(space, item_id, retrieved_at, shown_at, used_at, cooldown_until, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(space, item_id) DO NOTHING',
          )
          .run(
            r.space,
            r.item_id,
            r.retrieved_at,
            r.shown_at,
            r.used_at,
            r.cooldown_until,
            r.updated_at,
          );
        return result.changes > 0 ? 'imported' : 'exists';
      }),
    );
  }

  /** Closes the dormant connection (the store closes its own). */
  close(): void {
    this.own?.close();
    this.own = undefined;
  }
}
