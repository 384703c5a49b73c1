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

import { EngramError } from '../../domain/errors.js';
import { type DormantFlow, runSync } from '../dormant/flows.js';
import { BoundedHeap } from '../dormant/heap.js';
import { DormantStoreBase } from '../dormant/store-base.js';
import type { DormantScanHit, DormantScanRequest } from '../dormant-store.js';
import { isBusyError, type SqliteDatabase, storeError } from './database.js';
import {
  cosineWith,
  DORMANT_SINCE_SQL,
  SCHEMA_SQL,
  sqliteDormantRows,
  unit,
} from './dormant-rows.js';
import { compileFilter } from './rows.js';

/** How long a dormant write waits for another process's write lock before failing open. */
export const DORMANT_BUSY_MS = 250;
/** Rows read per page of the exact scan (one page blocks the event loop for about a millisecond). */
const SCAN_PAGE = 256;

/** What the dormant store borrows from the SQLite store. */
export interface SqliteDormantContext {
  /** The store's own connection (used for in-memory stores, which cannot be opened twice). */
  db: SqliteDatabase;
  path: string;
  assertOpen(): void;
}

/** A scan row in raw mode: pk, id, version, dormancy start, vector blob. */
type ScanRow = [pk: number, id: string, version: number, since: number, vector: Buffer];

/** Dormant-recall persistence over SQLite. */
export class SqliteDormantStore extends DormantStoreBase {
  private own: SqliteDatabase | undefined;
  private ready = false;

  constructor(private readonly ctx: SqliteDormantContext) {
    super();
  }

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
    if (this.hasTables()) return;
    const db = this.db;
    this.guard(() => db.transaction(() => db.exec(SCHEMA_SQL)).immediate());
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

  protected async tryRun<T>(flow: () => DormantFlow<T>): Promise<T | null> {
    this.ensureSchema();
    const db = this.db;
    try {
      return db.transaction(() => runSync(flow(), sqliteDormantRows(db))).immediate();
    } catch (err) {
      if (isBusyError(err)) return null;
      if (err instanceof EngramError) throw err;
      throw storeError(err, this.ctx.path);
    }
  }

  protected async read<T>(flow: () => DormantFlow<T>): Promise<T> {
    this.ensureSchema();
    return this.guard(() => runSync(flow(), sqliteDormantRows(this.db)));
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
    const state = this.hasTables()
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

  protected async tablesExist(): Promise<boolean> {
    return this.hasTables();
  }

  /** True when both tables exist (checked without creating them). */
  private hasTables(): boolean {
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

  /** Closes the dormant connection (the store closes its own). */
  close(): void {
    this.own?.close();
    this.own = undefined;
  }
}
