/**
 * Models and transitions on SQLite (§8). Every vector row carries the item version it was made
 * from, so a model's missing vectors are the items without a row at their current version; the
 * swap checks that none is missing and publishes in the same immediate transaction, so no write
 * can slip between the check and the swap.
 */
import { EngramError } from '../../domain/errors.js';
import type { ModelCoverage, ModelSpec, StoredModel, SwapResult } from '../../domain/models.js';
import type { MissingVector, ModelStore } from '../model-store.js';
import type { SqliteDatabase } from './database.js';
import type { StoreCore } from './store-core.js';
import { recordVectorDeletion } from './vector-writes.js';

/** Schema step 7: the version stamp of vectors, the spec and target mark of models. */
export const MODEL_TRANSITION_SQL = `
ALTER TABLE vectors ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
UPDATE vectors SET version = coalesce((SELECT i.version FROM items i WHERE i.pk = vectors.item_pk), 0);
ALTER TABLE models ADD COLUMN spec TEXT;
ALTER TABLE models ADD COLUMN target_at INTEGER;
ALTER TABLE models ADD COLUMN pruned_at INTEGER;
-- Answers "has this item a current vector of that model?" without reading past the vector itself
-- (the version column comes after it in the row).
CREATE INDEX vectors_current ON vectors(model, item_pk, version, dimension);
`;

/** Items lacking a current vector of a model (@model), failed rebuilds left out. */
const MISSING = `NOT EXISTS (SELECT 1 FROM vectors v INDEXED BY vectors_current WHERE v.model = @model AND v.item_pk = i.pk AND v.version = i.version)
AND NOT EXISTS (SELECT 1 FROM item_failures f WHERE f.item_id = i.id AND f.work = 'rebuild' AND f.version = i.version)`;

interface ModelRow {
  id: string;
  dimension: number;
  spec: string | null;
  published_at: number | null;
  target_at: number | null;
  pruned_at: number | null;
}

/** The SQLite model store, over the store's connection and write queue. */
export class SqliteModelStore implements ModelStore {
  constructor(
    private readonly core: StoreCore,
    /** Builds and saves a model's HNSW index when the store is in its size range. */
    private readonly buildIndex: (model: string, dimension: number) => Promise<unknown>,
  ) {}

  async prepareIndex(model: string, dimension: number): Promise<boolean> {
    return (await this.buildIndex(model, dimension)) !== undefined;
  }

  private get db(): SqliteDatabase {
    return this.core.db;
  }

  async list(): Promise<StoredModel[]> {
    return this.core.read(() => {
      const rows = this.db
        .prepare('SELECT id, dimension, spec, published_at, target_at, pruned_at FROM models')
        .all() as ModelRow[];
      const counts = new Map(
        (
          this.db.prepare('SELECT model, count(*) AS n FROM vectors GROUP BY model').all() as {
            model: string;
            n: number;
          }[]
        ).map((r) => [r.model, r.n]),
      );
      const published = publishedId(rows);
      return rows
        .map((r) => storedModel(r, r.id === published, counts.get(r.id) ?? 0))
        .sort(byRole);
    });
  }

  async targetId(): Promise<string | undefined> {
    return this.core.read(
      () =>
        (
          this.db.prepare('SELECT id FROM models WHERE target_at IS NOT NULL').get() as
            | { id: string }
            | undefined
        )?.id,
    );
  }

  async setSpec(id: string, spec: ModelSpec): Promise<void> {
    await this.core.write(() => {
      this.db.prepare('UPDATE models SET spec = ? WHERE id = ?').run(JSON.stringify(spec), id);
    });
  }

  async setTarget(
    model: { id: string; dimension: number; spec: ModelSpec },
    at: number,
  ): Promise<void> {
    await this.core.write(() => {
      this.db.prepare('UPDATE models SET target_at = NULL WHERE id <> ?').run(model.id);
      this.db
        .prepare(
          `INSERT INTO models(id, dimension, published_at, spec, target_at) VALUES (?, ?, NULL, ?, ?)
ON CONFLICT(id) DO UPDATE SET dimension = excluded.dimension, spec = excluded.spec, target_at = coalesce(models.target_at, excluded.target_at)`,
        )
        .run(model.id, model.dimension, JSON.stringify(model.spec), at);
    });
  }

  async clearTarget(): Promise<void> {
    await this.core.write(() => {
      this.db.prepare('UPDATE models SET target_at = NULL').run();
      this.db.prepare("DELETE FROM item_failures WHERE work = 'rebuild'").run();
    });
  }

  async missing(model: string, afterPk: number, limit: number): Promise<MissingVector[]> {
    return this.core.read(() => {
      const rows = this.db
        .prepare(
          `SELECT i.pk, i.id, i.version, i.space, i.title, i.body, i.tags FROM items i
WHERE i.pk > @after AND ${MISSING} ORDER BY i.pk LIMIT @limit`,
        )
        .all({ model, after: afterPk, limit }) as (Omit<MissingVector, 'tags'> & {
        tags: string;
      })[];
      return rows.map((r) => ({ ...r, tags: JSON.parse(r.tags) as string[] }));
    });
  }

  async coverage(model: string): Promise<ModelCoverage> {
    return this.core.read(() => coverage(this.db, model));
  }

  async swap(model: string, at: number): Promise<SwapResult> {
    return this.core.write(() => {
      const rows = this.db
        .prepare('SELECT id, dimension, spec, published_at, target_at, pruned_at FROM models')
        .all() as ModelRow[];
      const previous = publishedId(rows);
      if (!rows.some((r) => r.id === model))
        throw new EngramError('NOT_FOUND', `model ${model} is not known to this store`);
      if (previous === model) return { swapped: true, missing: 0, previous };
      const missing = (
        this.db.prepare(`SELECT count(*) AS n FROM items i WHERE ${MISSING}`).get({ model }) as {
          n: number;
        }
      ).n;
      if (missing > 0) return { swapped: false, missing, previous };
      // The latest published_at wins: the others keep theirs, for a rollback to the previous one.
      const latest = Math.max(...rows.map((r) => r.published_at ?? 0));
      this.db
        .prepare(
          'UPDATE models SET published_at = ?, target_at = NULL, pruned_at = NULL WHERE id = ?',
        )
        .run(Math.max(at, latest + 1), model);
      this.db
        .prepare(
          // Only rows whose state changes are written; the dimension (0 for "nothing to embed")
          // answers without reading the vector itself.
          `WITH s AS (
  SELECT i.pk AS pk, CASE WHEN v.item_pk IS NULL THEN 'pending' WHEN v.dimension = 0 THEN 'empty' ELSE 'ready' END AS state
  FROM items i LEFT JOIN vectors v INDEXED BY vectors_current
    ON v.model = @model AND v.item_pk = i.pk AND v.version = i.version
)
UPDATE items SET vector_state = s.state FROM s WHERE s.pk = items.pk AND items.vector_state IS NOT s.state`,
        )
        .run({ model });
      // Items the rebuild failed on wait for the ordinary backfill under the new model.
      this.db.prepare("DELETE FROM item_failures WHERE work = 'rebuild'").run();
      return { swapped: true, missing: 0, previous };
    });
  }

  async prune(at: number): Promise<{ models: string[]; vectors: number }> {
    return this.core.write(() => {
      const rows = this.db
        .prepare('SELECT id, published_at, target_at, pruned_at FROM models')
        .all() as ModelRow[];
      const published = publishedId(rows);
      const gone = rows
        .filter((r) => r.id !== published && r.target_at === null && r.pruned_at === null)
        .map((r) => r.id);
      let vectors = 0;
      for (const id of gone) {
        const pks = this.db.prepare('SELECT item_pk FROM vectors WHERE model = ?').all(id) as {
          item_pk: number;
        }[];
        for (const { item_pk } of pks) recordVectorDeletion(this.core, item_pk, id);
        vectors += this.db.prepare('DELETE FROM vectors WHERE model = ?').run(id).changes;
        this.db.prepare('UPDATE models SET pruned_at = ? WHERE id = ?').run(at, id);
      }
      return { models: gone, vectors };
    });
  }
}

function coverage(db: SqliteDatabase, model: string): ModelCoverage {
  const items = (db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n;
  const done = (
    db
      .prepare(
        'SELECT count(*) AS n FROM items i JOIN vectors v INDEXED BY vectors_current ON v.model = ? AND v.item_pk = i.pk AND v.version = i.version',
      )
      .get(model) as { n: number }
  ).n;
  const failed = (
    db
      .prepare(
        "SELECT count(*) AS n FROM item_failures f JOIN items i ON i.id = f.item_id AND i.version = f.version WHERE f.work = 'rebuild'",
      )
      .get() as { n: number }
  ).n;
  return { items, done, failed };
}

/** The published model of a set of rows: the latest published. */
function publishedId(rows: readonly Pick<ModelRow, 'id' | 'published_at'>[]): string | undefined {
  let best: Pick<ModelRow, 'id' | 'published_at'> | undefined;
  for (const r of rows)
    if (r.published_at !== null && (!best || r.published_at > best.published_at!)) best = r;
  return best?.id;
}

/** A model row as the API reports it. */
export function storedModel(row: ModelRow, published: boolean, vectors: number): StoredModel {
  return {
    id: row.id,
    dimension: row.dimension,
    spec: row.spec ? (JSON.parse(row.spec) as ModelSpec) : null,
    role: published ? 'published' : row.target_at !== null ? 'target' : 'standby',
    published_at: row.published_at,
    target_at: row.target_at,
    pruned_at: row.pruned_at,
    vectors,
  };
}

const ROLE_ORDER = { published: 0, target: 1, standby: 2 } as const;

/** Published first, then the target, then standbys by id. */
export function byRole(a: StoredModel, b: StoredModel): number {
  return ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.id.localeCompare(b.id);
}
