/**
 * The published embedding model of the SQLite store and the vector backfill: which model is
 * published, publishing the first one, the items waiting for a vector and storing their vectors.
 */
import { EngramError } from '../../domain/errors.js';
import type { ModelRecord } from '../../domain/records.js';
import type { PendingVector } from '../store.js';
import type { StoreCore } from './store-core.js';
import { writeVector } from './vector-writes.js';

/** A vector computed for one item version, or null when its text had nothing to embed. */
export interface VectorEntry {
  id: string;
  version: number;
  vector: Float32Array | null;
}

/** The published model id, read inside a transaction. */
export function publishedModelId(core: StoreCore): string | undefined {
  const row = core
    .prepared(
      'SELECT id FROM models WHERE published_at IS NOT NULL ORDER BY published_at DESC LIMIT 1',
    )
    .get() as { id: string } | undefined;
  return row?.id;
}

/** The published model, if any. */
export async function publishedModel(core: StoreCore): Promise<ModelRecord | undefined> {
  return core.read(() => {
    const row = core.db
      .prepare(
        'SELECT id, dimension, published_at FROM models WHERE published_at IS NOT NULL ORDER BY published_at DESC LIMIT 1',
      )
      .get() as ModelRecord | undefined;
    return row ? { ...row } : undefined;
  });
}

/** Publishes the first model (idempotent for the same id) and recomputes every vector_state. */
export async function publishModel(
  core: StoreCore,
  id: string,
  dimension: number,
  at: number,
): Promise<ModelRecord> {
  return core.write(() => {
    const current = publishedModelId(core);
    if (current === id)
      return core.db
        .prepare('SELECT id, dimension, published_at FROM models WHERE id = ?')
        .get(id) as ModelRecord;
    if (current !== undefined)
      throw new EngramError(
        'CONFLICT',
        `model ${current} is published; switching models needs a transition`,
        { rule: 'one published model' },
      );
    core.db
      .prepare(
        'INSERT INTO models(id, dimension, published_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET published_at = excluded.published_at, dimension = excluded.dimension',
      )
      .run(id, dimension, at);
    core.db
      .prepare(
        "UPDATE items SET vector_state = CASE WHEN EXISTS (SELECT 1 FROM vectors v WHERE v.item_pk = items.pk AND v.model = ? AND v.vector IS NOT NULL) THEN 'ready' WHEN EXISTS (SELECT 1 FROM vectors v WHERE v.item_pk = items.pk AND v.model = ?) THEN 'empty' ELSE 'pending' END",
      )
      .run(id, id);
    return { id, dimension, published_at: at };
  });
}

/**
 * Items waiting for a vector, oldest first; an item whose embedding failed at its version waits
 * for its retry time, and one whose attempts are used up waits for an explicit retry.
 */
export async function pendingVectors(core: StoreCore, limit: number): Promise<PendingVector[]> {
  return core.read(() => {
    const rows = core.db
      .prepare(
        `SELECT i.id, i.version, i.space, i.title, i.body, i.tags FROM items i
LEFT JOIN item_failures f ON f.item_id = i.id AND f.work = 'vector' AND f.version = i.version
WHERE i.vector_state = 'pending' AND (f.item_id IS NULL OR f.next_attempt_at <= ?)
ORDER BY i.pk LIMIT ?`,
      )
      .all(Date.now(), limit) as (Omit<PendingVector, 'tags'> & { tags: string })[];
    return rows.map((r) => ({ ...r, tags: JSON.parse(r.tags) as string[] }));
  });
}

/** Stores computed vectors; an entry for a version that has since changed is skipped. */
export async function putVectors(
  core: StoreCore,
  model: string,
  entries: readonly VectorEntry[],
): Promise<number> {
  return core.write(() => {
    const published = publishedModelId(core);
    let stored = 0;
    for (const entry of entries) {
      const row = core.prepared('SELECT pk, version FROM items WHERE id = ?').get(entry.id) as
        | { pk: number; version: number }
        | undefined;
      if (!row || row.version !== entry.version) continue;
      writeVector(core, row.pk, { model, vector: entry.vector }, published);
      stored++;
    }
    return stored;
  });
}
