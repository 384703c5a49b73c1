/**
 * The persistence of background jobs and of per-item work failures (§11), one implementation per
 * backend. Every time is the backend's own clock (SQLite: this machine's; PostgreSQL: the
 * server's), so callers pass durations, never absolute times, and several processes, even on
 * several machines around one PostgreSQL, agree on who holds what.
 */
import type {
  ItemFailure,
  ItemWork,
  JobData,
  JobKind,
  JobRecord,
  JobState,
  NewJob,
} from '../domain/jobs.js';

/** How a run ended, as the runner reports it. */
export type JobOutcome =
  /** All work done. */
  | { state: 'succeeded'; progress?: JobData | null }
  /** Stopped at a checkpoint with work left (deadline, shutdown): queued again at once, no attempt used. */
  | { state: 'queued'; progress?: JobData | null }
  /**
   * The run failed: one attempt used. `retryInMs` queues it again after that back-off; null
   * leaves it `failed` (attempts used up, or an error that a retry cannot fix).
   */
  | { state: 'failed'; error: string; retryInMs: number | null; progress?: JobData | null }
  /** Stopped because a cancel was asked. */
  | { state: 'cancelled'; progress?: JobData | null };

/** Which job a claim may take. */
export interface ClaimOptions {
  leaseMs: number;
  /** Only jobs of these kinds. */
  kinds?: readonly JobKind[];
  /** Only these jobs, and a queued one even before its next attempt time (a user waits for it). */
  ids?: readonly string[];
}

/** What a heartbeat learns. */
export interface Heartbeat {
  /** False when the lease is no longer this holder's (it expired and another process took it). */
  held: boolean;
  cancel_requested: boolean;
}

/** A page of jobs, newest first. */
export interface JobPage {
  jobs: JobRecord[];
  next_cursor: string | null;
}

/** Filter of a job listing. */
export interface JobFilter {
  states?: readonly JobState[];
  kinds?: readonly JobKind[];
  /** Jobs of these spaces (jobs over the whole store, with no space, are always listed). */
  spaces?: readonly string[];
  limit: number;
  cursor?: string;
}

/** The job table and the item-failure table of a store. */
export interface JobStore {
  /**
   * Adds a job, or returns the queued or running job with the same `dedupe_key`
   * (`created: false`).
   */
  enqueue(job: NewJob): Promise<{ job: JobRecord; created: boolean }>;
  /**
   * Takes the next runnable job under a lease for `holder`: the oldest due queued job, or a
   * running job whose lease expired (its process died: that run counts as a failed attempt, and
   * a job whose attempts are then used up is marked failed instead of taken). Null when none.
   */
  claim(holder: string, options: ClaimOptions): Promise<JobRecord | null>;
  /** Extends the holder's lease, stores progress when given, and reports a cancel request. */
  heartbeat(
    id: string,
    holder: string,
    options: { leaseMs: number; progress?: JobData | null },
  ): Promise<Heartbeat>;
  /** Ends the holder's run as `outcome`; false when the holder no longer had the job. */
  finish(id: string, holder: string, outcome: JobOutcome): Promise<boolean>;
  /** One job, or undefined. */
  getJob(id: string): Promise<JobRecord | undefined>;
  /** Jobs, newest first. */
  listJobs(filter: JobFilter): Promise<JobPage>;
  /**
   * Queues a failed or cancelled job again with a fresh attempt budget (NOT_FOUND when absent,
   * CONFLICT when it is queued, running or succeeded).
   */
  retryJob(id: string): Promise<JobRecord>;
  /**
   * Cancels a queued job at once; asks a running one to stop at its next checkpoint (NOT_FOUND
   * when absent, CONFLICT when it already finished).
   */
  cancelJob(id: string): Promise<JobRecord>;
  /** How many jobs are in each state. */
  jobCounts(): Promise<Record<JobState, number>>;

  /**
   * Records that an item's work failed at `version`: attempts + 1, and either a retry after
   * `retryInMs` or, with null, no retry until `retryItemFailures`.
   */
  recordItemFailure(
    failure: { space: string; item_id: string; work: ItemWork; version: number; error: string },
    retryInMs: (attempts: number) => number | null,
  ): Promise<ItemFailure>;
  /** Forgets the failures of items whose work succeeded. */
  clearItemFailures(work: ItemWork, itemIds: readonly string[]): Promise<void>;
  /** Recorded failures, newest first (all spaces when none given). */
  listItemFailures(filter: {
    work?: ItemWork;
    spaces?: readonly string[];
    limit: number;
  }): Promise<ItemFailure[]>;
  /** Makes failed items due again now (all, or these ids); returns how many. */
  retryItemFailures(filter: {
    work?: ItemWork;
    spaces?: readonly string[];
    itemIds?: readonly string[];
  }): Promise<number>;
}
