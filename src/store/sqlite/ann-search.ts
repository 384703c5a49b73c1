/**
 * The SQLite store's vector search: exact scan of the in-memory mirror for small stores, the HNSW
 * index above `store.ann.min_items` vectors, filters applied by over-fetching and checking the
 * candidates in SQL, and the exact path for filters too selective for over-fetching. Reports when
 * a search that should have been approximate ran exactly because the index was not usable.
 */
import type { ItemFilter } from '../../domain/filter.js';
import type { ScoredId, VectorSearchResult } from '../store.js';
import { IndexFiles } from './ann-index.js';
import { type AnnStatus, ModelAnn } from './ann-model.js';
import type { SqliteDatabase } from './database.js';
import type { ReadCache } from './read-cache.js';
import { compileFilter } from './rows.js';
import { Statements } from './statements.js';
import type { VectorHit } from './top-k.js';
import { VectorCache } from './vector-cache.js';

/** Approximate-index settings (config `store.ann`). */
export interface AnnOptions {
  /** Use an HNSW index at all (false: always the exact scan). */
  enabled: boolean;
  /** Vectors of a model (all spaces) from which the index is used. */
  min_items: number;
  /** HNSW links per node. */
  m: number;
  /** Candidate list size while building. */
  ef_construction: number;
  /** Candidate list size while searching (at least the number of candidates wanted). */
  ef_search: number;
  /**
   * Changes not yet in the index that a search scans exactly beside it; beyond this many the
   * index counts as stale (or, while first built, unavailable) and search runs the exact scan.
   */
  max_pending: number;
}

/** Defaults of `store.ann`, chosen with bench/scale (see bench/results/scale-*.md). */
export const ANN_DEFAULTS: AnnOptions = {
  enabled: true,
  min_items: 20_000,
  m: 16,
  ef_construction: 100,
  ef_search: 400,
  max_pending: 10_000,
};

/**
 * Candidates fetched before filtering, as a multiple of the limit (and at least FETCH_MIN): the
 * default statuses let nearly everything pass, and checking candidates costs per candidate.
 */
const OVERFETCH = 2;
const FETCH_MIN = 50;
/** A second, wider approximate fetch before giving up on over-fetching for a selective filter. */
const WIDEN = 10;
/** Spaces holding less than this fraction of a model's vectors are scanned exactly. */
const SMALL_SPACE = 0.1;

/** Vector search over the mirrors of every model searched so far. */
export class SqliteVectorSearch {
  private readonly caches = new Map<string, VectorCache>();
  private readonly anns = new Map<string, ModelAnn>();
  private readonly sql: Statements;
  /** One read transaction: the mirror, the index's catch-up and the filter see one snapshot. */
  private readonly inTransaction: (
    ...args: Parameters<SqliteVectorSearch['search']>
  ) => VectorSearchResult;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly storePath: string,
    private readonly options: AnnOptions,
    /** Filter checks of candidates kept between searches while nothing changes. */
    private readonly readCache?: ReadCache,
  ) {
    this.sql = new Statements(db);
    this.inTransaction = db.transaction((filter, model, vector, limit) =>
      this.searchIn(filter, model, vector, limit),
    );
  }

  /** Top `limit` items of the filter by cosine similarity to `vector`. */
  search(
    filter: ItemFilter,
    model: string,
    vector: Float32Array,
    limit: number,
  ): VectorSearchResult {
    if (limit <= 0) return { hits: [] };
    return this.inTransaction(filter, model, vector, limit);
  }

  private searchIn(
    filter: ItemFilter,
    model: string,
    vector: Float32Array,
    limit: number,
  ): VectorSearchResult {
    const cache = this.cacheFor(model, vector.length);
    cache.sync();
    const code = cache.spaceCode(filter.space);
    if (code === undefined) return { hits: [] };
    const where = compileFilter(filter);
    const keep = (hits: VectorHit[]) => this.keep(filter, where, hits);
    const wide = Math.max(limit * OVERFETCH, FETCH_MIN);
    const ann = this.worthIndex(cache, code) ? this.annFor(cache) : undefined;
    const first = ann
      ? ann.search(code, vector, wide)
      : { hits: cache.searchCode(code, vector, wide), approximate: false };
    let allowed = keep(first.hits);
    let hits = first.hits.filter((h) => allowed.has(h.pk));
    // Too few candidates passed the filter while the space holds more: widen, then go exact.
    if (hits.length < limit && first.hits.length < cache.spaceSize(code)) {
      if (ann && first.approximate) {
        const wider = ann.search(code, vector, Math.min(cache.size, wide * WIDEN));
        allowed = keep(wider.hits);
        hits = wider.hits.filter((h) => allowed.has(h.pk));
      }
      if (hits.length < limit) {
        allowed = this.allowedFor(where, model);
        hits = cache.searchAmong(code, vector, limit, allowed.keys());
      }
    }
    return this.answer(hits, allowed, limit, first.degraded);
  }

  private answer(
    hits: VectorHit[],
    allowed: Map<number, string>,
    limit: number,
    degraded: string | undefined,
  ): VectorSearchResult {
    const out: ScoredId[] = hits
      .slice(0, limit)
      .map((h) => ({ id: allowed.get(h.pk)!, score: h.score }));
    return degraded ? { hits: out, degraded } : { hits: out };
  }

  /** The candidates that pass the filter, by pk, with their ids. */
  private keep(
    filter: ItemFilter,
    where: ReturnType<typeof compileFilter>,
    hits: VectorHit[],
  ): Map<number, string> {
    if (hits.length === 0) return new Map();
    const pks = hits.map((h) => h.pk);
    const read = (missing: readonly number[]) => {
      const rows = this.sql
        .get(
          // CROSS JOIN keeps this a primary-key lookup per candidate; left to itself the planner
          // prefers the space index and scans the whole space.
          `SELECT i.pk, i.id FROM json_each(@pks) j CROSS JOIN items i ON i.pk = j.value WHERE ${where.sql}`,
        )
        .all({ ...where.params, pks: JSON.stringify(missing) }) as { pk: number; id: string }[];
      return new Map(rows.map((r) => [r.pk, r.id]));
    };
    return this.readCache?.usable() ? this.readCache.allowed(filter, pks, read) : read(pks);
  }

  /** Every item that passes the filter and has a vector of the model (the exact path). */
  private allowedFor(where: ReturnType<typeof compileFilter>, model: string): Map<number, string> {
    const rows = this.sql
      .get(
        // vector_state speaks of the published model; the searched one may differ.
        `SELECT i.pk, i.id FROM items i WHERE ${where.sql} AND EXISTS (SELECT 1 FROM vectors v WHERE v.item_pk = i.pk AND v.model = @v_model AND v.vector IS NOT NULL)`,
      )
      .all({ ...where.params, v_model: model }) as { pk: number; id: string }[];
    return new Map(rows.map((r) => [r.pk, r.id]));
  }

  private cacheFor(model: string, dimension: number): VectorCache {
    let cache = this.caches.get(model);
    if (!cache || cache.dimension !== dimension) {
      void this.anns.get(model)?.close();
      this.anns.delete(model);
      cache = new VectorCache(this.db, model, dimension);
      this.caches.set(model, cache);
    }
    return cache;
  }

  /** The model's index when the store is in its size range (attached on first need). */
  /**
   * Whether the index pays for this space: it has `min_items` vectors, and it is not a small part
   * of a shared index (a walk restricted to a space with a tenth of the vectors visits ten times
   * as many nodes, and the exact scan of so few is then cheaper: bench/scale).
   */
  private worthIndex(cache: VectorCache, code: number): boolean {
    const size = cache.spaceSize(code);
    return size >= this.options.min_items && size >= cache.size * SMALL_SPACE;
  }

  private annFor(cache: VectorCache): ModelAnn | undefined {
    if (!this.options.enabled || cache.size < this.options.min_items) return undefined;
    let ann = this.anns.get(cache.model);
    if (!ann) {
      const files =
        this.storePath === ':memory:'
          ? undefined
          : new IndexFiles(this.storePath, this.storeId(), cache.model, cache.dimension);
      ann = new ModelAnn(this.db, cache, files, this.options);
      ann.attach();
      this.anns.set(cache.model, ann);
    }
    return ann;
  }

  /**
   * Identity of the store file: when its first migration ran. An index saved beside a store that
   * was since deleted and created again (same path, new items) is not this store's.
   */
  private storeId(): string {
    const row = this.db
      .prepare('SELECT applied_at FROM schema_migrations ORDER BY version LIMIT 1')
      .get() as { applied_at: number } | undefined;
    return String(row?.applied_at ?? 0);
  }

  /** State of every model's index in use by this process. */
  status(): AnnStatus[] {
    return [...this.anns.values()].map((a) => a.status());
  }

  /**
   * Brings a model's index fully up to date and saves it (maintenance, benchmarks, tests): builds
   * it when the store is in the index's size range, whatever the background progress.
   */
  async flush(
    model: string,
    dimension: number,
    options: { yielding?: boolean } = {},
  ): Promise<AnnStatus | undefined> {
    const cache = this.cacheFor(model, dimension);
    const ann = this.db.transaction(() => {
      cache.sync();
      return this.annFor(cache);
    })();
    if (!ann) return undefined;
    await ann.flush(options);
    return ann.status();
  }

  /** Stops background index work and saves what is worth keeping. */
  async close(): Promise<void> {
    await Promise.all([...this.anns.values()].map((a) => a.close()));
    this.anns.clear();
    this.caches.clear();
  }
}
