/**
 * Insights of a space on SQLite (the console's health page): three grouped reads, never a row per
 * item in JavaScript. Creations by UTC day and kind (everything before `since` as one day), items
 * by status and strength tenth, and status events by UTC day and new status.
 */
import {
  BEFORE_DAY,
  DAY_MS,
  foldInsights,
  type StatusStrengthRow,
  STRENGTH_BUCKETS,
} from '../insight-rows.js';
import type { DayCount, StoreInsights } from '../store.js';
import type { StoreCore } from './store-core.js';

// `+space`: a scan of the table in rowid order reads every row once, in page order; the space
// indexes would fetch each row by a lookup in created or body-hash order (2 to 4 times slower
// on 100k items of one space; a small space of a large multi-space store pays one table scan).
const CREATED_SQL = `SELECT CASE WHEN created_at < @since THEN ${BEFORE_DAY} ELSE created_at / ${DAY_MS} END AS day,
  kind AS key, count(*) AS count
FROM items WHERE +space = @space GROUP BY 1, 2`;

const STATUS_SQL = `SELECT coalesce(status, 'active') AS status,
  min(max(CAST(strength * ${STRENGTH_BUCKETS} AS INTEGER), 0), ${STRENGTH_BUCKETS - 1}) AS bucket,
  count(*) AS count
FROM items WHERE +space = @space GROUP BY 1, 2`;

const CHANGES_SQL = `SELECT e.at / ${DAY_MS} AS day, e.to_status AS key, count(*) AS count
FROM status_events e JOIN items i ON i.id = e.item_id
WHERE i.space = @space AND e.at >= @since GROUP BY 1, 2`;

/** Counts of a space over time (from epoch ms `since`) and its strength distribution. */
export async function insights(
  core: StoreCore,
  space: string,
  since: number,
): Promise<StoreInsights> {
  return core.read(() => {
    const params = { space, since };
    const created = core.prepared(CREATED_SQL).all(params) as DayCount[];
    const statuses = core.prepared(STATUS_SQL).all({ space }) as StatusStrengthRow[];
    const changes = core.prepared(CHANGES_SQL).all(params) as DayCount[];
    return foldInsights(created, statuses, changes);
  });
}
