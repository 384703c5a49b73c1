/**
 * The SQLite store (embedded default): one file in WAL mode, shared safely by several processes.
 * Every write is one immediate transaction, retried while another process holds the lock.
 * The class wires the connection to the modules that do the work (item reads and writes, models,
 * search, stats, purge, transfer) and to the capability stores that share its connection.
 */
import type { ItemFilter } from '../../domain/filter.js';
import type { Logger } from '../../domain/log.js';
import type {
  ItemExport,
  ItemRecord,
  ModelRecord,
  RelationRecord,
  StatusEventRecord,
  VersionRecord,
} from '../../domain/records.js';
import { runLease } from '../lease.js';
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
  VectorSearchResult,
  VectorWrite,
} from '../store.js';
import { ANN_DEFAULTS, type AnnOptions, SqliteVectorSearch } from './ann-search.js';
import { Checkpointer } from './checkpointer.js';
import { onCommit, openDatabase, type SqliteDatabase } from './database.js';
import { SqliteDormantStore } from './dormant-store.js';
import { SqliteDreamStore } from './dream-store.js';
import { FTS_PLAN_DEFAULTS, FtsSearch } from './fts-search.js';
import { SqliteGraphStore } from './graph-store.js';
import { insights } from './insights.js';
import * as reads from './item-reads.js';
import * as search from './item-search.js';
import * as writes from './item-writes.js';
import { SqliteJobStore } from './job-store.js';
import { KeywordMemory } from './keyword-memory.js';
import { sqliteLeaseRows } from './leases.js';
import { SqliteLifecycleStore } from './lifecycle-store.js';
import * as models from './model-rows.js';
import { SqliteModelStore } from './model-store.js';
import { applyMutation } from './mutate.js';
import { purge, type PurgeAudit } from './purge.js';
import { ReadCache } from './read-cache.js';
import type { ItemRow } from './rows.js';
import { SqliteSessionStore } from './session-store.js';
import { StoreCore } from './store-core.js';
import { integrityCheck, stats } from './store-stats.js';
import * as transfer from './transfer.js';
import { writeVector } from './vector-writes.js';

/** Options of the SQLite store. */
export interface SqliteStoreOptions {
  path: string;
  /** Approximate vector index (config `store.ann`); default ANN_DEFAULTS. */
  ann?: AnnOptions;
  /** Keyword search from the in-memory index (config `store.keyword_memory`); default true. */
  keywordMemory?: boolean;
  busyTimeoutMs?: number;
  writeRetryMs?: number;
  /** MiB of the file read through memory mapping (config `store.mmap_mb`); default 0 (none). */
  mmapMb?: number;
  /** WAL checkpoints in a worker thread (config `store.checkpoint_thread`); default true. */
  checkpointThread?: boolean;
  /** Told when the checkpoint thread stopped (checkpoints are then SQLite's own again). */
  logger?: Logger;
}

/** Opens a SQLite store (creating and migrating the file when needed). */
export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  return new SqliteStore(options);
}

/** The Store implementation over better-sqlite3. */
export class SqliteStore implements Store {
  readonly capabilities: StoreCapabilities = { backend: 'sqlite', onlineBackup: true };
  readonly schemaVersion: number;
  private readonly core: StoreCore;
  private readonly db: SqliteDatabase;
  /** Vector search: the in-memory mirrors and their HNSW indexes (ann-search.ts). */
  readonly vectorIndex: SqliteVectorSearch;
  private readonly engines: search.SearchEngines;
  private readonly keywordMemory: KeywordMemory | undefined;
  /** WAL checkpoints in a worker thread (checkpointer.ts); none for an in-memory store. */
  readonly checkpointer: Checkpointer | undefined;
  /** Decay, review, reinforcement and auto-recall persistence (the lifecycle capability). */
  readonly lifecycle: SqliteLifecycleStore;
  /** Knowledge-graph persistence (the graph capability). */
  readonly graph: SqliteGraphStore;
  /** Dormant-recall persistence (the dormant capability, on its own connection). */
  readonly dormant: SqliteDormantStore;
  /** Background jobs and per-item work failures (§11). */
  readonly jobs: SqliteJobStore;
  /** Embedding models and their transitions (§8). */
  readonly models: SqliteModelStore;
  /** Past conversations, searched turn by turn (§1.4). */
  readonly sessions: SqliteSessionStore;
  /** Dream runs, their diaries and daily caps (§10). */
  readonly dreams: SqliteDreamStore;

  constructor(options: SqliteStoreOptions) {
    const { path } = options;
    const retryMs = options.writeRetryMs ?? 30_000;
    const opened = openDatabase({
      path,
      busyTimeoutMs: options.busyTimeoutMs ?? 5_000,
      retryMs,
      mmapMb: options.mmapMb,
    });
    const db = (this.db = opened.db);
    this.schemaVersion = opened.schemaVersion;
    if (options.checkpointThread !== false && path !== ':memory:') {
      const checkpointer = new Checkpointer(db, path, options.busyTimeoutMs ?? 5_000, {
        onError: (message) =>
          options.logger?.warn('WAL checkpoints are back in the writing thread', { message }),
      });
      this.checkpointer = checkpointer;
      onCommit(db, () => checkpointer.committed());
    }
    const core = (this.core = new StoreCore(db, path, retryMs, opened.schemaVersion));
    const cache = new ReadCache(db);
    this.vectorIndex = new SqliteVectorSearch(db, path, options.ann ?? ANN_DEFAULTS, cache);
    const memory = options.keywordMemory === false ? undefined : new KeywordMemory(db);
    this.keywordMemory = memory;
    const fts = new FtsSearch(db, FTS_PLAN_DEFAULTS, memory);
    this.engines = { core, fts, vectors: this.vectorIndex, cache };
    const assertOpen = () => core.assertOpen();
    this.lifecycle = new SqliteLifecycleStore({ db, path, retryMs, assertOpen });
    this.graph = new SqliteGraphStore({ db, path, retryMs, assertOpen, cache });
    this.dormant = new SqliteDormantStore({ db, path, assertOpen });
    this.jobs = new SqliteJobStore({
      db,
      write: (fn) => core.write(fn),
      read: (fn) => core.read(fn),
    });
    this.models = new SqliteModelStore(core, (model, dimension) =>
      this.vectorIndex.flush(model, dimension, { yielding: true }),
    );
    this.sessions = new SqliteSessionStore(core);
    this.dreams = new SqliteDreamStore(core);
  }

  /** The raw connection, for maintenance tools in this backend's folder only. */
  /** A statement compiled once per connection (for the store's own modules). */
  prepared(sql: string): ReturnType<StoreCore['prepared']> {
    return this.core.prepared(sql);
  }

  get connection(): SqliteDatabase {
    return this.db;
  }

  /** Writes (or clears) one item's vector and keeps its vector_state in step. */
  writeVector(pk: number, write: VectorWrite | 'pending', model: string | undefined): void {
    writeVector(this.core, pk, write, model);
  }

  /** The published model id, read inside a transaction. */
  publishedModelId(): string | undefined {
    return models.publishedModelId(this.core);
  }

  /** Inserts one version row of an item (inside the caller's transaction). */
  insertVersion(itemId: string, v: writes.VersionDraft): void {
    writes.insertVersion(this.core, itemId, v);
  }

  /** Inserts one status-event row (inside the caller's transaction). */
  insertEvent(e: StatusEventRecord): void {
    writes.insertEvent(this.core, e);
  }

  /** Inserts one relation row (inside the caller's transaction). */
  insertRelation(r: RelationRecord): void {
    writes.insertRelation(this.core, r);
  }

  createItems(drafts: readonly ItemDraft[]): Promise<CreateOutcome[]> {
    return writes.createItems(this.core, drafts);
  }

  /** The item row with this primary key. */
  rowByPk(pk: number): ItemRow {
    return reads.rowByPk(this.core, pk);
  }

  /** The item row with this id in this space, if any. */
  rowById(space: string, id: string): ItemRow | undefined {
    return reads.rowById(this.core, space, id);
  }

  getItems(space: string, ids: readonly string[]): Promise<ItemRecord[]> {
    return reads.getItems(this.core, space, ids, this.engines.cache);
  }

  listItems(query: ListQuery): Promise<{ items: ItemRecord[]; next_cursor: string | null }> {
    return reads.listItems(this.core, query);
  }

  async mutate(space: string, ids: readonly string[], plan: MutationPlan): Promise<ItemRecord[]> {
    return this.core.write(() => applyMutation(this, space, ids, plan));
  }

  purge(space: string, id: string, audit: PurgeAudit): Promise<void> {
    return purge(this.core, space, id, audit);
  }

  versions(space: string, id: string): Promise<VersionRecord[]> {
    return reads.versions(this.core, space, id);
  }

  statusEvents(space: string, id: string): Promise<StatusEventRecord[]> {
    return reads.statusEvents(this.core, space, id);
  }

  relations(space: string, id: string): Promise<RelationRecord[]> {
    return reads.relations(this.core, space, id);
  }

  publishedModel(): Promise<ModelRecord | undefined> {
    return models.publishedModel(this.core);
  }

  publishModel(id: string, dimension: number, at: number): Promise<ModelRecord> {
    return models.publishModel(this.core, id, dimension, at);
  }

  pendingVectors(limit: number): Promise<PendingVector[]> {
    return models.pendingVectors(this.core, limit);
  }

  putVectors(model: string, entries: readonly models.VectorEntry[]): Promise<number> {
    return models.putVectors(this.core, model, entries);
  }

  keywordSearch(filter: ItemFilter, terms: readonly string[], limit: number): Promise<ScoredId[]> {
    return search.keywordSearch(this.engines, filter, terms, limit);
  }

  async vectorSearch(
    filter: ItemFilter,
    model: string,
    vector: Float32Array,
    limit: number,
  ): Promise<ScoredId[]> {
    return (await this.vectorSearchReport(filter, model, vector, limit)).hits;
  }

  vectorSearchReport(
    filter: ItemFilter,
    model: string,
    vector: Float32Array,
    limit: number,
  ): Promise<VectorSearchResult> {
    return search.vectorSearchReport(this.engines, filter, model, vector, limit);
  }

  sessionNeighbors(
    filter: ItemFilter,
    ids: readonly string[],
    window: number,
  ): Promise<SessionTurn[]> {
    return search.sessionTurns(this.engines, filter, ids, window);
  }

  writeNeighbors(
    filter: ItemFilter,
    ids: readonly string[],
    window: number,
    gapMs: number,
  ): Promise<SessionTurn[]> {
    return search.writeTurns(this.engines, filter, ids, window, gapMs);
  }

  lastTurn(space: string, session: string): Promise<number | null> {
    return search.sessionLastTurn(this.engines, space, session);
  }

  recordAccess(space: string, ids: readonly string[], at: number): Promise<void> {
    return writes.recordAccess(this.core, space, ids, at, this.engines.cache);
  }

  recordAccessCounts(space: string, counts: readonly AccessCount[]): Promise<void> {
    return writes.recordAccessCounts(this.core, space, counts, this.engines.cache);
  }

  stats(space: string | null): Promise<StoreStats> {
    return stats(this.core, this.vectorIndex, this.keywordMemory, space);
  }

  async spaces(): Promise<SpaceCount[]> {
    return this.core.read(
      () =>
        this.core
          .prepared('SELECT space, count(*) AS items FROM items GROUP BY space ORDER BY space')
          .all() as SpaceCount[],
    );
  }

  insights(space: string, since: number): Promise<StoreInsights> {
    return insights(this.core, space, since);
  }

  exportItems(space: string | null): AsyncIterable<ItemExport> {
    return transfer.exportItems((fn) => this.core.read(() => fn(this.db)), space);
  }

  exportRelations(space: string | null): AsyncIterable<RelationRecord> {
    return transfer.exportRelations((fn) => this.core.read(() => fn(this.db)), space);
  }

  snapshot<T>(read: (view: SnapshotView) => Promise<T>): Promise<T> {
    const source = { path: this.core.path, db: this.db, assertOpen: () => this.core.assertOpen() };
    return transfer.snapshot(source, read);
  }

  importItems(records: readonly ItemExport[]): Promise<ImportOutcome[]> {
    return writes.importItems(this.core, records);
  }

  importRelations(records: readonly RelationRecord[]): Promise<ImportOutcome[]> {
    return writes.importRelations(this.core, records);
  }

  integrityCheck(): Promise<{ ok: boolean; problems: string[] }> {
    return integrityCheck(this.core);
  }

  withLease<T>(
    name: string,
    ttlMs: number,
    fn: (lease: Lease) => Promise<T>,
  ): Promise<LeaseOutcome<T>> {
    return runLease(
      sqliteLeaseRows(this.db, (f) => this.core.write(f)),
      name,
      ttlMs,
      fn,
    );
  }

  /** Consistent online backup to a file (used by maintenance). */
  async backup(destination: string): Promise<void> {
    this.core.assertOpen();
    await this.db.backup(destination);
  }

  async close(): Promise<void> {
    if (!this.core.markClosed()) return;
    await this.vectorIndex.close();
    this.keywordMemory?.close();
    this.dormant.close();
    // The thread's connection closes first, so this one, the last, checkpoints and removes the log.
    await this.checkpointer?.close();
    this.db.close();
  }
}
