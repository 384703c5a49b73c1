/**
 * How the jobs page names and measures background work: what each kind of job does, the tone of
 * each state, durations, and what a job's checkpointed progress says (a count and, when the job
 * reports one, its total).
 */
import type { Schemas } from '../../lib/api';

/** A job as the API returns it. */
export type Job = Schemas['Job'];
/** A kind of job. */
export type JobKind = Job['kind'];
/** A state of a job. */
export type JobState = Job['state'];

/** What each kind of job does, in the words of the person who owns the memories. */
export const KIND_INFO = {
  'vectors.backfill': 'Embeds memories that wait for a vector',
  'graph.catch_up': 'Extracts entities from new or changed memories',
  'graph.rebuild': 'Extracts every memory into the knowledge graph again',
  'lifecycle.maintain': 'Decay and status changes of memories',
  'models.rebuild': 'Re-embeds every memory with a new model',
  'dream.run': 'Consolidation run (dreaming)',
} satisfies Record<JobKind, string>;

/** Every kind of job, in the order the filter lists them. */
export const JOB_KINDS = Object.keys(KIND_INFO) as JobKind[];

/** Every state of a job, in the order a job goes through them. */
export const JOB_STATES: readonly JobState[] = [
  'queued',
  'running',
  'succeeded',
  'failed',
  'cancelled',
];

/** The badge tone of each state. */
export const STATE_TONE: Record<JobState, string> = {
  queued: 'wait',
  running: 'kind',
  succeeded: 'ok',
  failed: 'danger',
  cancelled: 'off',
};

/** A job that is waiting or working (the page refreshes while one is listed). */
export function isActive(job: { state: JobState }): boolean {
  return job.state === 'queued' || job.state === 'running';
}

/** "850 ms", "12 s", "3 min 4 s", "2 h 5 min", "3 d 4 h". */
export function duration(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms)) return 'unknown';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** Progress keys that are bookkeeping, not something a person reads. */
const HIDDEN_KEYS = new Set(['cursor', 'model', 'run_id', 'space']);

/** A job's checkpointed progress in a line: "embedded 412 · failed 0 · pass 1". */
export function progressText(progress: Job['progress']): string | null {
  if (!progress) return null;
  const parts = Object.entries(progress).flatMap(([key, value]) => {
    if (HIDDEN_KEYS.has(key)) return [];
    const name = key.replaceAll('_', ' ');
    if (typeof value === 'number') return [`${name} ${value.toLocaleString()}`];
    if (typeof value === 'string' && value.length <= 40) return [`${name}: ${value}`];
    if (value === true) return [name];
    return [];
  });
  return parts.length ? parts.join(' · ') : null;
}

/** The done count and total of a job's progress, when it reports both. */
export function progressRatio(progress: Job['progress']): { value: number; max: number } | null {
  if (!progress) return null;
  const done = progress.done ?? progress.embedded;
  const total = progress.total ?? progress.items;
  if (typeof done !== 'number' || typeof total !== 'number' || total <= 0) return null;
  return { value: Math.min(done, total), max: total };
}

/** Pretty JSON of a job's payload or progress. */
export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
