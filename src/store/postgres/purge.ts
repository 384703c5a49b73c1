/**
 * Purging an item on PostgreSQL: the item, its versions and vectors are deleted for good, its
 * relations are invalidated, and an audit row records who purged it and why.
 */
import { notFound } from '../../domain/errors.js';
import type { PgDatabase } from './database.js';

/** Who purged an item, why and when (kept in the purges table). */
export interface PurgeAudit {
  actor: string | null;
  reason: string | null;
  at: number;
}

/** Deletes an item and its history in one transaction; NOT_FOUND when it does not exist. */
export async function purge(
  db: PgDatabase,
  space: string,
  id: string,
  audit: PurgeAudit,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx.query<{ pk: number }>(
      'SELECT pk FROM items WHERE id = $1 AND space = $2 FOR UPDATE',
      [id, space],
    );
    if (!row) throw notFound('memory', id);
    // Relations before the item: relation rows are locked before the graph lock the item's
    // delete takes (graph-schema.ts), the order every write keeps.
    await tx.query(
      "UPDATE relations SET invalidated_at = $1, invalidated_reason = 'purged' WHERE (from_id = $2 OR to_id = $2) AND invalidated_at IS NULL",
      [audit.at, id],
    );
    await tx.query('DELETE FROM vectors WHERE item_pk = $1', [row.pk]);
    await tx.query('DELETE FROM versions WHERE item_id = $1', [id]);
    await tx.query('DELETE FROM item_failures WHERE item_id = $1', [id]);
    await tx.query('DELETE FROM items WHERE pk = $1', [row.pk]);
    await tx.query(
      'INSERT INTO purges (item_id, space, actor, reason, at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (item_id) DO NOTHING',
      [id, space, audit.actor, audit.reason, audit.at],
    );
  });
}
