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
import { jobRecord, type JobRowValues } from '../job-rows.js';
import type {
  ClaimOptions,
  Heartbeat,
  JobFilter,
  JobOutcome,
  JobPage,
  JobStore,
} from '../job-store.js';
import type { SqliteDatabase } from './database.js';
import { SqliteItemFailures } from './item-failures.js';

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

  private readonly failures: SqliteItemFailures;

  constructor(private readonly deps: SqliteJobDeps) {
    this.now = deps.now ?? Date.now;
    this.failures = new SqliteItemFailures(deps, this.now);
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
    failure: Parameters<JobStore['recordItemFailure']>[0],
    retryInMs: (attempts: number) => number | null,
  ): Promise<ItemFailure> {
    return this.failures.record(failure, retryInMs);
  }

  clearItemFailures(work: ItemWork, itemIds: readonly string[]): Promise<void> {
    return this.failures.clear(work, itemIds);
  }

  listItemFailures(filter: Parameters<JobStore['listItemFailures']>[0]): Promise<ItemFailure[]> {
    return this.failures.list(filter);
  }

  retryItemFailures(filter: Parameters<JobStore['retryItemFailures']>[0]): Promise<number> {
    return this.failures.retry(filter);
  }
}

/**
 * A job whose cancel was asked while it ran does not go back to the queue: a run that stopped
 * with work left, or failed with retries left, ends cancelled.
 */
export function honourCancel(outcome: JobOutcome): JobOutcome {
  const again =
    outcome.state === 'queued' || (outcome.state === 'failed' && outcome.retryInMs !== null);
  return again ? { state: 'cancelled', progress: outcome.progress } : outcome;
}
