/**
 * Jobs and item failures on PostgreSQL (§11), the twin of the SQLite job store. Every time is the
 * server's clock (`now()`, fixed for one transaction, as SQLite's one `now` per write), kept as
 * bigint epoch milliseconds like the other tables. Several processes claim from one table: a claim
 * locks the row it takes with `FOR UPDATE SKIP LOCKED`, so each job has one holder and claimers
 * never wait for each other; a partial unique index keeps one waiting job per dedupe key.
 */
import { EngramError, notFound } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import {
  type ItemFailure,
  type ItemWork,
  JOB_STATES,
  type JobData,
  type JobRecord,
  type JobState,
  type NewJob,
} from '../../domain/jobs.js';
import { DEFAULT_MAX_ATTEMPTS } from '../../domain/jobs.js';
import { jobRecord, type JobRowValues } from '../job-rows.js';
import type {
  ClaimOptions,
  Heartbeat,
  JobFilter,
  JobOutcome,
  JobPage,
  JobStore,
} from '../job-store.js';
import type { PgDatabase, Queryable } from './database.js';
import { PgItemFailures } from './item-failures.js';
import { errorText, ms, NOW, storable } from './job-sql.js';
import { Params } from './rows.js';

const WAITING = "state IN ('queued', 'running')";
const LEASE_EXPIRED = 'the process running the job stopped (lease expired)';
/** How often an enqueue retries when its dedupe key's waiting job ends under it. */
const ENQUEUE_TRIES = 5;

type JobRow = JobRowValues;
const jobOf = jobRecord;

const json = (data: JobData | null | undefined) => (data == null ? null : JSON.stringify(data));

/** Cursor of a listing: the last job's creation time and id (the SQLite store's format). */
function decodeCursor(cursor: string | undefined): [number, string] | undefined {
  if (cursor === undefined) return undefined;
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !id || !Number.isSafeInteger(Number(at)) || !storable(id))
    throw new EngramError('INVALID_INPUT', 'cursor: not a cursor of this listing', {
      field: 'cursor',
      rule: 'cursor from a previous page',
    });
  return [Number(at), id];
}

const encodeCursor = (row: JobRow) =>
  Buffer.from(`${row.created_at}|${row.id}`, 'utf8').toString('base64url');

/** The CONFLICT of a retry whose dedupe key another waiting job holds. */
function dedupeConflict(waitingId: string | undefined): EngramError {
  return new EngramError(
    'CONFLICT',
    `job ${waitingId ?? 'with the same dedupe key'} already does this work`,
    { field: 'id', rule: 'one waiting job per dedupe key' },
  );
}

const isUniqueViolation = (err: unknown) => (err as { code?: unknown }).code === '23505';

/** A claim's choice of jobs: $1 the kinds, $2 the ids (null: any). */
const CLAIMABLE = `($1::text[] IS NULL OR kind = ANY($1::text[]))
AND ($2::text[] IS NULL OR id = ANY($2::text[]))`;

/** The next orphan (running, lease expired) a claim may take, locked; other claimers skip it. */
const ORPHAN_SQL = `SELECT * FROM jobs WHERE state = 'running' AND lease_expires_at <= ${NOW} AND ${CLAIMABLE}
ORDER BY lease_expires_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`;

/**
 * The oldest due queued job a claim may take, locked; other claimers skip it. Jobs named by id are
 * due at once: a user waits for them, back-off or not.
 */
const DUE_SQL = `SELECT * FROM jobs WHERE state = 'queued' AND ($2::text[] IS NOT NULL OR next_attempt_at <= ${NOW})
AND ${CLAIMABLE} ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`;

/** Ends an orphan whose attempts are used up, or whose cancel was asked ($2 the state). */
const END_ORPHAN_SQL = `UPDATE jobs SET state = $2::text, attempts = attempts + 1, last_error = coalesce($3::text, last_error),
lease_holder = NULL, lease_expires_at = NULL, finished_at = coalesce(heartbeat_at, ${NOW}) WHERE id = $1`;

/** Takes an orphan over: its dead run counts as a failed attempt. */
const TAKE_ORPHAN_SQL = `UPDATE jobs SET attempts = attempts + 1, last_error = '${LEASE_EXPIRED}',
lease_holder = $2, lease_expires_at = ${NOW} + $3::int8, run_started_at = ${NOW}, heartbeat_at = ${NOW}
WHERE id = $1 RETURNING *`;

/** Starts a run of a queued job. */
const START_SQL = `UPDATE jobs SET state = 'running', lease_holder = $2, lease_expires_at = ${NOW} + $3::int8,
started_at = coalesce(started_at, ${NOW}), run_started_at = ${NOW}, heartbeat_at = ${NOW}, finished_at = NULL
WHERE id = $1 RETURNING *`;

/**
 * Ends the holder's run: $3 the new state, $4 attempts used, $5 the error (null keeps the last),
 * $6 the delay of a queued job, $7 whether progress is kept, $8 the new progress. Only a running
 * job still held by $2 changes. A finished run's end time, a queued one's none.
 */
/** A job whose cancel was asked while it ran ends cancelled instead of going back to the queue. */
const FINISH_SQL = `UPDATE jobs SET state = CASE WHEN $3::text = 'queued' AND cancel_requested THEN 'cancelled' ELSE $3::text END,
attempts = attempts + $4::int, last_error = coalesce($5::text, last_error),
next_attempt_at = CASE WHEN $3::text = 'queued' THEN ${NOW} + $6::int8 ELSE next_attempt_at END,
progress = CASE WHEN $7::boolean THEN progress ELSE $8::json END,
finished_at = CASE WHEN $3::text = 'queued' AND NOT cancel_requested THEN NULL ELSE ${NOW} END,
lease_holder = NULL, lease_expires_at = NULL, heartbeat_at = ${NOW}
WHERE id = $1 AND state = 'running' AND lease_holder = $2 RETURNING id`;

/** The numbers of a finish: state, attempts used, error, delay and progress. */
function finishParams(outcome: JobOutcome): unknown[] {
  const failed = outcome.state === 'failed';
  const retry = failed && outcome.retryInMs !== null;
  const state = failed ? (retry ? 'queued' : 'failed') : outcome.state;
  const delay = retry ? ms(outcome.retryInMs!) : 0;
  const keep = outcome.progress === undefined;
  return [
    state,
    failed ? 1 : 0,
    failed ? errorText(outcome.error) : null,
    delay,
    keep,
    keep ? null : json(outcome.progress),
  ];
}

/** The WHERE clause of a job listing. */
function jobWhere(filter: JobFilter, params: Params): string {
  const where: string[] = [];
  if (filter.states?.length) where.push(`state = ANY(${params.add(filter.states, '::text[]')})`);
  if (filter.kinds?.length) where.push(`kind = ANY(${params.add(filter.kinds, '::text[]')})`);
  if (filter.spaces) {
    const spaces = params.add(filter.spaces.filter(storable), '::text[]');
    where.push(`(space IS NULL OR space = ANY(${spaces}))`);
  }
  const after = decodeCursor(filter.cursor);
  if (after) {
    const at = params.add(after[0], '::int8');
    where.push(`(created_at < ${at} OR (created_at = ${at} AND id < ${params.add(after[1])}))`);
  }
  return where.length ? `WHERE ${where.join(' AND ')}` : '';
}

/** The job store of a PostgreSQL schema. */
export class PgJobStore implements JobStore {
  private readonly failures: PgItemFailures;

  constructor(private readonly db: PgDatabase) {
    this.failures = new PgItemFailures(db);
  }

  async enqueue(job: NewJob): Promise<{ job: JobRecord; created: boolean }> {
    for (let tries = 1; ; tries++) {
      const made = await this.insert(job);
      if (made) return { job: jobOf(made), created: true };
      const [waiting] = await this.db.query<JobRow>(
        `SELECT * FROM jobs WHERE dedupe_key = $1 AND ${WAITING}`,
        [job.dedupe_key],
      );
      if (waiting) return { job: jobOf(waiting), created: false };
      if (tries >= ENQUEUE_TRIES)
        throw new EngramError(
          'STORE_BUSY',
          `job key ${job.dedupe_key}: the waiting job kept changing; try again`,
          { rule: 'busy' },
        );
    }
  }

  /** Inserts a queued job; undefined when a waiting job holds its dedupe key. */
  private async insert(job: NewJob): Promise<JobRow | undefined> {
    const [row] = await this.db.query<JobRow>(
      `INSERT INTO jobs (id, kind, space, payload, state, max_attempts, next_attempt_at, dedupe_key, created_at)
VALUES ($1, $2, $3, $4::json, 'queued', $5, ${NOW} + $6::int8, $7, ${NOW})
ON CONFLICT DO NOTHING RETURNING *`,
      [
        newId(),
        job.kind,
        job.space ?? null,
        JSON.stringify(job.payload ?? {}),
        job.max_attempts ?? DEFAULT_MAX_ATTEMPTS,
        ms(Math.max(0, job.delay_ms ?? 0)),
        job.dedupe_key ?? null,
      ],
      'write',
    );
    return row;
  }

  claim(holder: string, options: ClaimOptions): Promise<JobRecord | null> {
    const { kinds, ids } = options;
    const choice = [kinds ? [...kinds] : null, ids ? ids.filter(storable) : null];
    const lease = [holder, ms(options.leaseMs)];
    return this.db.transaction(async (tx) => {
      // Orphans first: a run whose process died counts as a failed attempt.
      for (;;) {
        const [orphan] = await tx.query<JobRow>(ORPHAN_SQL, choice);
        if (!orphan) break;
        if (await this.endOrphan(tx, orphan)) continue;
        const [taken] = await tx.query<JobRow>(TAKE_ORPHAN_SQL, [orphan.id, ...lease]);
        return jobOf(taken!);
      }
      const [due] = await tx.query<JobRow>(DUE_SQL, choice);
      if (!due) return null;
      const [started] = await tx.query<JobRow>(START_SQL, [due.id, ...lease]);
      return jobOf(started!);
    });
  }

  /** Finishes an orphan whose attempts are used up or whose cancel was asked; false otherwise. */
  private async endOrphan(tx: Queryable, orphan: JobRow): Promise<boolean> {
    const usedUp = orphan.attempts + 1 >= orphan.max_attempts;
    if (!usedUp && !orphan.cancel_requested) return false;
    const state = orphan.cancel_requested ? 'cancelled' : 'failed';
    await tx.query(END_ORPHAN_SQL, [orphan.id, state, state === 'failed' ? LEASE_EXPIRED : null]);
    return true;
  }

  async heartbeat(
    id: string,
    holder: string,
    options: { leaseMs: number; progress?: JobData | null },
  ): Promise<Heartbeat> {
    if (!storable(id)) return { held: false, cancel_requested: false };
    const [row] = await this.db.query<{ cancel_requested: boolean }>(
      `UPDATE jobs SET lease_expires_at = ${NOW} + $3::int8, heartbeat_at = ${NOW},
progress = coalesce($4::json, progress)
WHERE id = $1 AND state = 'running' AND lease_holder = $2 RETURNING cancel_requested`,
      [id, holder, ms(options.leaseMs), json(options.progress)],
      'write',
    );
    return row
      ? { held: true, cancel_requested: row.cancel_requested }
      : { held: false, cancel_requested: false };
  }

  async finish(id: string, holder: string, outcome: JobOutcome): Promise<boolean> {
    if (!storable(id)) return false;
    const rows = await this.db.query(FINISH_SQL, [id, holder, ...finishParams(outcome)], 'write');
    return rows.length > 0;
  }

  async getJob(id: string): Promise<JobRecord | undefined> {
    if (!storable(id)) return undefined;
    const [row] = await this.db.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [id]);
    return row && jobOf(row);
  }

  async listJobs(filter: JobFilter): Promise<JobPage> {
    const params = new Params();
    const where = jobWhere(filter, params);
    const rows = await this.db.query<JobRow>(
      `SELECT * FROM jobs ${where} ORDER BY created_at DESC, id DESC LIMIT ${params.add(filter.limit + 1)}`,
      params.values,
    );
    const page = rows.slice(0, filter.limit);
    return {
      jobs: page.map(jobOf),
      next_cursor: rows.length > filter.limit ? encodeCursor(page[page.length - 1]!) : null,
    };
  }

  retryJob(id: string): Promise<JobRecord> {
    return this.db.transaction(async (tx) => {
      const row = await lockJob(tx, id);
      if (row.state !== 'failed' && row.state !== 'cancelled')
        throw new EngramError(
          'CONFLICT',
          `job ${id} is ${row.state}: only a failed or cancelled job is retried`,
          { field: 'id', rule: 'failed or cancelled job' },
        );
      if (row.dedupe_key) {
        const waiting = await waitingId(tx, row.dedupe_key);
        if (waiting) throw dedupeConflict(waiting);
      }
      return jobOf(await requeue(tx, row));
    });
  }

  cancelJob(id: string): Promise<JobRecord> {
    return this.db.transaction(async (tx) => {
      const row = await lockJob(tx, id);
      let sql: string;
      if (row.state === 'queued')
        sql = `UPDATE jobs SET state = 'cancelled', finished_at = ${NOW} WHERE id = $1 RETURNING *`;
      else if (row.state === 'running')
        sql = 'UPDATE jobs SET cancel_requested = true WHERE id = $1 RETURNING *';
      else
        throw new EngramError('CONFLICT', `job ${id} already ended (${row.state})`, {
          field: 'id',
          rule: 'queued or running job',
        });
      const [cancelled] = await tx.query<JobRow>(sql, [id]);
      return jobOf(cancelled!);
    });
  }

  async jobCounts(): Promise<Record<JobState, number>> {
    const counts = Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as Record<JobState, number>;
    const rows = await this.db.query<{ state: JobState; n: number }>(
      'SELECT state, count(*) AS n FROM jobs GROUP BY state',
    );
    for (const r of rows) counts[r.state] = r.n;
    return counts;
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

/** A job locked for this transaction (NOT_FOUND when absent). */
async function lockJob(tx: Queryable, id: string): Promise<JobRow> {
  const [row] = storable(id)
    ? await tx.query<JobRow>('SELECT * FROM jobs WHERE id = $1 FOR UPDATE', [id])
    : [];
  if (!row) throw notFound('job', id);
  return row;
}

/** The id of the queued or running job holding a dedupe key. */
async function waitingId(tx: Queryable, key: string): Promise<string | undefined> {
  const [row] = await tx.query<{ id: string }>(
    `SELECT id FROM jobs WHERE dedupe_key = $1 AND ${WAITING}`,
    [key],
  );
  return row?.id;
}

/**
 * Queues a failed or cancelled job again with a fresh budget. A job enqueued with its key since
 * the check above makes the update break the unique index: that is the same CONFLICT.
 */
async function requeue(tx: Queryable, row: JobRow): Promise<JobRow> {
  await tx.query('SAVEPOINT requeue');
  try {
    const [queued] = await tx.query<JobRow>(
      `UPDATE jobs SET state = 'queued', attempts = 0, next_attempt_at = ${NOW}, cancel_requested = false,
finished_at = NULL WHERE id = $1 RETURNING *`,
      [row.id],
    );
    return queued!;
  } catch (err) {
    if (!isUniqueViolation(err) || !row.dedupe_key) throw err;
    await tx.query('ROLLBACK TO SAVEPOINT requeue');
    throw dedupeConflict(await waitingId(tx, row.dedupe_key));
  }
}
