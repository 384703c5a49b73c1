/**
 * Background jobs (§11): the persisted record of one piece of background work, the states it
 * moves through, and the failures of single items that background work records without stopping.
 */

/** States of a job. `queued` waits for its next attempt time; `running` is held under a lease. */
export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
/** State of a job. */
export type JobState = (typeof JOB_STATES)[number];

/** States a job ends in. */
export const FINISHED_JOB_STATES: readonly JobState[] = ['succeeded', 'failed', 'cancelled'];

/** The attempt budget of a job queued without one. */
export const DEFAULT_MAX_ATTEMPTS = 5;

/** Kinds of background work engram runs as jobs. */
export const JOB_KINDS = [
  'vectors.backfill',
  'graph.catch_up',
  'graph.rebuild',
  'lifecycle.maintain',
  'models.rebuild',
  'dream.run',
] as const;
/** Kind of a job. */
export type JobKind = (typeof JOB_KINDS)[number];

/** Free-form JSON of a job: its payload, or the progress it has checkpointed. */
export type JobData = Record<string, unknown>;

/** A persisted job. Times are ISO strings; `null` where the event has not happened. */
export interface JobRecord {
  id: string;
  kind: JobKind;
  /** The space the job works in, or null for work over the whole store. */
  space: string | null;
  payload: JobData;
  state: JobState;
  /** Failed runs so far (a run whose process died counts as failed); never reset by a restart. */
  attempts: number;
  /** Failed runs allowed before the job stays `failed`. */
  max_attempts: number;
  /** When a queued job may run next. */
  next_attempt_at: string;
  /** The process holding a running job, and until when its lease holds. */
  lease_holder: string | null;
  lease_expires_at: string | null;
  /** What the job has finished so far: the next run continues from here. */
  progress: JobData | null;
  /** Why the last run failed (kept after a later success for the activity view: see `state`). */
  last_error: string | null;
  /** A cancel was asked while the job ran; the runner stops it at its next checkpoint. */
  cancel_requested: boolean;
  /** Jobs with the same key are not queued twice: enqueueing returns the waiting one. */
  dedupe_key: string | null;
  created_at: string;
  /** When the first run started, and when the current (or last) run started. */
  started_at: string | null;
  run_started_at: string | null;
  /** The last sign of life of the current (or last) run: its start, a heartbeat or a checkpoint. */
  heartbeat_at: string | null;
  finished_at: string | null;
}

/** A job to enqueue. */
export interface NewJob {
  kind: JobKind;
  space?: string | null;
  payload?: JobData;
  /** Not queued again while a job with this key is queued or running. */
  dedupe_key?: string | null;
  max_attempts?: number;
  /** Earliest start, as a delay from now by the store's clock (ms); default 0. */
  delay_ms?: number;
}

/** Work done on single items that can fail item by item: the vector backfill, a model rebuild. */
export const ITEM_WORK = ['vector', 'rebuild'] as const;
/** A kind of per-item work. */
export type ItemWork = (typeof ITEM_WORK)[number];

/** The recorded failure of one item's background work, for one version of the item. */
export interface ItemFailure {
  space: string;
  item_id: string;
  work: ItemWork;
  /** The item version that failed; a revised item is tried afresh. */
  version: number;
  attempts: number;
  last_error: string;
  first_failed_at: string;
  last_failed_at: string;
  /** When it is tried again, or null once its attempts are used up (until an explicit retry). */
  next_attempt_at: string | null;
}
