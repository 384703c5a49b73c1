/**
 * Job and item-failure rows as both backends read them (times in epoch milliseconds of the
 * store's clock), turned into the records the job store returns (ISO times).
 */
import type {
  ItemFailure,
  ItemWork,
  JobData,
  JobKind,
  JobRecord,
  JobState,
} from '../domain/jobs.js';

/** A job row with its JSON and flags decoded. */
export interface JobRowValues {
  id: string;
  kind: string;
  space: string | null;
  payload: JobData;
  state: string;
  attempts: number;
  max_attempts: number;
  next_attempt_at: number;
  lease_holder: string | null;
  lease_expires_at: number | null;
  progress: JobData | null;
  last_error: string | null;
  cancel_requested: boolean;
  dedupe_key: string | null;
  created_at: number;
  started_at: number | null;
  run_started_at: number | null;
  heartbeat_at: number | null;
  finished_at: number | null;
}

/** An item-failure row. */
export interface FailureRowValues {
  item_id: string;
  work: string;
  space: string;
  version: number;
  attempts: number;
  last_error: string;
  first_failed_at: number;
  last_failed_at: number;
  next_attempt_at: number | null;
}

/** An epoch-ms time as ISO text, or null. */
export const isoTime = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The record of a job row. */
export function jobRecord(row: JobRowValues): JobRecord {
  return {
    id: row.id,
    kind: row.kind as JobKind,
    space: row.space,
    payload: row.payload,
    state: row.state as JobState,
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    next_attempt_at: isoTime(row.next_attempt_at)!,
    lease_holder: row.lease_holder,
    lease_expires_at: isoTime(row.lease_expires_at),
    progress: row.progress,
    last_error: row.last_error,
    cancel_requested: row.cancel_requested,
    dedupe_key: row.dedupe_key,
    created_at: isoTime(row.created_at)!,
    started_at: isoTime(row.started_at),
    run_started_at: isoTime(row.run_started_at),
    heartbeat_at: isoTime(row.heartbeat_at),
    finished_at: isoTime(row.finished_at),
  };
}

/** The record of an item-failure row. */
export function failureRecord(row: FailureRowValues): ItemFailure {
  return {
    space: row.space,
    item_id: row.item_id,
    work: row.work as ItemWork,
    version: row.version,
    attempts: row.attempts,
    last_error: row.last_error,
    first_failed_at: isoTime(row.first_failed_at)!,
    last_failed_at: isoTime(row.last_failed_at)!,
    next_attempt_at: isoTime(row.next_attempt_at),
  };
}
