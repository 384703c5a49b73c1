/**
 * Places recall samples on a transition's timeline by the time each was sent, and summarises each
 * window: before the rebuild started (baseline), from its start (process spawned, or `useModel`
 * called in process) until `runJobHere` (startup), while the job filled the new model's vectors
 * and built its index (during; index: the index part), across the swap call, and after it.
 */
import { percentile } from '../lib/metrics.js';
import type { RebuildTiming } from './rebuild.js';
import type { RecallSample } from './recall-loop.js';

/** Latency and outcome summary of the recalls of one window. */
export interface WindowStats {
  recalls: number;
  seconds: number;
  /** Recalls sent per second (a stalled process sends fewer). */
  per_s: number | null;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
  /** The longest a recall was sent after it was due (this process's event loop held up). */
  late_max_ms: number | null;
  failed: number;
  /** Recalls with any `degraded` entry, and how often each entry appeared. */
  degraded: number;
  degraded_reasons: Record<string, number>;
  errors: string[];
}

/** Every window of one run. */
export interface Windows {
  baseline: WindowStats;
  /** From the rebuild's start (process spawn, or `useModel` in process) until `runJobHere`. */
  startup: WindowStats;
  during: WindowStats;
  /** The part of `during` spent building the new model's index (after the vectors were filled). */
  index: WindowStats;
  swap: WindowStats;
  after: WindowStats;
  /** The first recall that started after the swap's commit, and the last degraded one after it. */
  first_after: { ms: number; degraded: string[] } | null;
  degraded_until_s: number | null;
  /** p95 during / p95 baseline. */
  p95_ratio: number | null;
  p50_ratio: number | null;
  /** Recalls sent per second during / without. */
  rate_ratio: number | null;
  /** Seconds from the baseline's start: rebuild start, runJobHere, index build, swap. */
  marks: Record<string, number | null>;
  timeline: TimelinePoint[];
}

const round = (x: number) => Math.round(x * 100) / 100;

/** The summary of some samples over `seconds`. */
export function stats(samples: readonly RecallSample[], seconds: number): WindowStats {
  const ok = samples.filter((s) => s[2] === null).map((s) => s[1]);
  const reasons: Record<string, number> = {};
  for (const s of samples) for (const r of s[3]) reasons[r] = (reasons[r] ?? 0) + 1;
  const q = (p: number) => (ok.length ? round(percentile(ok, p)) : null);
  return {
    recalls: samples.length,
    seconds: round(seconds),
    per_s: seconds > 0 ? round(samples.length / seconds) : null,
    p50_ms: q(50),
    p95_ms: q(95),
    p99_ms: q(99),
    max_ms: ok.length ? Math.max(...ok) : null,
    late_max_ms: samples.length ? Math.max(...samples.map((s) => s[4])) : null,
    failed: samples.length - ok.length,
    degraded: samples.filter((s) => s[3].length > 0).length,
    degraded_reasons: reasons,
    errors: [...new Set(samples.flatMap((s) => (s[2] ? [s[2]] : [])))].slice(0, 5),
  };
}

const ratio = (a: number | null, b: number | null) =>
  a !== null && b !== null && b > 0 ? round(a / b) : null;

/**
 * Samples that started within [from, to): a recall belongs to the window it was sent in, so a
 * recall held up by the rebuild counts there with its whole wait.
 */
function within(samples: readonly RecallSample[], from: number, to: number): RecallSample[] {
  return samples.filter((s) => s[0] >= from && s[0] < to);
}

/** Per second from `from`: [second, recalls started, slowest ms of them]. */
export type TimelinePoint = [second: number, recalls: number, max_ms: number];

/** The recalls per second of a run, for plotting stalls (seconds since `from`). */
function timelineOf(samples: readonly RecallSample[], from: number): TimelinePoint[] {
  const points = new Map<number, TimelinePoint>();
  for (const [at, ms] of samples) {
    const second = Math.floor((at - from) / 1000);
    const p = points.get(second) ?? [second, 0, 0];
    p[1]++;
    p[2] = Math.max(p[2], Math.round(ms));
    points.set(second, p);
  }
  return [...points.values()].sort((a, b) => a[0] - b[0]);
}

function marks(from: number, at: Record<string, number | null>): Record<string, number | null> {
  return Object.fromEntries(
    Object.entries(at).map(([k, v]) => [k, v === null ? null : round((v - from) / 1000)]),
  );
}

/**
 * Splits the samples of one run by the time each recall was sent: baseline from `baselineFrom` until the rebuild process was
 * spawned, during from `runJobHere` until the final swap call started (index from the index
 * build's start), swap for the recalls overlapping that call, after from its end for `afterMs`.
 */
export function windows(
  samples: readonly RecallSample[],
  timeline: { baselineFrom: number; spawnedAt: number; afterMs: number },
  t: RebuildTiming,
): Windows {
  const swapStart = t.swap_started_at ?? t.ended_at;
  const swapEnd = t.swap_ended_at ?? t.ended_at;
  const afterEnd = swapEnd + timeline.afterMs;
  const baseline = within(samples, timeline.baselineFrom, timeline.spawnedAt);
  const during = within(samples, t.started_at, swapStart);
  const indexStart = t.index_calls[0]?.started_at ?? swapStart;
  const swap = samples.filter((s) => s[0] < swapEnd && s[0] + s[1] >= swapStart);
  const after = within(samples, swapEnd, afterEnd);
  const lastDegraded = after.filter((s) => s[3].length > 0).pop();
  const b = stats(baseline, (timeline.spawnedAt - timeline.baselineFrom) / 1000);
  const d = stats(during, (swapStart - t.started_at) / 1000);
  return {
    baseline: b,
    startup: stats(
      within(samples, timeline.spawnedAt, t.started_at),
      (t.started_at - timeline.spawnedAt) / 1000,
    ),
    during: d,
    index: stats(within(samples, indexStart, swapStart), (swapStart - indexStart) / 1000),
    swap: stats(swap, (swapEnd - swapStart) / 1000),
    after: stats(after, timeline.afterMs / 1000),
    first_after: after[0] ? { ms: after[0][1], degraded: after[0][3] } : null,
    degraded_until_s: lastDegraded ? round((lastDegraded[0] - swapEnd) / 1000) : null,
    p95_ratio: ratio(d.p95_ms, b.p95_ms),
    p50_ratio: ratio(d.p50_ms, b.p50_ms),
    rate_ratio: ratio(d.per_s, b.per_s),
    marks: marks(timeline.baselineFrom, {
      rebuild_start: timeline.spawnedAt,
      run_job: t.started_at,
      index: t.index_calls[0]?.started_at ?? null,
      swap: t.swap_started_at,
      swap_end: t.swap_ended_at,
    }),
    timeline: timelineOf(samples, timeline.baselineFrom),
  };
}
