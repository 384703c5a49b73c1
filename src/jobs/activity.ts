/**
 * The activity view of background work (§11): each job with its age apart from its run's duration
 * (an orphaned run, whose lease expired with no finish, ends at its last sign of life, or is
 * unknown), and repeated identical failures grouped into one line with a count and the first and
 * last time they were seen.
 */
import type { ItemFailure, ItemWork, JobKind, JobRecord } from '../domain/jobs.js';

/** A job as the activity view shows it. */
export interface JobView extends JobRecord {
  /** Since the job was created. */
  age_ms: number;
  /**
   * The current or last run: from its start to its finish, to now while it runs, or to its last
   * sign of life when orphaned; null when unknown (an orphan that never reported).
   */
  duration_ms: number | null;
  /** Running, but its lease expired with no finish: its process stopped. */
  orphaned: boolean;
}

/** Identical failures of jobs, grouped. */
export interface JobFailureGroup {
  kind: JobKind;
  error: string;
  count: number;
  first_seen: string;
  last_seen: string;
  /** The failed jobs, newest first (at most 20). */
  job_ids: string[];
}

/** Identical failures of items, grouped. */
export interface ItemFailureGroup {
  work: ItemWork;
  error: string;
  count: number;
  /** Items whose attempts are used up (they wait for an explicit retry). */
  exhausted: number;
  first_seen: string;
  last_seen: string;
  /** The failed items, most recent first (at most 20). */
  item_ids: string[];
}

const time = (iso: string | null) => (iso === null ? null : Date.parse(iso));

/** How the activity view shows a job at `now`. */
export function jobView(job: JobRecord, now: number): JobView {
  const runStart = time(job.run_started_at);
  const leaseEnd = time(job.lease_expires_at);
  const orphaned = job.state === 'running' && leaseEnd !== null && leaseEnd <= now;
  let end: number | null;
  if (job.state === 'running') end = orphaned ? time(job.heartbeat_at) : now;
  else end = time(job.finished_at) ?? time(job.heartbeat_at);
  return {
    ...job,
    age_ms: Math.max(0, now - Date.parse(job.created_at)),
    duration_ms: runStart === null || end === null ? null : Math.max(0, end - runStart),
    orphaned,
  };
}

const GROUP_IDS = 20;

/** Failed jobs grouped by kind and error, the most recent group first. */
export function groupJobFailures(jobs: readonly JobRecord[]): JobFailureGroup[] {
  const groups = new Map<string, JobFailureGroup>();
  for (const job of jobs) {
    if (job.state !== 'failed' || job.last_error === null) continue;
    const at = job.finished_at ?? job.heartbeat_at ?? job.created_at;
    const key = `${job.kind}\u0000${job.last_error}`;
    const group = groups.get(key);
    if (!group) {
      groups.set(key, {
        kind: job.kind,
        error: job.last_error,
        count: 1,
        first_seen: at,
        last_seen: at,
        job_ids: [job.id],
      });
      continue;
    }
    group.count++;
    if (at < group.first_seen) group.first_seen = at;
    if (at > group.last_seen) group.last_seen = at;
    if (group.job_ids.length < GROUP_IDS) group.job_ids.push(job.id);
  }
  return [...groups.values()].sort((a, b) => b.last_seen.localeCompare(a.last_seen));
}

/** Item failures grouped by work and error, the most recent group first. */
export function groupItemFailures(failures: readonly ItemFailure[]): ItemFailureGroup[] {
  const groups = new Map<string, ItemFailureGroup>();
  for (const f of failures) {
    const key = `${f.work}\u0000${f.last_error}`;
    const exhausted = f.next_attempt_at === null ? 1 : 0;
    const group = groups.get(key);
    if (!group) {
      groups.set(key, {
        work: f.work,
        error: f.last_error,
        count: 1,
        exhausted,
        first_seen: f.first_failed_at,
        last_seen: f.last_failed_at,
        item_ids: [f.item_id],
      });
      continue;
    }
    group.count++;
    group.exhausted += exhausted;
    if (f.first_failed_at < group.first_seen) group.first_seen = f.first_failed_at;
    if (f.last_failed_at > group.last_seen) group.last_seen = f.last_failed_at;
    if (group.item_ids.length < GROUP_IDS) group.item_ids.push(f.item_id);
  }
  return [...groups.values()].sort((a, b) => b.last_seen.localeCompare(a.last_seen));
}
