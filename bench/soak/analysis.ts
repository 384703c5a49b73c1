/**
 * The figures of a soak run from its raw samples: operations and errors per operation, p99 latency
 * of the first and the last minute and their ratio, resident memory after warm-up against the end,
 * and what the server logged.
 */
import type { MachineFacts } from '../lib/machine.js';

/** The operations of the load. */
export type OpName = 'recall' | 'remember' | 'revise' | 'forget' | 'export';

/** One operation as a client saw it. */
export interface Sample {
  op: OpName;
  /** Seconds since the load started, when it was sent. */
  at_s: number;
  ms: number;
  /** HTTP status, 0 for a network error. */
  status: number;
}

/** Latency figures of a set of samples, in milliseconds. */
export interface Latency {
  count: number;
  p50: number;
  p99: number;
}

/** One operation's figures. */
export interface OpFigures {
  count: number;
  errors: number;
  /** Error statuses and their counts. */
  statuses: Record<string, number>;
  first_minute: Latency;
  /** The minute after the warm-up. */
  after_warmup: Latency;
  last_minute: Latency;
  /** p99 of the last minute over p99 of the first. */
  drift: number;
  /** p99 of the last minute over p99 of the minute after the warm-up. */
  drift_after_warmup: number;
}

/** The figures of a soak run. */
export interface RunFigures {
  ops: Record<string, OpFigures>;
  all: OpFigures;
  rss: {
    samples: { at_s: number; mib: number }[];
    after_warmup_mib: number;
    end_mib: number;
    peak_mib: number;
    growth_pct: number;
  };
  server_log: { warnings: number; errors: number; first_lines: string[] };
  targets: { errors: boolean; drift: boolean; rss: boolean };
}

/** Everything a soak run records. */
export interface SoakResult extends RunFigures {
  machine: MachineFacts;
  load_average_after: number[];
  settings: Record<string, unknown>;
  seed_seconds: number;
  live_items_at_end: number;
  server_exit_code: number | null;
}

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

function latency(samples: readonly Sample[]): Latency {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? NaN;
  return { count: ms.length, p50: round(at(0.5)), p99: round(at(0.99)) };
}

function figures(samples: readonly Sample[], durationS: number, warmupS: number): OpFigures {
  const failed = samples.filter((s) => s.status < 200 || s.status >= 300);
  const statuses: Record<string, number> = {};
  for (const s of failed) statuses[s.status] = (statuses[s.status] ?? 0) + 1;
  const first = latency(samples.filter((s) => s.at_s < 60));
  const warm = latency(samples.filter((s) => s.at_s >= warmupS && s.at_s < warmupS + 60));
  const last = latency(samples.filter((s) => s.at_s >= durationS - 60));
  return {
    count: samples.length,
    errors: failed.length,
    statuses,
    first_minute: first,
    after_warmup: warm,
    last_minute: last,
    drift: round(last.p99 / first.p99),
    drift_after_warmup: round(last.p99 / warm.p99),
  };
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** RSS after warm-up (mean of the samples in the 15 s after it) against the end (last 15 s). */
function memory(rss: { at_s: number; mib: number }[], durationS: number, warmupS: number) {
  const window = (from: number, to: number) =>
    rss.filter((s) => s.at_s >= from && s.at_s <= to).map((s) => s.mib);
  const after = round(mean(window(warmupS, warmupS + 15)), 1);
  const end = round(mean(window(durationS - 15, Infinity)), 1);
  return {
    samples: rss,
    after_warmup_mib: after,
    end_mib: end,
    peak_mib: Math.max(...rss.map((s) => s.mib)),
    growth_pct: round(((end - after) / after) * 100, 1),
  };
}

/** The figures of a run from its samples, memory samples and server log lines. */
export function summarizeRun(
  samples: readonly Sample[],
  rss: { at_s: number; mib: number }[],
  log: readonly string[],
  durationS: number,
  warmupS: number,
): RunFigures {
  const names = [...new Set(samples.map((s) => s.op))].sort();
  const ops = Object.fromEntries(
    names.map((op) => [
      op,
      figures(
        samples.filter((s) => s.op === op),
        durationS,
        warmupS,
      ),
    ]),
  );
  const all = figures(samples, durationS, warmupS);
  const mem = memory(rss, durationS, warmupS);
  const warnings = log.filter((l) => l.startsWith('engram warn')).length;
  const errors = log.filter((l) => l.startsWith('engram error')).length;
  return {
    ops,
    all,
    rss: mem,
    server_log: { warnings, errors, first_lines: log.slice(0, 10) },
    targets: {
      errors: all.errors === 0,
      // From the first minute, and from the minute after warm-up (start-up work can hide a drift).
      drift: all.drift <= 1.5 && all.drift_after_warmup <= 1.5,
      rss: mem.growth_pct <= 10,
    },
  };
}
