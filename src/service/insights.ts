/**
 * Facade of a space's insights for the console's health page: memories by kind and status changes
 * day by day (UTC) over the last N days with the current totals, the strength distribution of live
 * memories, and the recall latency this process measured since it started.
 */
import { z } from 'zod';

import { parseWith } from '../domain/zod.js';
import { DAY_MS, STRENGTH_BUCKETS } from '../store/insight-rows.js';
import type { DayCount, StoreInsights } from '../store/store.js';
import { optionsArg } from './args.js';
import type { ServiceContext } from './context.js';
import type { Percentiles, RecallLatency } from './recall-latency.js';

/** Days an insights request covers unless told. */
export const DEFAULT_INSIGHT_DAYS = 90;
/** Most days an insights request may cover. */
export const MAX_INSIGHT_DAYS = 3650;

const daysSchema = z
  .number({ message: 'must be a whole number of days' })
  .int({ message: 'must be a whole number of days' })
  .min(1, { message: 'must be at least 1' })
  .max(MAX_INSIGHT_DAYS, { message: `must be at most ${MAX_INSIGHT_DAYS}` })
  .optional();

/** One UTC day: memories by kind at its end, and status changes during it. */
export interface InsightDay {
  /** `YYYY-MM-DD` (UTC). */
  day: string;
  /** Memories of each kind created by the end of the day (any status; purged ones are gone). */
  kinds: Record<string, number>;
  /** Memories that changed to each status during the day. */
  status_changes: Record<string, number>;
}

/** A tenth of strength and how many live memories fall in it. */
export interface StrengthBucket {
  from: number;
  to: number;
  count: number;
}

/** One time bucket of recall latency. */
export interface LatencyPoint {
  /** When the bucket starts (ISO 8601). */
  start: string;
  count: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

/** The recall latency this process measured. */
export interface RecallLatencyInsight {
  /** When this process started measuring (ISO 8601). */
  since: string;
  capacity: number;
  served: number;
  count: number;
  overall: Percentiles | null;
  bucket_ms: number;
  buckets: LatencyPoint[];
}

/** A space's insights. */
export interface Insights {
  space: string;
  days: number;
  /** First and last day covered (`YYYY-MM-DD`, UTC; `to` is today). */
  from: string;
  to: string;
  totals: { items: number; by_kind: Record<string, number>; by_status: Record<string, number> };
  timeline: InsightDay[];
  strength: { live: number; buckets: StrengthBucket[] };
  recall_latency: RecallLatencyInsight;
}

/** The insights facade. */
export interface InsightsFacade {
  /**
   * Counts of a space over the last `days` UTC days (default 90, 1..3650), the strength
   * distribution of its live memories, and the recall latency this process measured.
   */
  insights(options?: { space?: string; days?: number }): Promise<Insights>;
}

/** The insights facade over a context and this process's recall latency recorder. */
export function insightsFacade(ctx: ServiceContext, latency: RecallLatency): InsightsFacade {
  return {
    async insights(given) {
      const options = optionsArg(given);
      const space = ctx.space(options.space);
      const days = parseWith(daysSchema, options.days, 'days') ?? DEFAULT_INSIGHT_DAYS;
      const today = Math.floor(ctx.now() / DAY_MS);
      const first = today - days + 1;
      const raw = await ctx.store.insights(space, first * DAY_MS);
      const byKind = sumByKey(raw.created, raw.kinds_before);
      return {
        space,
        days,
        from: isoDay(first),
        to: isoDay(today),
        totals: {
          items: Object.values(byKind).reduce((a, b) => a + b, 0),
          by_kind: byKind,
          by_status: raw.by_status,
        },
        timeline: timeline(first, today, raw),
        strength: strengthOf(raw.strength),
        recall_latency: latencyOf(latency),
      };
    },
  };
}

/** `YYYY-MM-DD` of a UTC day number. */
function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** Totals per key of day counts, on top of `start`. */
function sumByKey(rows: readonly DayCount[], start: Record<string, number> = {}) {
  const out: Record<string, number> = { ...start };
  for (const row of rows) out[row.key] = (out[row.key] ?? 0) + row.count;
  return out;
}

/** Day counts grouped by day, then key. */
function byDay(rows: readonly DayCount[]): Map<number, Map<string, number>> {
  const out = new Map<number, Map<string, number>>();
  for (const row of rows) {
    const day = out.get(row.day) ?? new Map<string, number>();
    day.set(row.key, (day.get(row.key) ?? 0) + row.count);
    out.set(row.day, day);
  }
  return out;
}

/** Every day from `first` to `last`: running totals by kind, status changes of the day. */
function timeline(first: number, last: number, raw: StoreInsights): InsightDay[] {
  const kinds = Object.keys(sumByKey(raw.created, raw.kinds_before)).sort();
  const statuses = Object.keys(sumByKey(raw.status_changes)).sort();
  const created = byDay(raw.created);
  const changed = byDay(raw.status_changes);
  const running = Object.fromEntries(kinds.map((k) => [k, raw.kinds_before[k] ?? 0]));
  const out: InsightDay[] = [];
  for (let day = first; day <= last; day++) {
    for (const [kind, n] of created.get(day) ?? []) running[kind] = (running[kind] ?? 0) + n;
    const changes = changed.get(day);
    out.push({
      day: isoDay(day),
      kinds: { ...running },
      status_changes: Object.fromEntries(statuses.map((s) => [s, changes?.get(s) ?? 0])),
    });
  }
  return out;
}

function strengthOf(counts: readonly number[]): Insights['strength'] {
  const buckets = Array.from({ length: STRENGTH_BUCKETS }, (_, i) => ({
    from: i / STRENGTH_BUCKETS,
    to: (i + 1) / STRENGTH_BUCKETS,
    count: counts[i] ?? 0,
  }));
  return { live: buckets.reduce((a, b) => a + b.count, 0), buckets };
}

function latencyOf(latency: RecallLatency): RecallLatencyInsight {
  const summary = latency.summary();
  return {
    ...summary,
    since: new Date(summary.since).toISOString(),
    buckets: summary.buckets.map((b) => ({
      start: new Date(b.start).toISOString(),
      count: b.count,
      p50: b.percentiles?.p50 ?? null,
      p95: b.percentiles?.p95 ?? null,
      p99: b.percentiles?.p99 ?? null,
    })),
  };
}
