/**
 * Insights of a space on PostgreSQL (the console's health page): three grouped reads, never a row
 * per item in JavaScript. Creations by UTC day and kind (everything before `since` as one day),
 * items by status and strength tenth, and status events by UTC day and new status.
 */
import {
  BEFORE_DAY,
  DAY_MS,
  foldInsights,
  type StatusStrengthRow,
  STRENGTH_BUCKETS,
} from '../insight-rows.js';
import type { DayCount, StoreInsights } from '../store.js';
import type { PgDatabase } from './database.js';

const CREATED_SQL = `SELECT CASE WHEN created_at < $2 THEN ${BEFORE_DAY} ELSE created_at / ${DAY_MS} END AS day,
  kind AS key, count(*) AS count
FROM items WHERE space = $1 GROUP BY 1, 2`;

const STATUS_SQL = `SELECT coalesce(status, 'active') AS status,
  least(greatest(floor(strength * ${STRENGTH_BUCKETS})::int, 0), ${STRENGTH_BUCKETS - 1}) AS bucket,
  count(*) AS count
FROM items WHERE space = $1 GROUP BY 1, 2`;

const CHANGES_SQL = `SELECT e.at / ${DAY_MS} AS day, e.to_status AS key, count(*) AS count
FROM status_events e JOIN items i ON i.id = e.item_id
WHERE i.space = $1 AND e.at >= $2 GROUP BY 1, 2`;

/** Counts of a space over time (from epoch ms `since`) and its strength distribution. */
export async function insights(
  db: PgDatabase,
  space: string,
  since: number,
): Promise<StoreInsights> {
  const [created, statuses, changes] = await Promise.all([
    db.query<DayCount & Record<string, unknown>>(CREATED_SQL, [space, since]),
    db.query<StatusStrengthRow & Record<string, unknown>>(STATUS_SQL, [space]),
    db.query<DayCount & Record<string, unknown>>(CHANGES_SQL, [space, since]),
  ]);
  return foldInsights(created, statuses, changes);
}
