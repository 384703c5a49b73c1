/**
 * Per-item work failures on PostgreSQL (§11): one row per item and kind of work, at the version
 * that failed, with its attempts and next retry time by the server's clock; listed and retried
 * only while they still hold (the item is at that version and still waits).
 */
import type { ItemFailure, ItemWork } from '../../domain/jobs.js';
import { failureRecord, type FailureRowValues } from '../job-rows.js';
import type { PgDatabase } from './database.js';
import { errorText, ms, NOW, storable, whereOf } from './job-sql.js';
import { Params } from './rows.js';

type FailureRow = FailureRowValues;
const failureOf = failureRecord;

/** Records one more failure of an item's work: a failure of another version starts afresh. */
const RECORD_FAILURE_SQL = `INSERT INTO item_failures AS f
(item_id, work, space, version, attempts, last_error, first_failed_at, last_failed_at, next_attempt_at)
VALUES ($1, $2, $3, $4, 1, $5, ${NOW}, ${NOW}, NULL)
ON CONFLICT (item_id, work) DO UPDATE SET space = excluded.space, version = excluded.version,
  attempts = CASE WHEN f.version = excluded.version THEN f.attempts + 1 ELSE 1 END,
  first_failed_at = CASE WHEN f.version = excluded.version THEN f.first_failed_at ELSE excluded.first_failed_at END,
  last_error = excluded.last_error, last_failed_at = excluded.last_failed_at, next_attempt_at = NULL
RETURNING attempts, last_failed_at`;

/** The conditions of an item-failure filter; `t` prefixes the columns (a table alias). */
function failureConditions(
  filter: { work?: ItemWork; spaces?: readonly string[]; itemIds?: readonly string[] },
  params: Params,
  t = '',
): string[] {
  const where: string[] = [];
  // An empty list matches nothing.
  const list = (column: string, values: readonly string[]) =>
    where.push(`${t}${column} = ANY(${params.add(values.filter(storable), '::text[]')})`);
  if (filter.work) where.push(`${t}work = ${params.add(filter.work)}`);
  if (filter.spaces) list('space', filter.spaces);
  if (filter.itemIds) list('item_id', filter.itemIds);
  return where;
}

/** The item-failure table of a PostgreSQL store. */
export class PgItemFailures {
  constructor(private readonly db: PgDatabase) {}

  /** Records one more failure of an item's work (see JobStore.recordItemFailure). */
  record(
    failure: { space: string; item_id: string; work: ItemWork; version: number; error: string },
    retryInMs: (attempts: number) => number | null,
  ): Promise<ItemFailure> {
    return this.db.transaction(async (tx) => {
      const [held] = await tx.query<{ attempts: number; last_failed_at: number }>(
        RECORD_FAILURE_SQL,
        [failure.item_id, failure.work, failure.space, failure.version, errorText(failure.error)],
      );
      const delay = retryInMs(held!.attempts);
      const [row] = await tx.query<FailureRow>(
        'UPDATE item_failures SET next_attempt_at = $3 WHERE item_id = $1 AND work = $2 RETURNING *',
        [failure.item_id, failure.work, delay === null ? null : held!.last_failed_at + ms(delay)],
      );
      return failureOf(row!);
    });
  }

  /** Forgets the failures of items whose work succeeded. */
  async clear(work: ItemWork, itemIds: readonly string[]): Promise<void> {
    const ids = itemIds.filter(storable);
    if (ids.length === 0) return;
    await this.db.query(
      'DELETE FROM item_failures WHERE work = $1 AND item_id = ANY($2::text[])',
      [work, ids],
      'write',
    );
  }

  /** Failures that still hold, newest first. */
  async list(filter: {
    work?: ItemWork;
    spaces?: readonly string[];
    limit: number;
  }): Promise<ItemFailure[]> {
    const params = new Params();
    const where = [...failureConditions(filter, params, 'f.'), "f.work = 'vector'"];
    // Only failures that still hold: the item is at the failed version and still waits.
    const rows = await this.db.query<FailureRow>(
      `SELECT f.* FROM item_failures f
JOIN items i ON i.id = f.item_id AND i.version = f.version AND i.vector_state = 'pending'
${whereOf(where)} ORDER BY f.last_failed_at DESC, f.item_id LIMIT ${params.add(filter.limit)}`,
      params.values,
    );
    return rows.map(failureOf);
  }

  /** Makes failures that still hold due again now. */
  async retry(filter: {
    work?: ItemWork;
    spaces?: readonly string[];
    itemIds?: readonly string[];
  }): Promise<number> {
    const params = new Params();
    const where = whereOf(failureConditions(filter, params, 'f.'));
    // Only failures that still hold, as listed: the item is at the failed version and waits.
    const [row] = await this.db.query<{ n: number }>(
      `WITH retried AS (UPDATE item_failures SET next_attempt_at = ${NOW}, attempts = 0
WHERE (item_id, work) IN (SELECT f.item_id, f.work FROM item_failures f
JOIN items i ON i.id = f.item_id AND i.version = f.version AND i.vector_state = 'pending' ${where})
RETURNING 1)
SELECT count(*) AS n FROM retried`,
      params.values,
      'write',
    );
    return row?.n ?? 0;
  }
}
