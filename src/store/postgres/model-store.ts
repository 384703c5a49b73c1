/**
 * Models and transitions on PostgreSQL (§8). Vector rows carry the item version they were made
 * from. The swap locks the model rows first: writers read the published model under a share lock
 * (writes.ts), so the swap waits for writers that saw the old model and later writers see the new
 * one; the missing count, the publication and the vector states then change in one transaction.
 */
import { EngramError } from '../../domain/errors.js';
import type { ModelCoverage, ModelSpec, StoredModel, SwapResult } from '../../domain/models.js';
import type { MissingVector, ModelStore } from '../model-store.js';
import type { PgDatabase, Queryable } from './database.js';
import { vectorStatesSql } from './model-schema.js';

/** Items (alias i) lacking a current vector of the model ($1), failed rebuilds left out. */
const MISSING = `NOT EXISTS (SELECT 1 FROM vectors v WHERE v.item_pk = i.pk AND v.model = $1 AND v.version = i.version)
AND NOT EXISTS (SELECT 1 FROM item_failures f WHERE f.item_id = i.id AND f.work = 'rebuild' AND f.version = i.version)`;

interface ModelRow {
  id: string;
  dimension: number;
  spec: ModelSpec | null;
  published_at: string | number | null;
  target_at: string | number | null;
  pruned_at?: string | number | null;
}

const ROLE_ORDER = { published: 0, target: 1, standby: 2 } as const;
const num = (v: string | number | null) => (v === null ? null : Number(v));

/** The PostgreSQL model store. */
export class PgModelStore implements ModelStore {
  constructor(
    private readonly db: PgDatabase,
    /** Builds a model's HNSW index (the store decides whether one pays at its size). */
    private readonly buildIndex: (model: string, dimension: number) => Promise<boolean>,
  ) {}

  prepareIndex(model: string, dimension: number): Promise<boolean> {
    return this.buildIndex(model, dimension);
  }

  async list(): Promise<StoredModel[]> {
    const rows = await this.db.query<ModelRow & { vectors: string }>(
      `SELECT m.id, m.dimension, m.spec, m.published_at, m.target_at, m.pruned_at,
  (SELECT count(*) FROM vectors v WHERE v.model = m.id) AS vectors FROM models m`,
    );
    const published = publishedId(rows);
    return rows
      .map(
        (r): StoredModel => ({
          id: r.id,
          dimension: r.dimension,
          spec: r.spec,
          role: r.id === published ? 'published' : r.target_at !== null ? 'target' : 'standby',
          published_at: num(r.published_at),
          target_at: num(r.target_at),
          pruned_at: num(r.pruned_at ?? null),
          vectors: Number(r.vectors),
        }),
      )
      .sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.id.localeCompare(b.id));
  }

  async targetId(): Promise<string | undefined> {
    const [row] = await this.db.query<{ id: string }>(
      'SELECT id FROM models WHERE target_at IS NOT NULL LIMIT 1',
    );
    return row?.id;
  }

  async setSpec(id: string, spec: ModelSpec): Promise<void> {
    await this.db.query('UPDATE models SET spec = $2::jsonb WHERE id = $1', [
      id,
      JSON.stringify(spec),
    ]);
  }

  async setTarget(
    model: { id: string; dimension: number; spec: ModelSpec },
    at: number,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query('SELECT id FROM models ORDER BY id FOR UPDATE');
      await tx.query('UPDATE models SET target_at = NULL WHERE id <> $1', [model.id]);
      await tx.query(
        `INSERT INTO models (id, dimension, published_at, spec, target_at) VALUES ($1, $2, NULL, $3::jsonb, $4)
ON CONFLICT (id) DO UPDATE SET dimension = excluded.dimension, spec = excluded.spec, target_at = coalesce(models.target_at, excluded.target_at)`,
        [model.id, model.dimension, JSON.stringify(model.spec), at],
      );
    });
  }

  async clearTarget(): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query('UPDATE models SET target_at = NULL');
      await tx.query("DELETE FROM item_failures WHERE work = 'rebuild'");
    });
  }

  async missing(model: string, afterPk: number, limit: number): Promise<MissingVector[]> {
    const rows = await this.db.query<MissingVector & { pk: string | number }>(
      `SELECT i.pk, i.id, i.version, i.space, i.title, i.body, i.tags FROM items i
WHERE i.pk > $2 AND ${MISSING} ORDER BY i.pk LIMIT $3`,
      [model, afterPk, limit],
    );
    return rows.map((r) => ({
      pk: Number(r.pk),
      id: r.id,
      version: r.version,
      space: r.space,
      title: r.title,
      body: r.body,
      tags: r.tags,
    }));
  }

  async coverage(model: string): Promise<ModelCoverage> {
    const [row] = await this.db.query<{ items: string; done: string; failed: string }>(
      `SELECT (SELECT count(*) FROM items) AS items,
  (SELECT count(*) FROM vectors v JOIN items i ON i.pk = v.item_pk AND i.version = v.version WHERE v.model = $1) AS done,
  (SELECT count(*) FROM item_failures f JOIN items i ON i.id = f.item_id AND i.version = f.version WHERE f.work = 'rebuild') AS failed`,
      [model],
    );
    return { items: Number(row!.items), done: Number(row!.done), failed: Number(row!.failed) };
  }

  swap(model: string, at: number): Promise<SwapResult> {
    return this.db.transaction((tx) => swapIn(tx, model, at));
  }

  prune(at: number): Promise<{ models: string[]; vectors: number }> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.query<ModelRow>(
        'SELECT id, published_at, target_at, pruned_at FROM models ORDER BY id FOR UPDATE',
      );
      const published = publishedId(rows);
      const gone = rows
        .filter(
          (r) => r.id !== published && r.target_at === null && num(r.pruned_at ?? null) === null,
        )
        .map((r) => r.id);
      if (gone.length === 0) return { models: [], vectors: 0 };
      const [deleted] = await tx.query<{ n: string }>(
        'WITH d AS (DELETE FROM vectors WHERE model = ANY($1::text[]) RETURNING 1) SELECT count(*) AS n FROM d',
        [gone],
      );
      await tx.query('UPDATE models SET pruned_at = $2 WHERE id = ANY($1::text[])', [gone, at]);
      return { models: gone, vectors: Number(deleted!.n) };
    });
  }
}

async function swapIn(tx: Queryable, model: string, at: number): Promise<SwapResult> {
  // Locking every model row waits out writers holding the published row's share lock.
  const rows = await tx.query<ModelRow>(
    'SELECT id, published_at, target_at FROM models ORDER BY id FOR UPDATE',
  );
  const previous = publishedId(rows);
  if (!rows.some((r) => r.id === model))
    throw new EngramError('NOT_FOUND', `model ${model} is not known to this store`);
  if (previous === model) return { swapped: true, missing: 0, previous };
  const [count] = await tx.query<{ n: string }>(
    `SELECT count(*) AS n FROM items i WHERE ${MISSING}`,
    [model],
  );
  const missing = Number(count!.n);
  if (missing > 0) return { swapped: false, missing, previous };
  // The latest published_at wins: the others keep theirs, for a rollback to the previous one.
  const latest = Math.max(...rows.map((r) => num(r.published_at) ?? 0));
  await tx.query(
    'UPDATE models SET published_at = $2, target_at = NULL, pruned_at = NULL WHERE id = $1',
    [model, Math.max(at, latest + 1)],
  );
  await tx.query(vectorStatesSql('$1::text'), [model]);
  await tx.query("DELETE FROM item_failures WHERE work = 'rebuild'");
  return { swapped: true, missing: 0, previous };
}

function publishedId(rows: readonly Pick<ModelRow, 'id' | 'published_at'>[]): string | undefined {
  let best: { id: string; at: number } | undefined;
  for (const r of rows) {
    const at = num(r.published_at);
    if (at !== null && (!best || at > best.at)) best = { id: r.id, at };
  }
  return best?.id;
}
