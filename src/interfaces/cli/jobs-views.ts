/**
 * Human renderings of background jobs (§11): the activity view (counts, running and queued jobs,
 * failures grouped), a listing, and one job. A job's age is shown apart from its run's duration.
 */
import type { JobData, JobState } from '../../domain/jobs.js';
import type { JobView } from '../../jobs/activity.js';
import type { WorkerState } from '../../jobs/worker.js';
import type { JobActivity } from '../../service/jobs.js';
import { shorten } from './output.js';
import { table } from './table.js';

/** A span of time, short: `850 ms`, `12 s`, `4 min 5 s`, `3 h 10 min`, `2 d 4 h`. */
export function span(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const s = Math.floor(ms / 1_000);
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return s % 60 ? `${min} min ${s % 60} s` : `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 24) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** A stored time, to the second: `2025-01-31 09:15:02Z`. */
function when(iso: string | null): string {
  if (iso === null) return '-';
  return iso.replace('T', ' ').replace(/\.\d+(?=Z|[+-]\d\d:?\d\d$)/u, '');
}

/**
 * A job's run duration: `-` before its first run, `unknown` when it cannot be told, marked when
 * its process stopped.
 */
function duration(job: JobView): string {
  if (job.run_started_at === null) return '-';
  const shown = job.duration_ms === null ? 'unknown' : span(job.duration_ms);
  return job.orphaned ? `${shown} (orphaned)` : shown;
}

/** A job's progress as `key=value` pairs of its plain values. */
function progressText(progress: JobData | null, max = 40): string {
  if (!progress) return '-';
  const pairs = Object.entries(progress)
    .filter(([, v]) => v === null || typeof v !== 'object')
    .map(([k, v]) => `${k}=${String(v)}`);
  return pairs.length ? shorten(pairs.join(' '), max) : '-';
}

/** The counts line: `jobs: 2 queued, 1 running, ...`. */
function countsLine(counts: Record<JobState, number>): string {
  const parts = Object.entries(counts).map(([state, n]) => `${n} ${state}`);
  return `jobs: ${parts.join(', ')}`;
}

/** The worker of this process, in one line. */
export function workerLine(w: WorkerState): string {
  const error = w.last_error ? `, last error: ${shorten(w.last_error, 80)}` : '';
  return `worker ${w.holder}: ${w.status} (${w.runs} runs, ${w.failed_runs} failed${error})`;
}

function runningLines(jobs: readonly JobView[]): string[] {
  if (!jobs.length) return ['running: none'];
  const t = table(['id', 'kind', 'space', 'age', 'duration', 'progress'], { flex: 'progress' });
  for (const j of jobs)
    t.push([
      j.id,
      j.kind,
      j.space ?? '*',
      span(j.age_ms),
      duration(j),
      progressText(j.progress, 200),
    ]);
  return ['running:', t.toString()];
}

function queuedLines(jobs: readonly JobView[]): string[] {
  if (!jobs.length) return ['queued: none'];
  const t = table(['id', 'kind', 'space', 'age', 'next attempt', 'attempts']);
  for (const j of jobs)
    t.push([
      j.id,
      j.kind,
      j.space ?? '*',
      span(j.age_ms),
      when(j.next_attempt_at),
      `${j.attempts}/${j.max_attempts}`,
    ]);
  return ['queued:', t.toString()];
}

function recentLines(jobs: readonly JobView[]): string[] {
  if (!jobs.length) return [];
  const t = table(['id', 'kind', 'state', 'space', 'finished', 'duration', 'result'], {
    flex: 'result',
  });
  for (const j of jobs)
    t.push([
      j.id,
      j.kind,
      j.state,
      j.space ?? '*',
      when(j.finished_at),
      duration(j),
      j.state === 'succeeded' ? progressText(j.progress, 200) : (j.last_error ?? ''),
    ]);
  return ['recent:', t.toString()];
}

function failureLines(a: JobActivity): string[] {
  const lines: string[] = [];
  if (a.failures.length) {
    const t = table(['kind', 'count', 'first seen', 'last seen', 'error'], { flex: 'error' });
    for (const f of a.failures)
      t.push([f.kind, f.count, when(f.first_seen), when(f.last_seen), f.error]);
    lines.push('failed jobs (grouped):', t.toString());
  }
  if (a.item_failures.length) {
    const t = table(['work', 'count', 'exhausted', 'last seen', 'error'], { flex: 'error' });
    for (const f of a.item_failures)
      t.push([f.work, f.count, f.exhausted, when(f.last_seen), f.error]);
    lines.push('failed items (grouped; retry with: engram jobs retry --items):', t.toString());
  }
  return lines;
}

/** The text of `jobs`: counts, running, queued and recent jobs, and failures grouped. */
export function activityText(a: JobActivity): string {
  return [
    countsLine(a.counts),
    ...(a.worker ? [workerLine(a.worker)] : []),
    ...runningLines(a.running),
    ...queuedLines(a.queued),
    ...recentLines(a.recent),
    ...failureLines(a),
  ].join('\n');
}

/** The text of `jobs --state/--kind/--limit`: the matching jobs, newest first. */
export function listText(page: { jobs: JobView[]; next_cursor: string | null }): string {
  if (!page.jobs.length) return 'no jobs';
  const t = table(['id', 'kind', 'state', 'space', 'attempts', 'age', 'duration', 'error'], {
    flex: 'error',
  });
  for (const j of page.jobs)
    t.push([
      j.id,
      j.kind,
      j.state,
      j.space ?? '*',
      `${j.attempts}/${j.max_attempts}`,
      span(j.age_ms),
      duration(j),
      j.last_error ?? '-',
    ]);
  const more = page.next_cursor ? ['(more: raise --limit, or use --json for the cursor)'] : [];
  return [t.toString(), ...more].join('\n');
}

/** The text of `jobs show`: every field of one job. */
export function jobText(j: JobView): string {
  const rows: [string, string][] = [
    ['id', j.id],
    ['kind', j.kind],
    ['space', j.space ?? '* (whole store)'],
    ['state', `${j.state}${j.cancel_requested && j.state === 'running' ? ' (cancel asked)' : ''}`],
    ['attempts', `${j.attempts} of ${j.max_attempts}`],
    ['age', span(j.age_ms)],
    ['duration', duration(j)],
    ['created', when(j.created_at)],
    ['started', when(j.started_at)],
    ['run started', when(j.run_started_at)],
    ['last sign of life', when(j.heartbeat_at)],
    ['finished', when(j.finished_at)],
    ['next attempt', j.state === 'queued' ? when(j.next_attempt_at) : '-'],
    ['lease', j.lease_holder ? `${j.lease_holder} until ${when(j.lease_expires_at)}` : '-'],
    ['dedupe key', j.dedupe_key ?? '-'],
    ['payload', JSON.stringify(j.payload)],
    ['progress', j.progress ? shorten(JSON.stringify(j.progress), 200) : '-'],
    ['last error', j.last_error ?? '-'],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n');
}
