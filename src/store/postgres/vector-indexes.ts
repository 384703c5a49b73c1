/**
 * When the PostgreSQL store builds its HNSW index: only for the published model, and only once a
 * space has enough vectors for the index to pay (`store.ann.min_items`), because every insert into
 * an HNSW index costs far more than the row itself. Small tables are indexed at once; large ones
 * in the background with CREATE INDEX CONCURRENTLY, while searches scan exactly until it is valid.
 * One builder per schema at a time (an advisory lock); an index left invalid by a crash is rebuilt.
 */
import type pg from 'pg';

import type { Logger } from '../../domain/log.js';
import type { PgDatabase } from './database.js';
import { LOCK_CLASS_INDEX, lockKey } from './migrations.js';
import { vectorIndexName, vectorIndexSql } from './vector-index.js';

/** Below this many vectors an index is built inline: it takes well under a second. */
const INLINE_BELOW = 5_000;
/** How long a missing, failed or foreign build is believed before the catalog is asked again. */
const RECHECK_MS = 30_000;

type State = 'ready' | 'building' | 'unavailable';

/** The index state of each (model, dimension), and the builds this process runs. */
export class VectorIndexes {
  private readonly known = new Map<string, { state: State; at: number }>();
  private readonly builds = new Set<Promise<void>>();
  private readonly builders = new Set<pg.Client>();

  constructor(
    private readonly db: PgDatabase,
    private readonly schema: string,
    private readonly hnsw: { m: number; efConstruction: number },
    private readonly logger: Logger,
  ) {}

  /** True when the model's index can serve searches now; otherwise starts (or awaits) a build. */
  async ready(model: string, dimension: number, vectors: number): Promise<boolean> {
    const key = `${model}\u0000${dimension}`;
    const known = this.known.get(key);
    if (known?.state === 'ready') return true;
    if (known && Date.now() - known.at < RECHECK_MS) return false;
    if (!(await this.isPublished(model, dimension))) {
      this.known.set(key, { state: 'unavailable', at: Date.now() });
      return false;
    }
    if (await this.valid(model, dimension)) {
      this.known.set(key, { state: 'ready', at: Date.now() });
      return true;
    }
    this.known.set(key, { state: 'building', at: Date.now() });
    const build = this.build(model, dimension).finally(() => this.builds.delete(build));
    this.builds.add(build);
    if (vectors >= INLINE_BELOW) return false;
    await build;
    return this.known.get(key)?.state === 'ready';
  }

  /** Builds the published model's index now, waiting for it (maintenance and benchmarks). */
  async buildPublished(): Promise<boolean> {
    const [model] = await this.db.query<{ id: string; dimension: number }>(
      'SELECT id, dimension FROM models WHERE published_at IS NOT NULL ORDER BY published_at DESC LIMIT 1',
    );
    if (!model) return false;
    await this.build(model.id, model.dimension);
    return this.known.get(`${model.id}\u0000${model.dimension}`)?.state === 'ready';
  }

  /**
   * Builds a model's index now, published or not (a transition builds its target's index before
   * the swap, so the first searches after it are approximate at once). True when it is usable.
   */
  async buildFor(model: string, dimension: number): Promise<boolean> {
    if (dimension < 1 || dimension > 2_000) return false;
    await this.build(model, dimension);
    return this.valid(model, dimension);
  }

  private async isPublished(model: string, dimension: number): Promise<boolean> {
    if (dimension < 1 || dimension > 2_000) return false; // pgvector's HNSW limit for `vector`
    const rows = await this.db.query(
      'SELECT 1 FROM models WHERE id = $1 AND dimension = $2 AND published_at IS NOT NULL',
      [model, dimension],
    );
    return rows.length > 0;
  }

  private async valid(model: string, dimension: number): Promise<boolean> {
    const [row] = await this.db.query<{ valid: boolean }>(
      'SELECT x.indisvalid AND x.indisready AS valid FROM pg_index x WHERE x.indexrelid = to_regclass($1)',
      [vectorIndexName(model, dimension)],
    );
    return row?.valid === true;
  }

  private async build(model: string, dimension: number): Promise<void> {
    const key = `${model}\u0000${dimension}`;
    const name = vectorIndexName(model, dimension);
    let builder: pg.Client | undefined;
    try {
      const state = await this.db.dedicated(
        async (client) => {
          const lock = [LOCK_CLASS_INDEX, lockKey(this.schema)];
          const [got] = (await client.query('SELECT pg_try_advisory_lock($1, $2) AS ok', lock))
            .rows;
          if (!got?.ok) return 'building' as const; // another process is building it
          try {
            const [row] = (
              await client.query(
                'SELECT x.indisvalid AS valid FROM pg_index x WHERE x.indexrelid = to_regclass($1)',
                [name],
              )
            ).rows as { valid: boolean }[];
            if (row?.valid) return 'ready' as const;
            if (row) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
            await client.query("SET maintenance_work_mem = '256MB'");
            const started = Date.now();
            await client.query(vectorIndexSql(model, dimension, this.hnsw));
            this.logger.info('postgres: vector index built', {
              index: name,
              ms: Date.now() - started,
            });
            return 'ready' as const;
          } finally {
            await client.query('SELECT pg_advisory_unlock($1, $2)', lock).catch(() => {});
          }
        },
        (client) => this.builders.add((builder = client)),
      );
      this.known.set(key, { state, at: Date.now() });
    } catch (err) {
      this.logger.warn('postgres: the vector index could not be built; searches scan exactly', {
        index: name,
        error: err instanceof Error ? err.message : String(err),
      });
      this.known.set(key, { state: 'unavailable', at: Date.now() });
    } finally {
      if (builder) this.builders.delete(builder);
    }
  }

  /** Cancels builds this process runs (an unfinished index is rebuilt later) and waits for them. */
  async close(): Promise<void> {
    for (const client of this.builders) {
      const pid = (client as unknown as { processID?: number }).processID;
      if (pid) await this.db.query('SELECT pg_cancel_backend($1)', [pid]).catch(() => {});
    }
    await Promise.allSettled([...this.builds]);
  }
}
