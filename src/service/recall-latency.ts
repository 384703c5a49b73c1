/**
 * Recall latency of this process: a bounded ring of the most recent recall durations with their
 * times (the oldest drop out first), summarised as p50/p95/p99 overall and per time bucket for the
 * console's health page. Nothing is persisted: it covers this process since it started.
 */
import type { RecallFacade } from './recall.js';

/** Default number of recalls kept. */
export const LATENCY_CAPACITY = 10_000;
/** Most time buckets a summary draws. */
export const LATENCY_BUCKETS = 48;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Bucket widths a summary picks from: the narrowest that fits the span in LATENCY_BUCKETS. */
const STEPS = [MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR];

/** The 50th, 95th and 99th percentiles of a set of durations, in milliseconds. */
export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
}

/** One time bucket: when it starts (epoch ms), how many recalls fell in it, their percentiles. */
export interface LatencyBucket {
  start: number;
  count: number;
  percentiles: Percentiles | null;
}

/** What the recorder holds, summarised. */
export interface LatencySummary {
  /** When recording started (epoch ms): the process's start, in practice. */
  since: number;
  /** Most recalls kept; older ones drop out. */
  capacity: number;
  /** Recalls served since recording started. */
  served: number;
  /** Recalls kept and summarised (at most `capacity`). */
  count: number;
  overall: Percentiles | null;
  /** Width of each bucket in milliseconds. */
  bucket_ms: number;
  /**
   * Buckets from the start of recording (or, once some dropped out, the oldest kept recall) to
   * now, oldest first; empty ones included; none before the first recall.
   */
  buckets: LatencyBucket[];
}

/** Nearest-rank percentile of ascending `sorted` (not empty). */
function rank(sorted: readonly number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return Math.round(sorted[index]! * 100) / 100;
}

/** p50, p95 and p99 of some durations (nearest rank); null when there are none. */
export function percentiles(durations: readonly number[]): Percentiles | null {
  if (durations.length === 0) return null;
  const sorted = [...durations].sort((a, b) => a - b);
  return { p50: rank(sorted, 0.5), p95: rank(sorted, 0.95), p99: rank(sorted, 0.99) };
}

/** The narrowest bucket width that draws `span` ms in at most `max` buckets. */
export function bucketWidth(span: number, max = LATENCY_BUCKETS): number {
  // Buckets align to multiples of the width, so a span may touch one more than it covers.
  const fits = STEPS.find((step) => Math.ceil(span / step) + 1 <= max);
  return fits ?? Math.ceil(span / (max - 1) / DAY) * DAY;
}

/** A bounded ring of recent recall durations and when they ended. */
export class RecallLatency {
  /** When recording started (epoch ms). */
  readonly since: number;
  private readonly at: Float64Array;
  private readonly ms: Float64Array;
  private next = 0;
  private size = 0;
  private total = 0;

  constructor(
    readonly capacity = LATENCY_CAPACITY,
    private readonly now: () => number = Date.now,
  ) {
    this.since = now();
    this.at = new Float64Array(capacity);
    this.ms = new Float64Array(capacity);
  }

  /** Records one recall that took `durationMs`, ending now (or at `at`). */
  record(durationMs: number, at = this.now()): void {
    this.at[this.next] = at;
    this.ms[this.next] = durationMs;
    this.next = (this.next + 1) % this.capacity;
    this.size = Math.min(this.size + 1, this.capacity);
    this.total++;
  }

  /** The kept recalls, oldest first. */
  samples(): { at: number; ms: number }[] {
    const start = this.size < this.capacity ? 0 : this.next;
    return Array.from({ length: this.size }, (_, i) => {
      const slot = (start + i) % this.capacity;
      return { at: this.at[slot]!, ms: this.ms[slot]! };
    });
  }

  /** Percentiles overall and per time bucket, up to now. */
  summary(maxBuckets = LATENCY_BUCKETS): LatencySummary {
    const samples = this.samples();
    const now = Math.max(this.now(), samples.at(-1)?.at ?? 0);
    // The process's whole life while every recall is kept; from the oldest kept one after that.
    const kept = this.total === samples.length ? this.since : now;
    const oldest = Math.min(kept, samples[0]?.at ?? now);
    const width = bucketWidth(now - oldest, maxBuckets);
    const first = Math.floor(oldest / width);
    const groups = Array.from(
      { length: Math.floor(now / width) - first + 1 },
      () => [] as number[],
    );
    for (const s of samples) groups[Math.floor(s.at / width) - first]!.push(s.ms);
    return {
      since: this.since,
      capacity: this.capacity,
      served: this.total,
      count: samples.length,
      overall: percentiles(samples.map((s) => s.ms)),
      bucket_ms: width,
      buckets: samples.length === 0 ? [] : groups.map((g, i) => bucketOf(g, (first + i) * width)),
    };
  }
}

function bucketOf(durations: number[], start: number): LatencyBucket {
  return { start, count: durations.length, percentiles: percentiles(durations) };
}

/** The recall facade, timing each recall it serves into `latency` (failed ones are not counted). */
export function timedRecall(facade: RecallFacade, latency: RecallLatency): RecallFacade {
  return {
    ...facade,
    async recall(request) {
      const started = performance.now();
      const response = await facade.recall(request);
      latency.record(performance.now() - started);
      return response;
    },
  };
}
