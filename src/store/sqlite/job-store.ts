/**
 * Jobs and item failures on SQLite (§11). Every claim, heartbeat and finish runs in one immediate
 * write transaction, so processes sharing the file agree on one holder per job; expiry uses this
 * machine's clock, which every process on one file shares.
 */
import { EngramError, notFound } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import {
  DEFAULT_MAX_ATTEMPTS,
  type ItemFailure,
  type ItemWork,
  JOB_STATES,
  type JobData,
  type JobRecord,
  type JobState,
  type NewJob,
} from '../../domain/jobs.js';
import { failureRecord, type FailureRowValues, jobRecord, type JobRowValues } from '../job-rows.js';
import type {
  ClaimOptions,
  Heartbeat,
  JobFilter,
  JobOutcome,
  JobPage,
  JobStore,
} from '../job-store.js';
import type { SqliteDatabase } from './database.js';

/** The schema of jobs and item failures (migration 6). */
export const JOBS_SCHEMA_SQL = `
CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  space TEXT,
  payload TEXT NOT NULL DEFAULT '{}',
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  next_attempt_at INTEGER NOT NULL,
  lease_holder TEXT,
  lease_expires_at INTEGER,
  progress TEXT,
  last_error TEXT,
  cancel_requested INTEGER NOT NULL DEFAULT 0,
  dedupe_key TEXT,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  run_started_at INTEGER,
  heartbeat_at INTEGER,
  finished_at INTEGER
);
CREATE INDEX jobs_due ON jobs(state, next_attempt_at);
CREATE UNIQUE INDEX jobs_dedupe ON jobs(dedupe_key)
  WHERE dedupe_key IS NOT NULL AND state IN ('queued', 'running');

CREATE TABLE item_failures (
  item_id TEXT NOT NULL,
  work TEXT NOT NULL,
  space TEXT NOT NULL,
  version INTEGER NOT NULL,
  attempts INTEGER NOT NULL,
  last_error TEXT NOT NULL,
  first_failed_at INTEGER NOT NULL,
  last_failed_at INTEGER NOT NULL,
  next_attempt_at INTEGER,
  PRIMARY KEY (item_id, work)
) WITHOUT ROWID;
CREATE INDEX item_failures_space ON item_failures(space, last_failed_at);
`;

/** A job row as SQLite returns it: JSON as text, the cancel flag as 0 or 1. */
interface JobRow extends Omit<JobRowValues, 'payload' | 'progress' | 'cancel_requested'> {
  payload: string;
  progress: string | null;
  cancel_requested: number;
}

function jobOf(row: JobRow): JobRecord {
  return jobRecord({
    ...row,
    payload: JSON.parse(row.payload) as JobData,
    progress: row.progress === null ? null : (JSON.parse(row.progress) as JobData),
    cancel_requested: row.cancel_requested === 1,
  });
}

type FailureRow = FailureRowValues;
const failureOf = failureRecord;

const json = (data: JobData | null | undefined) => (data == null ? null : JSON.stringify(data));
const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** Cursor of a listing: the last job's creation time and id. */
function decodeCursor(cursor: string | undefined): [number, string] | undefined {
  if (cursor === undefined) return undefined;
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !id || !Number.isFinite(Number(at)))
    throw new EngramError('INVALID_INPUT', 'cursor: not a cursor of this listing', {
      field: 'cursor',
      rule: 'cursor from a previous page',
    });
  return [Number(at), id];
}

const encodeCursor = (row: JobRow) =>
  Buffer.from(`${row.created_at}|${row.id}`, 'utf8').toString('base64url');

/** What the SQLite job store runs on. */
export interface SqliteJobDeps {
  db: SqliteDatabase;
  /** Runs `fn` in one immediate write transaction (retried while another process writes). */
  write: <T>(fn: () => T) => Promise<T>;
  /** Runs a read, reporting driver failures as store errors. */
  read: <T>(fn: () => T) => T;
  /** Milliseconds now (replaceable in tests). */
  now?: () => number;
}

/** The job store of a SQLite file. */
export class SqliteJobStore implements JobStore {
  private readonly now: () => number;

  constructor(private readonly deps: SqliteJobDeps) {
    this.now = deps.now ?? Date.now;
  }

  private row(id: string): JobRow | undefined {
    return this.deps.db.prepare('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
  }

  enqueue(job: NewJob): Promise<{ job: JobRecord; created: boolean }> {
    return this.deps.write(() => {
      const db = this.deps.db;
      if (job.dedupe_key != null) {
        const waiting = db
          .prepare("SELECT * FROM jobs WHERE dedupe_key = ? AND state IN ('queued', 'running')")
          .get(job.dedupe_key) as JobRow | undefined;
        if (waiting) return { job: jobOf(waiting), created: false };
      }
      const now = this.now();
      const id = newId(now);
      db.prepare(
        `INSERT INTO jobs (id, kind, space, payload, state, max_attempts, next_attempt_at, dedupe_key, created_at)
VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?)`,
      ).run(
        id,
        job.kind,
        job.space ?? null,
        JSON.stringify(job.payload ?? {}),
        job.max_attempts ?? DEFAULT_MAX_ATTEMPTS,
        now + Math.max(0, job.delay_ms ?? 0),
        job.dedupe_key ?? null,
        now,
      );
      return { job: jobOf(this.row(id)!), created: true };
    });
  }

  async claim(holder: string, options: ClaimOptions): Promise<JobRecord | null> {
    // A look without the write lock first: an idle worker polls often and must not queue writers.
    const now = this.now();
    const any = this.deps.read(() =>
      this.deps.db
        .prepare(
          "SELECT 1 FROM jobs WHERE (state = 'queued' AND (next_attempt_at <= ? OR ?)) OR (state = 'running' AND lease_expires_at <= ?) LIMIT 1",
        )
        .get(now, options.ids ? 1 : 0, now),
    );
    if (!any) return null;
    return this.deps.write(() => {
      const db = this.deps.db;
      const now = this.now();
      const { kinds, ids } = options;
      const filters = [
        kinds ? `AND kind IN (${marks(kinds.length)})` : '',
        ids ? `AND id IN (${marks(ids.length)})` : '',
      ];
      const kindFilter = filters.join(' ');
      const args = [...(kinds ?? []), ...(ids ?? [])];
      // Orphans first: a run whose process died counts as a failed attempt.
      const orphans = db
        .prepare(
          `SELECT * FROM jobs WHERE state = 'running' AND lease_expires_at <= ? ${kindFilter} ORDER BY lease_expires_at`,
        )
        .all(now, ...args) as JobRow[];
      for (const orphan of orphans) {
        const attempts = orphan.attempts + 1;
        if (attempts >= orphan.max_attempts || orphan.cancel_requested === 1) {
          const state = orphan.cancel_requested === 1 ? 'cancelled' : 'failed';
          db.prepare(
            `UPDATE jobs SET state = ?, attempts = ?, last_error = coalesce(?, last_error), lease_holder = NULL,
lease_expires_at = NULL, finished_at = ? WHERE id = ?`,
          ).run(
            state,
            attempts,
            state === 'failed' ? 'the process running the job stopped (lease expired)' : null,
            orphan.heartbeat_at ?? now,
            orphan.id,
          );
          continue;
        }
        db.prepare(
          `UPDATE jobs SET attempts = ?, last_error = 'the process running the job stopped (lease expired)',
lease_holder = ?, lease_expires_at = ?, run_started_at = ?, heartbeat_at = ? WHERE id = ?`,
        ).run(attempts, holder, now + options.leaseMs, now, now, orphan.id);
        return jobOf(this.row(orphan.id)!);
      }
      const due = db
        .prepare(
          `SELECT id FROM jobs WHERE state = 'queued' AND next_attempt_at <= ? ${kindFilter} ORDER BY next_attempt_at, id LIMIT 1`,
        )
        // A user waiting for these jobs runs them now, back-off or not.
        .get(ids ? Number.MAX_SAFE_INTEGER : now, ...args) as { id: string } | undefined;
      if (!due) return null;
      db.prepare(
        `UPDATE jobs SET state = 'running', lease_holder = ?, lease_expires_at = ?, started_at = coalesce(started_at, ?),
run_started_at = ?, heartbeat_at = ?, finished_at = NULL WHERE id = ?`,
      ).run(holder, now + options.leaseMs, now, now, now, due.id);
      return jobOf(this.row(due.id)!);
    });
  }

  heartbeat(
    id: string,
    holder: string,
    options: { leaseMs: number; progress?: JobData | null },
  ): Promise<Heartbeat> {
    return this.deps.write(() => {
      const now = this.now();
      const row = this.deps.db
        .prepare(
          "SELECT cancel_requested FROM jobs WHERE id = ? AND state = 'running' AND lease_holder = ?",
        )
        .get(id, holder) as { cancel_requested: number } | undefined;
      if (!row) return { held: false, cancel_requested: false };
      this.deps.db
        .prepare(
          'UPDATE jobs SET lease_expires_at = ?, heartbeat_at = ?, progress = coalesce(?, progress) WHERE id = ?',
        )
        .run(now + options.leaseMs, now, json(options.progress), id);
      return { held: true, cancel_requested: row.cancel_requested === 1 };
    });
  }

  finish(id: string, holder: string, ended: JobOutcome): Promise<boolean> {
    return this.deps.write(() => {
      const db = this.deps.db;
      const now = this.now();
      const row = db
        .prepare("SELECT * FROM jobs WHERE id = ? AND state = 'running' AND lease_holder = ?")
        .get(id, holder) as JobRow | undefined;
      if (!row) return false;
      const outcome = row.cancel_requested === 1 ? honourCancel(ended) : ended;
      const progress = outcome.progress === undefined ? row.progress : json(outcome.progress);
      const clear = 'lease_holder = NULL, lease_expires_at = NULL, heartbeat_at = ?';
      if (outcome.state === 'queued')
        db.prepare(
          `UPDATE jobs SET state = 'queued', next_attempt_at = ?, progress = ?, ${clear} WHERE id = ?`,
        ).run(now, progress, now, id);
      else if (outcome.state === 'failed') {
        const retry = outcome.retryInMs !== null;
        db.prepare(
          `UPDATE jobs SET state = ?, attempts = attempts + 1, last_error = ?, next_attempt_at = ?, progress = ?,
finished_at = ?, ${clear} WHERE id = ?`,
        ).run(
          retry ? 'queued' : 'failed',
          outcome.error,
          retry ? now + outcome.retryInMs! : row.next_attempt_at,
          progress,
          retry ? null : now,
          now,
          id,
        );
      } else
        db.prepare(
          `UPDATE jobs SET state = ?, progress = ?, finished_at = ?, ${clear} WHERE id = ?`,
        ).run(outcome.state, progress, now, now, id);
      return true;
    });
  }

  async getJob(id: string): Promise<JobRecord | undefined> {
    return this.deps.read(() => {
      const row = this.row(id);
      return row && jobOf(row);
    });
  }

  async listJobs(filter: JobFilter): Promise<JobPage> {
    return this.deps.read(() => {
      const where: string[] = [];
      const args: unknown[] = [];
      if (filter.states?.length) {
        where.push(`state IN (${marks(filter.states.length)})`);
        args.push(...filter.states);
      }
      if (filter.kinds?.length) {
        where.push(`kind IN (${marks(filter.kinds.length)})`);
        args.push(...filter.kinds);
      }
      if (filter.spaces) {
        where.push(`(space IS NULL OR space IN (${marks(filter.spaces.length)}))`);
        args.push(...filter.spaces);
      }
      const after = decodeCursor(filter.cursor);
      if (after) {
        where.push('(created_at < ? OR (created_at = ? AND id < ?))');
        args.push(after[0], after[0], after[1]);
      }
      const sql = `SELECT * FROM jobs ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
ORDER BY created_at DESC, id DESC LIMIT ?`;
      const rows = this.deps.db.prepare(sql).all(...args, filter.limit + 1) as JobRow[];
      const page = rows.slice(0, filter.limit);
      return {
        jobs: page.map(jobOf),
        next_cursor: rows.length > filter.limit ? encodeCursor(page[page.length - 1]!) : null,
      };
    });
  }

  retryJob(id: string): Promise<JobRecord> {
    return this.deps.write(() => {
      const row = this.row(id);
      if (!row) throw notFound('job', id);
      if (row.state !== 'failed' && row.state !== 'cancelled')
        throw new EngramError(
          'CONFLICT',
          `job ${id} is ${row.state}: only a failed or cancelled job is retried`,
          {
            field: 'id',
            rule: 'failed or cancelled job',
          },
        );
      if (row.dedupe_key !== null) {
        const waiting = this.deps.db
          .prepare("SELECT id FROM jobs WHERE dedupe_key = ? AND state IN ('queued', 'running')")
          .get(row.dedupe_key) as { id: string } | undefined;
        if (waiting)
          throw new EngramError('CONFLICT', `job ${waiting.id} already does this work`, {
            field: 'id',
            rule: 'one waiting job per dedupe key',
          });
      }
      this.deps.db
        .prepare(
          `UPDATE jobs SET state = 'queued', attempts = 0, next_attempt_at = ?, cancel_requested = 0, finished_at = NULL
WHERE id = ?`,
        )
        .run(this.now(), id);
      return jobOf(this.row(id)!);
    });
  }

  cancelJob(id: string): Promise<JobRecord> {
    return this.deps.write(() => {
      const row = this.row(id);
      if (!row) throw notFound('job', id);
      const now = this.now();
      if (row.state === 'queued')
        this.deps.db
          .prepare("UPDATE jobs SET state = 'cancelled', finished_at = ? WHERE id = ?")
          .run(now, id);
      else if (row.state === 'running')
        this.deps.db.prepare('UPDATE jobs SET cancel_requested = 1 WHERE id = ?').run(id);
      else
        throw new EngramError('CONFLICT', `job ${id} already ended (${row.state})`, {
          field: 'id',
          rule: 'queued or running job',
        });
      return jobOf(this.row(id)!);
    });
  }

  async jobCounts(): Promise<Record<JobState, number>> {
    return this.deps.read(() => {
      const counts = Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>;
      const rows = this.deps.db
        .prepare('SELECT state, count(*) AS n FROM jobs GROUP BY state')
        .all() as { state: JobState; n: number }[];
      for (const r of rows) counts[r.state] = r.n;
      return counts;
    });
  }

  recordItemFailure(
    failure: { space: string; item_id: string; work: ItemWork; version: number; error: string },
    retryInMs: (attempts: number) => number | null,
  ): Promise<ItemFailure> {
    return this.deps.write(() => {
      const db = this.deps.db;
      const now = this.now();
      const held = db
        .prepare('SELECT * FROM item_failures WHERE item_id = ? AND work = ?')
        .get(failure.item_id, failure.work) as FailureRow | undefined;
      // A failure of another version starts afresh: the item changed since.
      const same = held && held.version === failure.version;
      const attempts = same ? held.attempts + 1 : 1;
      const delay = retryInMs(attempts);
      db.prepare(
        `INSERT INTO item_failures (item_id, work, space, version, attempts, last_error, first_failed_at, last_failed_at, next_attempt_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (item_id, work) DO UPDATE SET space = excluded.space, version = excluded.version,
  attempts = excluded.attempts, last_error = excluded.last_error, first_failed_at = excluded.first_failed_at,
  last_failed_at = excluded.last_failed_at, next_attempt_at = excluded.next_attempt_at`,
      ).run(
        failure.item_id,
        failure.work,
        failure.space,
        failure.version,
        attempts,
        failure.error,
        same ? held.first_failed_at : now,
        now,
        delay === null ? null : now + delay,
      );
      return failureOf(
        db
          .prepare('SELECT * FROM item_failures WHERE item_id = ? AND work = ?')
          .get(failure.item_id, failure.work) as FailureRow,
      );
    });
  }

  async clearItemFailures(work: ItemWork, itemIds: readonly string[]): Promise<void> {
    if (itemIds.length === 0) return;
    await this.deps.write(() => {
      const del = this.deps.db.prepare('DELETE FROM item_failures WHERE item_id = ? AND work = ?');
      for (const id of itemIds) del.run(id, work);
    });
  }

  async listItemFailures(filter: {
    work?: ItemWork;
    spaces?: readonly string[];
    limit: number;
  }): Promise<ItemFailure[]> {
    return this.deps.read(() => {
      const { where, args } = failureWhere(filter, 'f.');
      // Only failures that still hold: the item is at the failed version and still waits.
      const rows = this.deps.db
        .prepare(
          `SELECT f.* FROM item_failures f
JOIN items i ON i.id = f.item_id AND i.version = f.version AND i.vector_state = 'pending'
${where ? `${where} AND` : 'WHERE'} f.work = 'vector'
ORDER BY f.last_failed_at DESC, f.item_id LIMIT ?`,
        )
        .all(...args, filter.limit) as FailureRow[];
      return rows.map(failureOf);
    });
  }

  retryItemFailures(filter: {
    work?: ItemWork;
    spaces?: readonly string[];
    itemIds?: readonly string[];
  }): Promise<number> {
    return this.deps.write(() => {
      const { where, args } = failureWhere(filter, 'f.');
      // Only failures that still hold, as listed: the item is at the failed version and waits.
      return this.deps.db
        .prepare(
          `UPDATE item_failures SET next_attempt_at = ?, attempts = 0 WHERE (item_id, work) IN (
SELECT f.item_id, f.work FROM item_failures f
JOIN items i ON i.id = f.item_id AND i.version = f.version AND i.vector_state = 'pending' ${where})`,
        )
        .run(this.now(), ...args).changes;
    });
  }
}

/** The WHERE clause of an item-failure filter; `t` prefixes the columns (a table alias). */
/**
 * A job whose cancel was asked while it ran does not go back to the queue: a run that stopped
 * with work left, or failed with retries left, ends cancelled.
 */
export function honourCancel(outcome: JobOutcome): JobOutcome {
  const again =
    outcome.state === 'queued' || (outcome.state === 'failed' && outcome.retryInMs !== null);
  return again ? { state: 'cancelled', progress: outcome.progress } : outcome;
}

function failureWhere(
  filter: { work?: ItemWork; spaces?: readonly string[]; itemIds?: readonly string[] },
  t = '',
): { where: string; args: unknown[] } {
  const where: string[] = [];
  const args: unknown[] = [];
  const list = (column: string, values: readonly string[]) => {
    // An empty list matches nothing.
    where.push(values.length ? `${t}${column} IN (${marks(values.length)})` : '0');
    args.push(...values);
  };
  if (filter.work) {
    where.push(`${t}work = ?`);
    args.push(filter.work);
  }
  if (filter.spaces) list('space', filter.spaces);
  if (filter.itemIds) list('item_id', filter.itemIds);
  return { where: where.length ? `WHERE ${where.join(' AND ')}` : '', args };
}
