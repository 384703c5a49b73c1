/**
 * The PostgreSQL store (pg + pgvector) for teams: several stateless engram processes on one
 * database. It connects lazily (the first call connects and migrates), pools connections, bounds
 * every statement with a timeout, and maps failures to EngramErrors naming host:port, never the
 * password. Semantics match the SQLite store; differences are listed in docs/postgres.md.
 */
import type { ItemFilter } from '../../domain/filter.js';
import type {
  ItemExport,
  ItemRecord,
  ModelRecord,
  RelationRecord,
  StatusEventRecord,
  VersionRecord,
} from '../../domain/records.js';
import { type LeaseRows, runLease } from '../lease.js';
import type {
  AccessCount,
  CreateOutcome,
  ImportOutcome,
  ItemDraft,
  Lease,
  LeaseOutcome,
  ListQuery,
  MutationPlan,
  PendingVector,
  ScoredId,
  SessionTurn,
  SnapshotView,
  SpaceCount,
  Store,
  StoreCapabilities,
  StoreInsights,
  StoreStats,
} from '../store.js';
import { PgDormantStore } from './dormant-store.js';
import { PgDreamStore } from './dream-store.js';
import { PgGraphStore } from './graph-store.js';
import { insights } from './insights.js';
import * as reads from './item-reads.js';
import * as itemWrites from './item-writes.js';
import { PgJobStore } from './job-store.js';
import { pgLeaseRows } from './leases.js';
import { PgLifecycleStore } from './lifecycle-store.js';
import { PgModelStore } from './model-store.js';
import * as models from './published-model.js';
import { purge, type PurgeAudit } from './purge.js';
import * as searches from './searches.js';
import { PgSessionStore } from './session-store.js';
import {
  createStoreContext,
  type PgStoreContext,
  type PostgresStoreOptions,
} from './store-context.js';
import * as status from './store-stats.js';
import * as transfer from './transfer.js';

export type { PostgresStoreOptions } from './store-context.js';

/** Opens a PostgreSQL store; nothing connects until the first call. */
export function openPostgresStore(options: PostgresStoreOptions): PostgresStore {
  return new PostgresStore(options);
}

/** The Store implementation over node-postgres and pgvector. */
export class PostgresStore implements Store {
  readonly capabilities: StoreCapabilities = {
    backend: 'postgres',
    // Maintenance backs up a JSONL export of `snapshot` (one consistent transaction).
    onlineBackup: true,
  };
  readonly schema: string;
  /** Dormant-recall persistence (the dormant capability). */
  readonly dormant: PgDormantStore;
  /** Knowledge-graph persistence (the graph capability). */
  readonly graph: PgGraphStore;
  /** Decay, review, reinforcement and auto-recall persistence (the lifecycle capability). */
  readonly lifecycle: PgLifecycleStore;
  /** Background jobs and per-item work failures (§11). */
  readonly jobs: PgJobStore;
  /** Embedding models and their transitions (§8). */
  readonly models: PgModelStore;
  /** Past conversations, searched turn by turn (§1.4). */
  readonly sessions: PgSessionStore;
  /** Dream runs, their diaries and daily caps (§10). */
  readonly dreams: PgDreamStore;
  private readonly ctx: PgStoreContext;
  private readonly leases: LeaseRows;

  constructor(options: PostgresStoreOptions) {
    this.ctx = createStoreContext(options);
    this.schema = this.ctx.schema;
    this.leases = pgLeaseRows(this.ctx.db);
    this.dormant = new PgDormantStore(this.ctx.db);
    this.graph = new PgGraphStore(this.ctx.db);
    this.lifecycle = new PgLifecycleStore(this.ctx.db);
    this.jobs = new PgJobStore(this.ctx.db);
    this.sessions = new PgSessionStore(this.ctx.db);
    this.dreams = new PgDreamStore(this.ctx.db);
    this.models = new PgModelStore(this.ctx.db, async (model, dimension) => {
      const [row] = await this.ctx.db.query<{ n: string }>(
        'SELECT count(*) AS n FROM vectors WHERE model = $1 AND embedding IS NOT NULL',
        [model],
      );
      // Searches use an index only from this many vectors (see searches.ts).
      if (Number(row?.n ?? 0) < this.ctx.hnsw.exactBelow) return false;
      return this.ctx.indexes.buildFor(model, dimension);
    });
  }

  /**
   * Builds the published model's HNSW index now and waits for it (searches otherwise build it in
   * the background once a space reaches `store.ann.min_items` vectors). True when it is usable.
   */
  buildVectorIndex(): Promise<boolean> {
    return this.ctx.indexes.buildPublished();
  }

  /** Where the store lives, without credentials: `postgres://user@host:port/db#schema`. */
  get location(): string {
    return status.storeLocation(this.ctx);
  }

  /** The schema version (after the first connection). */
  get schemaVersion(): number {
    return this.ctx.db.schemaVersion;
  }

  /** Connects and migrates now instead of on first use (servers call it to fail fast). */
  async connect(): Promise<void> {
    await this.ctx.db.start();
  }

  /** Raw SQL on the store's pool, for maintenance tools in this backend's folder and its tests. */
  query<R extends Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<R[]> {
    return this.ctx.db.query<R>(sql, params);
  }

  createItems(drafts: readonly ItemDraft[]): Promise<CreateOutcome[]> {
    return itemWrites.createItems(this.ctx, drafts);
  }

  getItems(space: string, ids: readonly string[]): Promise<ItemRecord[]> {
    return reads.getItems(this.ctx.db, space, ids);
  }

  listItems(query: ListQuery): Promise<{ items: ItemRecord[]; next_cursor: string | null }> {
    return reads.listItems(this.ctx.db, query);
  }

  mutate(space: string, ids: readonly string[], plan: MutationPlan): Promise<ItemRecord[]> {
    return itemWrites.mutate(this.ctx, space, ids, plan);
  }

  purge(space: string, id: string, audit: PurgeAudit): Promise<void> {
    return purge(this.ctx.db, space, id, audit);
  }

  versions(space: string, id: string): Promise<VersionRecord[]> {
    return reads.versions(this.ctx.db, space, id);
  }

  statusEvents(space: string, id: string): Promise<StatusEventRecord[]> {
    return reads.statusEvents(this.ctx.db, space, id);
  }

  relations(space: string, id: string): Promise<RelationRecord[]> {
    return reads.relations(this.ctx.db, space, id);
  }

  publishedModel(): Promise<ModelRecord | undefined> {
    return models.publishedModel(this.ctx.db);
  }

  publishModel(id: string, dimension: number, at: number): Promise<ModelRecord> {
    return models.publishModel(this.ctx, id, dimension, at);
  }

  pendingVectors(limit: number): Promise<PendingVector[]> {
    return models.pendingVectors(this.ctx.db, limit);
  }

  putVectors(
    model: string,
    entries: readonly { id: string; version: number; vector: Float32Array | null }[],
  ): Promise<number> {
    return models.putVectors(this.ctx, model, entries);
  }

  keywordSearch(filter: ItemFilter, terms: readonly string[], limit: number): Promise<ScoredId[]> {
    return searches.keywordSearch(this.ctx, filter, terms, limit);
  }

  vectorSearch(
    filter: ItemFilter,
    model: string,
    vector: Float32Array,
    limit: number,
  ): Promise<ScoredId[]> {
    return searches.vectorSearch(this.ctx, filter, model, vector, limit);
  }

  /** Conversation turns around the given items (recall's session context). */
  sessionNeighbors(
    filter: ItemFilter,
    ids: readonly string[],
    window: number,
  ): Promise<SessionTurn[]> {
    return searches.sessionNeighbors(this.ctx, filter, ids, window);
  }

  writeNeighbors(
    filter: ItemFilter,
    ids: readonly string[],
    window: number,
    gapMs: number,
  ): Promise<SessionTurn[]> {
    return searches.writeNeighbors(this.ctx, filter, ids, window, gapMs);
  }

  lastTurn(space: string, session: string): Promise<number | null> {
    return searches.sessionLastTurn(this.ctx, space, session);
  }

  recordAccess(space: string, ids: readonly string[], at: number): Promise<void> {
    return itemWrites.recordAccess(this.ctx, space, ids, at);
  }

  recordAccessCounts(space: string, counts: readonly AccessCount[]): Promise<void> {
    return itemWrites.recordAccessCounts(this.ctx, space, counts);
  }

  stats(space: string | null): Promise<StoreStats> {
    return status.stats(this.ctx, space);
  }

  async spaces(): Promise<SpaceCount[]> {
    const rows = await this.ctx.db.query<{ space: string; items: string | number }>(
      'SELECT space, count(*) AS items FROM items GROUP BY space ORDER BY space',
    );
    return rows.map((r) => ({ space: r.space, items: Number(r.items) }));
  }

  insights(space: string, since: number): Promise<StoreInsights> {
    return insights(this.ctx.db, space, since);
  }

  exportItems(space: string | null): AsyncIterable<ItemExport> {
    return transfer.exportItems(this.ctx.db, space);
  }

  exportRelations(space: string | null): AsyncIterable<RelationRecord> {
    return transfer.exportRelations(this.ctx.db, space);
  }

  snapshot<T>(read: (view: SnapshotView) => Promise<T>): Promise<T> {
    return transfer.snapshot(this.ctx.db, read);
  }

  importItems(records: readonly ItemExport[]): Promise<ImportOutcome[]> {
    return itemWrites.importItems(this.ctx, records);
  }

  importRelations(records: readonly RelationRecord[]): Promise<ImportOutcome[]> {
    return itemWrites.importRelations(this.ctx, records);
  }

  integrityCheck(): Promise<{ ok: boolean; problems: string[] }> {
    return status.integrityCheck(this.ctx);
  }

  withLease<T>(
    name: string,
    ttlMs: number,
    fn: (lease: Lease) => Promise<T>,
  ): Promise<LeaseOutcome<T>> {
    return runLease(this.leases, name, ttlMs, fn);
  }

  async close(): Promise<void> {
    await this.ctx.indexes.close();
    await this.ctx.statistics.running();
    await this.ctx.db.close();
  }
}
