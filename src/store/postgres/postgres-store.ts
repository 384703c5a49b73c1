/**
 * The PostgreSQL store (pg + pgvector) for teams: several stateless engram processes on one
 * database. It connects lazily (the first call connects and migrates), pools connections, bounds
 * every statement with a timeout, and maps failures to EngramErrors naming host:port, never the
 * password. Semantics match the SQLite store; differences are listed in docs/postgres.md.
 */
import { EngramError, notFound } from '../../domain/errors.js';
import type { ItemFilter } from '../../domain/filter.js';
import type { Logger } from '../../domain/log.js';
import { silentLogger } from '../../domain/log.js';
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
  Store,
  StoreCapabilities,
  StoreStats,
} from '../store.js';
import { parseConnection, type PgSslOptions } from './connection.js';
import { PgDatabase } from './database.js';
import { PgDormantStore } from './dormant-store.js';
import { PgGraphStore } from './graph-store.js';
import { keywordSearch } from './keyword.js';
import { pgLeaseRows } from './leases.js';
import { PgLifecycleStore } from './lifecycle-store.js';
import { lockSchemaInTransaction } from './migrations.js';
import { publishModel, putVectors, recordAccess } from './model.js';
import {
  compileFilter,
  decodeCursor,
  encodeCursor,
  eventFromRow,
  ITEM_COLUMNS,
  itemFromRow,
  Params,
  type PgItemRow,
  relationFromRow,
  versionFromRow,
} from './rows.js';
import { sessionNeighbors } from './session-context.js';
import * as transfer from './transfer.js';
import { annSearch, exactSearch, type HnswSettings } from './vector-index.js';
import { VectorIndexes } from './vector-indexes.js';
import { applyMutation, assertStorableItem, createItems } from './writes.js';

/** Options of the PostgreSQL store (configuration keys under `store`). */
export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database?sslmode=...` */
  url: string;
  /** Schema holding engram's tables (created when missing). Default `engram`. */
  schema?: string;
  poolSize?: number;
  /** Longest a statement may run; 0 = no limit. Default 30 s. */
  statementTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** TLS settings; they win over the URL's sslmode/sslrootcert/sslcert/sslkey. */
  ssl?: PgSslOptions;
  hnsw?: Partial<HnswSettings>;
  logger?: Logger;
}

const COUNT_TTL_MS = 30_000;

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
  private readonly db: PgDatabase;
  /** Dormant-recall persistence (the dormant capability). */
  readonly dormant: PgDormantStore;
  /** Knowledge-graph persistence (the graph capability). */
  readonly graph: PgGraphStore;
  /** Decay, review, reinforcement and auto-recall persistence (the lifecycle capability). */
  readonly lifecycle: PgLifecycleStore;
  private readonly hnsw: HnswSettings;
  private readonly leases: LeaseRows;
  private readonly indexes: VectorIndexes;
  private readonly counts = new Map<string, { n: number; at: number }>();
  private readonly logger: Logger;
  private grown = 0;
  private analyzing: Promise<void> | undefined;

  constructor(options: PostgresStoreOptions) {
    this.schema = options.schema ?? 'engram';
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(this.schema))
      throw new EngramError(
        'CONFIG_INVALID',
        'store.schema: must be 1-63 lowercase letters, digits or "_"',
        {
          field: 'store.schema',
          rule: 'identifier',
        },
      );
    // The defaults of `store.ann`, so a store opened directly behaves as a configured one.
    this.hnsw = {
      m: 16,
      efConstruction: 200,
      efSearch: 1_000,
      exactBelow: 20_000,
      ...options.hnsw,
    };
    const connection = parseConnection(options.url, options.ssl);
    this.db = new PgDatabase(connection, {
      schema: this.schema,
      poolSize: options.poolSize ?? 10,
      statementTimeoutMs: options.statementTimeoutMs ?? 30_000,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      logger: options.logger ?? silentLogger,
    });
    this.leases = pgLeaseRows(this.db);
    this.dormant = new PgDormantStore(this.db);
    this.graph = new PgGraphStore(this.db);
    this.lifecycle = new PgLifecycleStore(this.db);
    this.logger = options.logger ?? silentLogger;
    this.indexes = new VectorIndexes(this.db, this.schema, this.hnsw, this.logger);
  }

  /**
   * Builds the published model's HNSW index now and waits for it (searches otherwise build it in
   * the background once a space reaches `store.ann.min_items` vectors). True when it is usable.
   */
  buildVectorIndex(): Promise<boolean> {
    return this.indexes.buildPublished();
  }

  /**
   * Refreshes planner statistics after bulk growth (a fifth of the table, at least 1000 rows),
   * in the background. Autovacuum does it too, but up to a minute later: until then a freshly
   * imported store would be planned as if it were empty.
   */
  private grew(rows: number): void {
    this.grown += rows;
    if (this.grown < 1_000 || this.analyzing) return;
    this.analyzing = (async () => {
      const [row] = await this.db.query<{ n: number }>(
        "SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'items'::regclass",
      );
      if (this.grown < Math.max(1_000, 0.2 * Math.max(0, row?.n ?? 0))) return;
      this.grown = 0;
      // A short lock wait: an index build holds the same lock and waits for this transaction,
      // so waiting longer would deadlock it; autovacuum catches up later.
      await this.db.transaction(async (tx) => {
        await tx.query("SET LOCAL lock_timeout = '200ms'");
        await tx.query('ANALYZE items, vectors');
      });
    })()
      .catch((err: unknown) =>
        this.logger.info('postgres: statistics refresh skipped', { error: String(err) }),
      )
      .finally(() => (this.analyzing = undefined));
  }

  /** Where the store lives, without credentials: `postgres://user@host:port/db#schema`. */
  get location(): string {
    const { target } = this.db.connection;
    return `postgres://${target.user}@${target.label}#${this.schema}`;
  }

  /** The schema version (after the first connection). */
  get schemaVersion(): number {
    return this.db.schemaVersion;
  }

  /** Connects and migrates now instead of on first use (servers call it to fail fast). */
  async connect(): Promise<void> {
    await this.db.start();
  }

  /** Raw SQL on the store's pool, for maintenance tools in this backend's folder and its tests. */
  query<R extends Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<R[]> {
    return this.db.query<R>(sql, params);
  }

  async createItems(drafts: readonly ItemDraft[]): Promise<CreateOutcome[]> {
    if (drafts.length === 0) return [];
    drafts.forEach((d, i) => assertStorableItem(d.item, drafts.length > 1 ? `items[${i}].` : ''));
    const outcomes = await this.db.transaction((tx) => createItems(tx, drafts));
    this.grew(outcomes.filter((o) => o.created).length);
    return outcomes;
  }

  async getItems(space: string, ids: readonly string[]): Promise<ItemRecord[]> {
    // An id with a NUL character names no item (PostgreSQL cannot hold one): it is simply absent.
    const lookup = ids.filter((id) => !id.includes('\u0000'));
    if (lookup.length === 0) return [];
    const rows = await this.db.query<PgItemRow>(
      `SELECT ${ITEM_COLUMNS} FROM items WHERE space = $1 AND id = ANY($2::text[])`,
      [space, lookup],
    );
    const byId = new Map(rows.map((r) => [r.id, itemFromRow(r)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async listItems(query: ListQuery): Promise<{ items: ItemRecord[]; next_cursor: string | null }> {
    const params = new Params();
    const where = compileFilter(query.filter, params);
    const column = query.order === 'created' ? 'i.created_at' : 'i.updated_at';
    let cursorSql = '';
    if (query.cursor) {
      const [at, id] = decodeCursor(query.cursor);
      const a = params.add(at);
      cursorSql = ` AND (${column} < ${a} OR (${column} = ${a} AND i.id < ${params.add(id)}))`;
    }
    const rows = await this.db.query<PgItemRow>(
      `SELECT ${ITEM_COLUMNS} FROM items i WHERE ${where}${cursorSql} ORDER BY ${column} DESC, i.id DESC LIMIT ${params.add(query.limit + 1)}`,
      params.values,
    );
    const page = rows.slice(0, query.limit).map(itemFromRow);
    const last = page[page.length - 1];
    const next =
      rows.length > query.limit && last
        ? encodeCursor(query.order === 'created' ? last.created_at : last.updated_at, last.id)
        : null;
    return { items: page, next_cursor: next };
  }

  mutate(space: string, ids: readonly string[], plan: MutationPlan): Promise<ItemRecord[]> {
    return this.db.transaction((tx) => applyMutation(tx, space, ids, plan));
  }

  async purge(
    space: string,
    id: string,
    audit: { actor: string | null; reason: string | null; at: number },
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [row] = await tx.query<{ pk: number }>(
        'SELECT pk FROM items WHERE id = $1 AND space = $2 FOR UPDATE',
        [id, space],
      );
      if (!row) throw notFound('memory', id);
      // Relations before the item: relation rows are locked before the graph lock the item's
      // delete takes (graph-schema.ts), the order every write keeps.
      await tx.query(
        "UPDATE relations SET invalidated_at = $1, invalidated_reason = 'purged' WHERE (from_id = $2 OR to_id = $2) AND invalidated_at IS NULL",
        [audit.at, id],
      );
      await tx.query('DELETE FROM vectors WHERE item_pk = $1', [row.pk]);
      await tx.query('DELETE FROM versions WHERE item_id = $1', [id]);
      await tx.query('DELETE FROM items WHERE pk = $1', [row.pk]);
      await tx.query(
        'INSERT INTO purges (item_id, space, actor, reason, at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (item_id) DO NOTHING',
        [id, space, audit.actor, audit.reason, audit.at],
      );
    });
  }

  private async ensureExists(space: string, id: string): Promise<void> {
    const rows = await this.db.query('SELECT 1 FROM items WHERE id = $1 AND space = $2', [
      id,
      space,
    ]);
    if (rows.length === 0) throw notFound('memory', id);
  }

  async versions(space: string, id: string): Promise<VersionRecord[]> {
    await this.ensureExists(space, id);
    const rows = await this.db.query<VersionRecord>(
      'SELECT * FROM versions WHERE item_id = $1 ORDER BY version',
      [id],
    );
    return rows.map(versionFromRow);
  }

  async statusEvents(space: string, id: string): Promise<StatusEventRecord[]> {
    await this.ensureExists(space, id);
    const rows = await this.db.query<StatusEventRecord>(
      'SELECT * FROM status_events WHERE item_id = $1 ORDER BY at, id',
      [id],
    );
    return rows.map(eventFromRow);
  }

  async relations(space: string, id: string): Promise<RelationRecord[]> {
    await this.ensureExists(space, id);
    const rows = await this.db.query<RelationRecord>(
      'SELECT * FROM relations WHERE space = $1 AND (from_id = $2 OR to_id = $2) ORDER BY created_at, id',
      [space, id],
    );
    return rows.map(relationFromRow);
  }

  async publishedModel(): Promise<ModelRecord | undefined> {
    const [row] = await this.db.query<ModelRecord>(
      'SELECT id, dimension, published_at FROM models WHERE published_at IS NOT NULL ORDER BY published_at DESC LIMIT 1',
    );
    return row
      ? { id: row.id, dimension: row.dimension, published_at: row.published_at }
      : undefined;
  }

  publishModel(id: string, dimension: number, at: number): Promise<ModelRecord> {
    return this.db.transaction(async (tx) => {
      await lockSchemaInTransaction((sql, params) => tx.query(sql, params), this.schema);
      return publishModel(tx, { id, dimension, at });
    });
  }

  async pendingVectors(limit: number): Promise<PendingVector[]> {
    const rows = await this.db.query<PendingVector>(
      "SELECT id, version, title, body, tags FROM items WHERE vector_state = 'pending' ORDER BY pk LIMIT $1",
      [limit],
    );
    return rows.map((r) => ({
      id: r.id,
      version: r.version,
      title: r.title,
      body: r.body,
      tags: r.tags,
    }));
  }

  putVectors(
    model: string,
    entries: readonly { id: string; version: number; vector: Float32Array | null }[],
  ): Promise<number> {
    if (entries.length === 0) return Promise.resolve(0);
    return this.db.transaction((tx) => putVectors(tx, model, entries));
  }

  keywordSearch(filter: ItemFilter, terms: readonly string[], limit: number): Promise<ScoredId[]> {
    if (terms.length === 0 || limit <= 0) return Promise.resolve([]);
    return keywordSearch(this.db, filter, terms, limit);
  }

  async vectorSearch(
    filter: ItemFilter,
    model: string,
    vector: Float32Array,
    limit: number,
  ): Promise<ScoredId[]> {
    if (limit <= 0 || vector.length === 0) return [];
    const count = await this.vectorCount(filter.space, model);
    if (count >= this.hnsw.exactBelow && (await this.indexes.ready(model, vector.length, count))) {
      const ann = await this.db.transaction(
        (tx) => annSearch(tx, filter, model, vector, limit, this.hnsw),
        'read',
      );
      if (ann) return ann;
    }
    return exactSearch(this.db, filter, model, vector, limit);
  }

  /** Vectors of a model in a space, cached briefly: it only picks exact scan or index. */
  private async vectorCount(space: string, model: string): Promise<number> {
    if (this.hnsw.exactBelow <= 0) return 1;
    const key = `${space}\u0000${model}`;
    const cached = this.counts.get(key);
    if (cached && Date.now() - cached.at < COUNT_TTL_MS) return cached.n;
    const [row] = await this.db.query<{ n: number }>(
      'SELECT count(*) AS n FROM vectors v JOIN items i ON i.pk = v.item_pk WHERE i.space = $1 AND v.model = $2 AND v.embedding IS NOT NULL',
      [space, model],
    );
    const n = row?.n ?? 0;
    this.counts.set(key, { n, at: Date.now() });
    return n;
  }

  /** Conversation turns around the given items (recall's session context). */
  sessionNeighbors(
    filter: ItemFilter,
    ids: readonly string[],
    window: number,
  ): Promise<SessionTurn[]> {
    return sessionNeighbors(this.db, filter, ids, window);
  }

  async recordAccess(space: string, ids: readonly string[], at: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db.transaction((tx) => recordAccess(tx, space, [...new Set(ids)], at));
  }

  async stats(space: string | null): Promise<StoreStats> {
    const scope = space === null ? '' : 'WHERE space = $1';
    const params = space === null ? [] : [space];
    const group = async (column: string) =>
      Object.fromEntries(
        (
          await this.db.query<{ k: string; n: number }>(
            `SELECT coalesce(${column}, 'active') AS k, count(*) AS n FROM items ${scope} GROUP BY 1 ORDER BY 1`,
            params,
          )
        ).map((r) => [r.k, r.n]),
      );
    const [byStatus, byKind, byVector, relations, size] = await Promise.all([
      group('status'),
      group('kind'),
      group('vector_state'),
      this.db.query<{ n: number }>(`SELECT count(*) AS n FROM relations ${scope}`, params),
      this.db.query<{ n: number | null }>(
        "SELECT sum(pg_total_relation_size(c.oid))::int8 AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = $1 AND c.relkind = 'r'",
        [this.schema],
      ),
    ]);
    return {
      location: this.location,
      schema_version: this.db.schemaVersion,
      items_total: Object.values(byStatus).reduce((a, b) => a + b, 0),
      by_status: byStatus,
      by_kind: byKind,
      vectors: {
        ready: byVector.ready ?? 0,
        pending: byVector.pending ?? 0,
        empty: byVector.empty ?? 0,
      },
      relations: relations[0]?.n ?? 0,
      size_bytes: size[0]?.n ?? null,
    };
  }

  exportItems(space: string | null): AsyncIterable<ItemExport> {
    return transfer.exportItems(this.db, space);
  }

  exportRelations(space: string | null): AsyncIterable<RelationRecord> {
    return transfer.exportRelations(this.db, space);
  }

  snapshot<T>(read: (view: SnapshotView) => Promise<T>): Promise<T> {
    return transfer.snapshot(this.db, read);
  }

  async importItems(records: readonly ItemExport[]): Promise<ImportOutcome[]> {
    if (records.length === 0) return [];
    const outcomes = await this.db.transaction((tx) => transfer.importItems(tx, records));
    this.grew(outcomes.filter((o) => o === 'imported').length);
    return outcomes;
  }

  importRelations(records: readonly RelationRecord[]): Promise<ImportOutcome[]> {
    if (records.length === 0) return Promise.resolve([]);
    return this.db.transaction((tx) => transfer.importRelations(tx, records));
  }

  async integrityCheck(): Promise<{ ok: boolean; problems: string[] }> {
    const problems = await transfer.integrityProblems(this.db, this.schema);
    return { ok: problems.length === 0, problems };
  }

  withLease<T>(
    name: string,
    ttlMs: number,
    fn: (lease: Lease) => Promise<T>,
  ): Promise<LeaseOutcome<T>> {
    return runLease(this.leases, name, ttlMs, fn);
  }

  async close(): Promise<void> {
    await this.indexes.close();
    await this.analyzing;
    await this.db.close();
  }
}
