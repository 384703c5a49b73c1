/**
 * The published model and the vector backfill as the PostgreSQL store offers them: which model is
 * published, publishing one under the schema lock, and the items waiting for vectors and their
 * storage. The row-level work is in model.ts.
 */
import type { ModelRecord } from '../../domain/records.js';
import type { PendingVector } from '../store.js';
import type { Queryable } from './database.js';
import { lockSchemaInTransaction } from './migrations.js';
import * as model from './model.js';
import type { PgStoreContext } from './store-context.js';

/** The model whose vectors recall uses, if one is published. */
export async function publishedModel(db: Queryable): Promise<ModelRecord | undefined> {
  const [row] = await db.query<ModelRecord>(
    'SELECT id, dimension, published_at FROM models WHERE published_at IS NOT NULL ORDER BY published_at DESC LIMIT 1',
  );
  return row ? { id: row.id, dimension: row.dimension, published_at: row.published_at } : undefined;
}

/** Publishes a model under the schema's migration lock, since publishing changes its indexes. */
export function publishModel(
  ctx: PgStoreContext,
  id: string,
  dimension: number,
  at: number,
): Promise<ModelRecord> {
  return ctx.db.transaction(async (tx) => {
    await lockSchemaInTransaction((sql, params) => tx.query(sql, params), ctx.schema);
    return model.publishModel(tx, { id, dimension, at });
  });
}

/**
 * Up to `limit` items waiting for a vector of the published model, oldest first; an item whose
 * embedding failed at its version waits for its retry time (the server's clock), and one whose
 * attempts are used up waits for an explicit retry.
 */
export async function pendingVectors(db: Queryable, limit: number): Promise<PendingVector[]> {
  const rows = await db.query<PendingVector>(
    `SELECT i.id, i.version, i.space, i.title, i.body, i.tags FROM items i
LEFT JOIN item_failures f ON f.item_id = i.id AND f.work = 'vector' AND f.version = i.version
WHERE i.vector_state = 'pending'
  AND (f.item_id IS NULL OR f.next_attempt_at <= floor(extract(epoch FROM now()) * 1000)::int8)
ORDER BY i.pk LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    id: r.id,
    version: r.version,
    space: r.space,
    title: r.title,
    body: r.body,
    tags: r.tags,
  }));
}

/** Stores vectors made for item versions, in one transaction; returns how many were kept. */
export function putVectors(
  ctx: PgStoreContext,
  modelId: string,
  entries: readonly { id: string; version: number; vector: Float32Array | null }[],
): Promise<number> {
  if (entries.length === 0) return Promise.resolve(0);
  return ctx.db.transaction((tx) => model.putVectors(tx, modelId, entries));
}
