/**
 * The published model and vectors on PostgreSQL: publishing (one model), storing vectors for the
 * versions they were made from, and access accounting. Rows are locked in pk order, so concurrent writers queue instead of deadlocking.
 */
import { EngramError } from '../../domain/errors.js';
import type { ModelRecord } from '../../domain/records.js';
import type { AccessCount } from '../store.js';
import type { Queryable } from './database.js';
import { publishedModelId, upsertVectors } from './writes.js';

/** Publishes a model (§8); the same model again is a no-op, another one a CONFLICT. */
export async function publishModel(
  tx: Queryable,
  model: { id: string; dimension: number; at: number },
): Promise<ModelRecord> {
  const current = await publishedModelId(tx);
  if (current === model.id) {
    const [row] = await tx.query<ModelRecord>(
      'SELECT id, dimension, published_at FROM models WHERE id = $1',
      [model.id],
    );
    return { id: row!.id, dimension: row!.dimension, published_at: row!.published_at };
  }
  if (current !== undefined)
    throw new EngramError(
      'CONFLICT',
      `model ${current} is published; switching models needs a transition`,
      { rule: 'one published model' },
    );
  await tx.query(
    'INSERT INTO models (id, dimension, published_at) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET published_at = excluded.published_at, dimension = excluded.dimension',
    [model.id, model.dimension, model.at],
  );
  await tx.query(
    `UPDATE items SET vector_state = CASE
  WHEN EXISTS (SELECT 1 FROM vectors v WHERE v.item_pk = items.pk AND v.model = $1 AND v.embedding IS NOT NULL) THEN 'ready'
  WHEN EXISTS (SELECT 1 FROM vectors v WHERE v.item_pk = items.pk AND v.model = $1) THEN 'empty'
  ELSE 'pending' END`,
    [model.id],
  );
  return { id: model.id, dimension: model.dimension, published_at: model.at };
}

/** Stores vectors where the item is still at the given version; returns how many were stored. */
export async function putVectors(
  tx: Queryable,
  model: string,
  entries: readonly { id: string; version: number; vector: Float32Array | null }[],
): Promise<number> {
  const published = await publishedModelId(tx);
  const rows = await tx.query<{ pk: number; id: string; version: number }>(
    'SELECT pk, id, version FROM items WHERE id = ANY($1::text[]) ORDER BY pk FOR UPDATE',
    [[...new Set(entries.map((e) => e.id))]],
  );
  const current = new Map(rows.map((r) => [r.id, r]));
  const valid = entries.filter((e) => current.get(e.id)?.version === e.version);
  const last = new Map(valid.map((e) => [e.id, e]));
  await upsertVectors(
    tx,
    [...last.values()].map((e) => ({ item_pk: current.get(e.id)!.pk, model, vector: e.vector })),
  );
  if (model === published && last.size > 0) {
    const ready = [...last.values()].filter((e) => e.vector).map((e) => current.get(e.id)!.pk);
    const empty = [...last.values()].filter((e) => !e.vector).map((e) => current.get(e.id)!.pk);
    await tx.query(
      "UPDATE items SET vector_state = CASE WHEN pk = ANY($1::int8[]) THEN 'ready' ELSE 'empty' END WHERE pk = ANY($1::int8[]) OR pk = ANY($2::int8[])",
      [ready, empty],
    );
  }
  return valid.length;
}

/** Adds each entry's accesses to its item: the rows are locked in pk order first. */
export async function recordAccess(
  tx: Queryable,
  space: string,
  counts: readonly AccessCount[],
): Promise<void> {
  await tx.query(
    `WITH a AS (SELECT * FROM unnest($2::text[], $3::int8[], $4::int8[]) AS a(id, n, at)),
locked AS (
  SELECT i.pk, a.n, a.at FROM items i JOIN a ON a.id = i.id
  WHERE i.space = $1 ORDER BY i.pk FOR UPDATE OF i
)
UPDATE items SET access_count = items.access_count + locked.n,
  last_accessed_at = GREATEST(coalesce(items.last_accessed_at, locked.at), locked.at)
FROM locked WHERE items.pk = locked.pk`,
    [space, counts.map((c) => c.id), counts.map((c) => c.count), counts.map((c) => c.at)],
  );
}
