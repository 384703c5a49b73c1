/**
 * Vector rows of the SQLite store: writing or clearing one item's vector, numbering each change so
 * the in-memory vector mirrors can catch up, and keeping the item's vector_state in step.
 */
import type { VectorWrite } from '../store.js';
import type { StoreCore } from './store-core.js';

/** The next number of the vector change sequence (read by the vector mirrors to catch up). */
export function nextVectorSeq(core: StoreCore): number {
  return (
    core
      .prepared("UPDATE counters SET value = value + 1 WHERE name = 'vector_seq' RETURNING value")
      .get() as { value: number }
  ).value;
}

/** Records that an item's vector for `model` was deleted, so the mirrors drop it. */
export function recordVectorDeletion(core: StoreCore, pk: number, model: string): void {
  core.db
    .prepare('INSERT INTO vector_deletions(seq, item_pk, model) VALUES (?, ?, ?)')
    .run(nextVectorSeq(core), pk, model);
}

/**
 * Writes (or clears) one item's vector, stamped with the item's current version (call it after the
 * item row has its new version), and keeps its vector_state in step.
 */
export function writeVector(
  core: StoreCore,
  pk: number,
  write: VectorWrite | 'pending',
  model: string | undefined,
): void {
  if (write === 'pending') {
    markPending(core, pk, model);
    return;
  }
  const blob = write.vector
    ? Buffer.from(write.vector.buffer, write.vector.byteOffset, write.vector.byteLength)
    : null;
  const dimension = write.vector?.length ?? 0;
  core
    .prepared(
      'INSERT INTO vectors(item_pk, model, dimension, vector, seq, version) VALUES (?, ?, ?, ?, ?, (SELECT version FROM items WHERE pk = ?)) ON CONFLICT(item_pk, model) DO UPDATE SET dimension = excluded.dimension, vector = excluded.vector, seq = excluded.seq, version = excluded.version',
    )
    .run(pk, write.model, dimension, blob, nextVectorSeq(core), pk);
  if (write.model === model)
    core
      .prepared('UPDATE items SET vector_state = ? WHERE pk = ?')
      .run(write.vector ? 'ready' : 'empty', pk);
}

/** Drops the item's vector of the published model (if any) and marks it waiting for a new one. */
function markPending(core: StoreCore, pk: number, model: string | undefined): void {
  if (model) {
    const had = core.db
      .prepare('DELETE FROM vectors WHERE item_pk = ? AND model = ?')
      .run(pk, model);
    if (had.changes > 0) recordVectorDeletion(core, pk, model);
  }
  core.db.prepare("UPDATE items SET vector_state = 'pending' WHERE pk = ?").run(pk);
}
