/**
 * Per-item work failures on SQLite (§11): one row per item and kind of work, at the version that
 * failed, with its attempts and next retry time; listed and retried only while they still hold
 * (the item is at that version and still waits).
 */
import type { ItemFailure, ItemWork } from '../../domain/jobs.js';
import { failureRecord, type FailureRowValues } from '../job-rows.js';
import type { SqliteJobDeps } from './job-store.js';

type FailureRow = FailureRowValues;
const failureOf = failureRecord;
const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** The item-failure table of a SQLite store. */
export class SqliteItemFailures {
  constructor(
    private readonly deps: SqliteJobDeps,
    private readonly now: () => number,
  ) {}

  /** Records one more failure of an item's work (see JobStore.recordItemFailure). */
  record(
    failure: { space: string; item_id: string; work: ItemWork; version: number; error: string },
    retryInMs: (attempts: number) => number | null,
  ): Promise<ItemFailure> {
    return this.deps.write(() => {
      const db = this.deps.db;
      const now = this.now();
      const held = db
        .prepare('SELECT * FROM item_failures WHERE item_id = ? AND work = ?')
        .get(failure.item_id, failure.work) as FailureRow | undefined;
      // A failure of another version starts afresh: the item changed since.
      const same = held && held.version === failure.version;
      const attempts = same ? held.attempts + 1 : 1;
      const delay = retryInMs(attempts);
      db.prepare(
        `INSERT INTO item_failures (item_id, work, space, version, attempts, last_error, first_failed_at, last_failed_at, next_attempt_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (item_id, work) DO UPDATE SET space = excluded.space, version = excluded.version,
  attempts = excluded.attempts, last_error = excluded.last_error, first_failed_at = excluded.first_failed_at,
  last_failed_at = excluded.last_failed_at, next_attempt_at = excluded.next_attempt_at`,
      ).run(
        failure.item_id,
        failure.work,
        failure.space,
        failure.version,
        attempts,
        failure.error,
        same ? held.first_failed_at : now,
        now,
        delay === null ? null : now + delay,
      );
      return failureOf(
        db
          .prepare('SELECT * FROM item_failures WHERE item_id = ? AND work = ?')
          .get(failure.item_id, failure.work) as FailureRow,
      );
    });
  }

  /** Forgets the failures of items whose work succeeded. */
  async clear(work: ItemWork, itemIds: readonly string[]): Promise<void> {
    if (itemIds.length === 0) return;
    await this.deps.write(() => {
      const del = this.deps.db.prepare('DELETE FROM item_failures WHERE item_id = ? AND work = ?');
      for (const id of itemIds) del.run(id, work);
    });
  }

  /** Failures that still hold, newest first. */
  async list(filter: {
    work?: ItemWork;
    spaces?: readonly string[];
    limit: number;
  }): Promise<ItemFailure[]> {
    return this.deps.read(() => {
      const { where, args } = failureWhere(filter, 'f.');
      // Only failures that still hold: the item is at the failed version and still waits.
      const rows = this.deps.db
        .prepare(
          `SELECT f.* FROM item_failures f
JOIN items i ON i.id = f.item_id AND i.version = f.version AND i.vector_state = 'pending'
${where ? `${where} AND` : 'WHERE'} f.work = 'vector'
ORDER BY f.last_failed_at DESC, f.item_id LIMIT ?`,
        )
        .all(...args, filter.limit) as FailureRow[];
      return rows.map(failureOf);
    });
  }

  /** Makes failures that still hold due again now. */
  retry(filter: {
    work?: ItemWork;
    spaces?: readonly string[];
    itemIds?: readonly string[];
  }): Promise<number> {
    return this.deps.write(() => {
      const { where, args } = failureWhere(filter, 'f.');
      // Only failures that still hold, as listed: the item is at the failed version and waits.
      return this.deps.db
        .prepare(
          `UPDATE item_failures SET next_attempt_at = ?, attempts = 0 WHERE (item_id, work) IN (
SELECT f.item_id, f.work FROM item_failures f
JOIN items i ON i.id = f.item_id AND i.version = f.version AND i.vector_state = 'pending' ${where})`,
        )
        .run(this.now(), ...args).changes;
    });
  }
}

/** The WHERE clause of an item-failure filter; `t` prefixes the columns (a table alias). */
function failureWhere(
  filter: { work?: ItemWork; spaces?: readonly string[]; itemIds?: readonly string[] },
  t = '',
): { where: string; args: unknown[] } {
  const where: string[] = [];
  const args: unknown[] = [];
  const list = (column: string, values: readonly string[]) => {
    // An empty list matches nothing.
    where.push(values.length ? `${t}${column} IN (${marks(values.length)})` : '0');
    args.push(...values);
  };
  if (filter.work) {
    where.push(`${t}work = ?`);
    args.push(filter.work);
  }
  if (filter.spaces) list('space', filter.spaces);
  if (filter.itemIds) list('item_id', filter.itemIds);
  return { where: where.length ? `WHERE ${where.join(' AND ')}` : '', args };
}
