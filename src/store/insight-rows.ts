/**
 * What both backends share to answer `Store.insights`: the day length, the statuses that are not
 * live, and the fold of the grouped rows their SQL returns into a StoreInsights.
 */
import type { DayCount, StoreInsights } from './store.js';

/** Milliseconds in a UTC day: a day number is epoch ms divided by it, floored. */
export const DAY_MS = 86_400_000;

/** Statuses of memories that are no longer live (the strength distribution leaves them out). */
export const GONE_STATUSES = ['forgotten', 'merged', 'superseded'] as const;

/** Strength buckets: tenths of 0..1. */
export const STRENGTH_BUCKETS = 10;

/** The day of items created before `since` in the grouped creation rows. */
export const BEFORE_DAY = -1;

/** Items per current status and strength bucket, as the SQL groups them. */
export interface StatusStrengthRow {
  status: string;
  bucket: number;
  count: number;
}

/** Folds the grouped rows (creations by day and kind, statuses by bucket, status events). */
export function foldInsights(
  created: readonly DayCount[],
  statuses: readonly StatusStrengthRow[],
  changes: readonly DayCount[],
): StoreInsights {
  const kinds_before: Record<string, number> = {};
  for (const row of created.filter((r) => r.day === BEFORE_DAY))
    kinds_before[row.key] = (kinds_before[row.key] ?? 0) + row.count;
  const by_status: Record<string, number> = {};
  const strength = new Array<number>(STRENGTH_BUCKETS).fill(0);
  const gone: readonly string[] = GONE_STATUSES;
  for (const row of statuses) {
    by_status[row.status] = (by_status[row.status] ?? 0) + row.count;
    if (!gone.includes(row.status)) strength[row.bucket] = (strength[row.bucket] ?? 0) + row.count;
  }
  return {
    kinds_before,
    created: created.filter((r) => r.day !== BEFORE_DAY),
    status_changes: [...changes],
    by_status,
    strength,
  };
}
