/**
 * Purge in the SQLite store: removes one item with its versions and vectors for good, invalidates
 * its live relations and leaves an audit row of who purged it and why; then scrubs the file so no
 * copy of the text is recoverable from it (free pages, full-text segments, the WAL), and the
 * approximate index files beside it so no copy of its vectors is.
 */
import { notFound } from '../../domain/errors.js';
import { scrubIndexFiles } from './ann-scrub.js';
import { rowById } from './item-reads.js';
import type { StoreCore } from './store-core.js';
import { recordVectorDeletion } from './vector-writes.js';

/** Who purged an item, why and when. */
export interface PurgeAudit {
  actor: string | null;
  reason: string | null;
  at: number;
}

/** Removes one item for good; NOT_FOUND when it does not exist in the space. */
export async function purge(
  core: StoreCore,
  space: string,
  id: string,
  audit: PurgeAudit,
): Promise<void> {
  const pk = await core.write(() => {
    const row = rowById(core, space, id);
    if (!row) throw notFound('memory', id);
    deleteVectors(core, row.pk);
    core.db.prepare('DELETE FROM versions WHERE item_id = ?').run(id);
    core.db.prepare('DELETE FROM item_failures WHERE item_id = ?').run(id);
    core.db.prepare('DELETE FROM items WHERE pk = ?').run(row.pk);
    core.db
      .prepare(
        "UPDATE relations SET invalidated_at = ?, invalidated_reason = 'purged' WHERE (from_id = ? OR to_id = ?) AND invalidated_at IS NULL",
      )
      .run(audit.at, id, id);
    core.db
      .prepare(
        'INSERT INTO purges(item_id, space, actor, reason, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT(item_id) DO NOTHING',
      )
      .run(id, space, audit.actor, audit.reason, audit.at);
    return row.pk;
  });
  scrub(core);
  await scrubIndexFiles(core.path, [pk]);
}

/**
 * Leaves no copy of purged text behind: merges the full-text indexes (items, session turns) into
 * one segment each (dropping the deleted tokens, which older segments still hold; the freed pages
 * are zeroed by secure_delete), then checkpoints the WAL into the file and truncates it.
 */
export function scrub(core: StoreCore): void {
  core.db.prepare("INSERT INTO items_fts(items_fts) VALUES ('optimize')").run();
  for (const table of ['session_turns_fts'])
    if (core.db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(table))
      core.db.prepare(`INSERT INTO ${table}(${table}) VALUES ('optimize')`).run();
  core.db.pragma('wal_checkpoint(TRUNCATE)');
}

/** Deletes every vector of the item and records each deletion for the vector mirrors. */
function deleteVectors(core: StoreCore, pk: number): void {
  const models = core.db.prepare('SELECT model FROM vectors WHERE item_pk = ?').all(pk) as {
    model: string;
  }[];
  core.db.prepare('DELETE FROM vectors WHERE item_pk = ?').run(pk);
  for (const { model } of models) recordVectorDeletion(core, pk, model);
}
