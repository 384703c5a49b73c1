/**
 * The SQLite store (embedded default): one file in WAL mode, shared safely by several processes.
 * Every write is one immediate transaction, retried while another process holds the lock.
 */
import { statSync } from 'node:fs';

import type Database from 'better-sqlite3';

import { EngramError, notFound } from '../../domain/errors.js';
import type { ItemFilter } from '../../domain/filter.js';
import type {
  ItemExport,
  ItemRecord,
  ModelRecord,
  RelationRecord,
  StatusEventRecord,
  VersionRecord,
} from '../../domain/records.js';
import { decodeCursor, encodeCursor } from '../item-rows.js';
import { runLease } from '../lease.js';
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
  VectorSearchResult,
  VectorWrite,
} from '../store.js';
import { ANN_DEFAULTS, type AnnOptions, SqliteVectorSearch } from './ann-search.js';
import { openDatabase, type SqliteDatabase, storeError, writeWithRetry } from './database.js';
import { SqliteDormantStore } from './dormant-store.js';
import { FtsSearch } from './fts-search.js';
import { SqliteGraphStore } from './graph-store.js';
import { sqliteLeaseRows } from './leases.js';
import { SqliteLifecycleStore } from './lifecycle-store.js';
import { applyMutation } from './mutate.js';
import {
  compileFilter,
  eventFromRow,
  itemColumns,
  itemFromRow,
  type ItemRow,
  relationFromRow,
  versionFromRow,
} from './rows.js';
import { sessionNeighbors } from './session-context.js';
import * as transfer from './transfer.js';

/** Options of the SQLite store. */
export interface SqliteStoreOptions {
  path: string;
  /** Approximate vector index (config `store.ann`); default ANN_DEFAULTS. */
  ann?: AnnOptions;
  busyTimeoutMs?: number;
  writeRetryMs?: number;
}

/** Opens a SQLite store (creating and migrating the file when needed). */
export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  return new SqliteStore(options);
}

/** The Store implementation over better-sqlite3. */
export class SqliteStore implements Store {
  readonly capabilities: StoreCapabilities;
  readonly schemaVersion: number;
  private readonly db: SqliteDatabase;
  private readonly path: string;
  private readonly retryMs: number;
  /** Vector search: the in-memory mirrors and their HNSW indexes (ann-search.ts). */
  readonly vectorIndex: SqliteVectorSearch;
  private readonly statements = new Map<string, Database.Statement>();
  /** Keyword search: BM25 through FTS5, planned for large stores (fts-search.ts). */
  private readonly fts: FtsSearch;
  private closed = false;
  /** Decay, review, reinforcement and auto-recall persistence (the lifecycle capability). */
  readonly lifecycle: SqliteLifecycleStore;
  /** Knowledge-graph persistence (the graph capability). */
  readonly graph: SqliteGraphStore;
  /** Dormant-recall persistence (the dormant capability, on its own connection). */
  readonly dormant: SqliteDormantStore;

  constructor(options: SqliteStoreOptions) {
    this.path = options.path;
    this.retryMs = options.writeRetryMs ?? 30_000;
    const opened = openDatabase({
      path: options.path,
      busyTimeoutMs: options.busyTimeoutMs ?? 5_000,
    });
    this.db = opened.db;
    this.schemaVersion = opened.schemaVersion;
    const ann = options.ann ?? ANN_DEFAULTS;
    this.capabilities = {
      backend: 'sqlite',
      onlineBackup: true,
    };
    this.vectorIndex = new SqliteVectorSearch(this.db, this.path, ann);
    this.fts = new FtsSearch(this.db);
    this.lifecycle = new SqliteLifecycleStore({
      db: this.db,
      path: this.path,
      retryMs: this.retryMs,
      assertOpen: () => this.assertOpen(),
    });
    this.graph = new SqliteGraphStore({
      db: this.db,
      path: this.path,
      retryMs: this.retryMs,
      assertOpen: () => this.assertOpen(),
    });
    this.dormant = new SqliteDormantStore({
      db: this.db,
      path: this.path,
      assertOpen: () => this.assertOpen(),
    });
  }

  /** The raw connection, for maintenance tools in this backend's folder only. */
  get connection(): SqliteDatabase {
    return this.db;
  }

  private write<T>(fn: () => T): Promise<T> {
    this.assertOpen();
    return writeWithRetry(this.db, this.path, this.retryMs, fn);
  }

  private read<T>(fn: () => T): T {
    this.assertOpen();
    try {
      return fn();
    } catch (err) {
      if (err instanceof EngramError) throw err;
      throw storeError(err, this.path);
    }
  }

  private assertOpen(): void {
    if (this.closed)
      throw new EngramError('STORE_UNAVAILABLE', 'the store is closed', { rule: 'open store' });
  }

  /**
   * A statement compiled once per connection. Writes run the same few statements for every item,
   * and compiling them each time was a sixth of import time (bench/scale profile).
   */
  private prepared(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private nextVectorSeq(): number {
    return (
      this.prepared(
        "UPDATE counters SET value = value + 1 WHERE name = 'vector_seq' RETURNING value",
      ).get() as { value: number }
    ).value;
  }

  /** Writes (or clears) one item's vector and keeps its vector_state in step. */
  writeVector(pk: number, write: VectorWrite | 'pending', model: string | undefined): void {
    if (write === 'pending') {
      if (model) {
        const had = this.db
          .prepare('DELETE FROM vectors WHERE item_pk = ? AND model = ?')
          .run(pk, model);
        if (had.changes > 0)
          this.db
            .prepare('INSERT INTO vector_deletions(seq, item_pk, model) VALUES (?, ?, ?)')
            .run(this.nextVectorSeq(), pk, model);
      }
      this.db.prepare("UPDATE items SET vector_state = 'pending' WHERE pk = ?").run(pk);
      return;
    }
    const blob = write.vector
      ? Buffer.from(write.vector.buffer, write.vector.byteOffset, write.vector.byteLength)
      : null;
    const dimension = write.vector?.length ?? 0;
    this.prepared(
      'INSERT INTO vectors(item_pk, model, dimension, vector, seq) VALUES (?, ?, ?, ?, ?) ON CONFLICT(item_pk, model) DO UPDATE SET dimension = excluded.dimension, vector = excluded.vector, seq = excluded.seq',
    ).run(pk, write.model, dimension, blob, this.nextVectorSeq());
    if (write.model === model)
      this.prepared('UPDATE items SET vector_state = ? WHERE pk = ?').run(
        write.vector ? 'ready' : 'empty',
        pk,
      );
  }

  /** The published model id, read inside a transaction. */
  publishedModelId(): string | undefined {
    const row = this.prepared(
      'SELECT id FROM models WHERE published_at IS NOT NULL ORDER BY published_at DESC LIMIT 1',
    ).get() as { id: string } | undefined;
    return row?.id;
  }

  private findDuplicate(item: ItemRecord): ItemRow | undefined {
    return this.prepared(
      "SELECT * FROM items WHERE space = ? AND kind = ? AND body_hash = ? AND (status IS NULL OR status <> 'forgotten') ORDER BY pk LIMIT 1",
    ).get(item.space, item.kind, item.body_hash) as ItemRow | undefined;
  }

  private insertItem(item: ItemRecord): number {
    const cols = itemColumns(item);
    const names = Object.keys(cols);
    const sql = `INSERT INTO items(${names.join(', ')}) VALUES (${names.map((n) => `@${n}`).join(', ')})`;
    return Number(this.prepared(sql).run(cols).lastInsertRowid);
  }

  insertVersion(
    itemId: string,
    v: Omit<VersionRecord, 'item_id' | 'created_at'> & { at: number },
  ): void {
    this.prepared(
      'INSERT INTO versions(item_id, version, title, body, tags, actor, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(itemId, v.version, v.title, v.body, JSON.stringify(v.tags), v.actor, v.reason, v.at);
  }

  insertEvent(e: StatusEventRecord): void {
    this.db
      .prepare(
        'INSERT INTO status_events(id, item_id, from_status, to_status, reason, actor, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(e.id, e.item_id, e.from_status, e.to_status, e.reason, e.actor, e.at);
  }

  insertRelation(r: RelationRecord): void {
    this.db
      .prepare(
        'INSERT INTO relations(id, space, type, from_id, to_id, actor, reason, created_at, invalidated_at, invalidated_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        r.id,
        r.space,
        r.type,
        r.from_id,
        r.to_id,
        r.actor,
        r.reason,
        r.created_at,
        r.invalidated_at,
        r.invalidated_reason,
      );
  }

  async createItems(drafts: readonly ItemDraft[]): Promise<CreateOutcome[]> {
    return this.write(() => {
      const model = this.publishedModelId();
      return drafts.map((draft) => {
        const dup = this.findDuplicate(draft.item);
        if (dup) return { item: itemFromRow(dup), created: false };
        const pk = this.insertItem({ ...draft.item, vector_state: 'pending' });
        const { item } = draft;
        this.insertVersion(item.id, {
          version: item.version,
          title: item.title,
          body: item.body,
          tags: item.tags,
          actor: draft.actor,
          reason: draft.reason,
          at: item.created_at,
        });
        if (draft.vector) this.writeVector(pk, draft.vector, model);
        return { item: itemFromRow(this.rowByPk(pk)), created: true };
      });
    });
  }

  rowByPk(pk: number): ItemRow {
    return this.prepared('SELECT * FROM items WHERE pk = ?').get(pk) as ItemRow;
  }

  rowById(space: string, id: string): ItemRow | undefined {
    return this.db.prepare('SELECT * FROM items WHERE id = ? AND space = ?').get(id, space) as
      | ItemRow
      | undefined;
  }

  async getItems(space: string, ids: readonly string[]): Promise<ItemRecord[]> {
    return this.read(() => {
      // `+space`: look items up by id; the space index would scan the whole space (O(store)).
      const rows = this.db
        .prepare('SELECT * FROM items WHERE +space = ? AND id IN (SELECT value FROM json_each(?))')
        .all(space, JSON.stringify(ids)) as ItemRow[];
      const byId = new Map(rows.map((r) => [r.id, itemFromRow(r)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    });
  }

  async listItems(query: ListQuery): Promise<{ items: ItemRecord[]; next_cursor: string | null }> {
    return this.read(() => {
      const where = compileFilter(query.filter);
      const column = query.order === 'created' ? 'i.created_at' : 'i.updated_at';
      let cursorSql = '';
      const params: Record<string, unknown> = { ...where.params, limit: query.limit + 1 };
      if (query.cursor) {
        const [at, id] = decodeCursor(query.cursor);
        cursorSql = ` AND (${column} < @c_at OR (${column} = @c_at AND i.id < @c_id))`;
        params.c_at = at;
        params.c_id = id;
      }
      const rows = this.db
        .prepare(
          `SELECT i.* FROM items i WHERE ${where.sql}${cursorSql} ORDER BY ${column} DESC, i.id DESC LIMIT @limit`,
        )
        .all(params) as ItemRow[];
      const page = rows.slice(0, query.limit).map(itemFromRow);
      const last = page[page.length - 1];
      const next =
        rows.length > query.limit && last
          ? encodeCursor(query.order === 'created' ? last.created_at : last.updated_at, last.id)
          : null;
      return { items: page, next_cursor: next };
    });
  }

  async mutate(space: string, ids: readonly string[], plan: MutationPlan): Promise<ItemRecord[]> {
    return this.write(() => applyMutation(this, space, ids, plan));
  }

  async purge(
    space: string,
    id: string,
    audit: { actor: string | null; reason: string | null; at: number },
  ): Promise<void> {
    await this.write(() => {
      const row = this.rowById(space, id);
      if (!row) throw notFound('memory', id);
      const models = this.db.prepare('SELECT model FROM vectors WHERE item_pk = ?').all(row.pk) as {
        model: string;
      }[];
      this.db.prepare('DELETE FROM vectors WHERE item_pk = ?').run(row.pk);
      for (const { model } of models)
        this.db
          .prepare('INSERT INTO vector_deletions(seq, item_pk, model) VALUES (?, ?, ?)')
          .run(this.nextVectorSeq(), row.pk, model);
      this.db.prepare('DELETE FROM versions WHERE item_id = ?').run(id);
      this.db.prepare('DELETE FROM items WHERE pk = ?').run(row.pk);
      this.db
        .prepare(
          "UPDATE relations SET invalidated_at = ?, invalidated_reason = 'purged' WHERE (from_id = ? OR to_id = ?) AND invalidated_at IS NULL",
        )
        .run(audit.at, id, id);
      this.db
        .prepare(
          'INSERT INTO purges(item_id, space, actor, reason, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT(item_id) DO NOTHING',
        )
        .run(id, space, audit.actor, audit.reason, audit.at);
    });
  }

  private ensureExists(space: string, id: string): void {
    if (!this.rowById(space, id)) throw notFound('memory', id);
  }

  async versions(space: string, id: string): Promise<VersionRecord[]> {
    return this.read(() => {
      this.ensureExists(space, id);
      const rows = this.db
        .prepare('SELECT * FROM versions WHERE item_id = ? ORDER BY version')
        .all(id) as (Omit<VersionRecord, 'tags'> & { tags: string })[];
      return rows.map(versionFromRow);
    });
  }

  async statusEvents(space: string, id: string): Promise<StatusEventRecord[]> {
    return this.read(() => {
      this.ensureExists(space, id);
      return (
        this.db
          .prepare('SELECT * FROM status_events WHERE item_id = ? ORDER BY at, id')
          .all(id) as StatusEventRecord[]
      ).map(eventFromRow);
    });
  }

  async relations(space: string, id: string): Promise<RelationRecord[]> {
    return this.read(() => {
      this.ensureExists(space, id);
      const rows = this.db
        .prepare(
          'SELECT * FROM relations WHERE space = ? AND (from_id = ? OR to_id = ?) ORDER BY created_at, id',
        )
        .all(space, id, id) as RelationRecord[];
      return rows.map(relationFromRow);
    });
  }

  async publishedModel(): Promise<ModelRecord | undefined> {
    return this.read(() => {
      const row = this.db
        .prepare(
          'SELECT id, dimension, published_at FROM models WHERE published_at IS NOT NULL ORDER BY published_at DESC LIMIT 1',
        )
        .get() as ModelRecord | undefined;
      return row ? { ...row } : undefined;
    });
  }

  async publishModel(id: string, dimension: number, at: number): Promise<ModelRecord> {
    return this.write(() => {
      const current = this.publishedModelId();
      if (current === id)
        return this.db
          .prepare('SELECT id, dimension, published_at FROM models WHERE id = ?')
          .get(id) as ModelRecord;
      if (current !== undefined)
        throw new EngramError(
          'CONFLICT',
          `model ${current} is published; switching models needs a transition`,
          { rule: 'one published model' },
        );
      this.db
        .prepare(
          'INSERT INTO models(id, dimension, published_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET published_at = excluded.published_at, dimension = excluded.dimension',
        )
        .run(id, dimension, at);
      this.db
        .prepare(
          "UPDATE items SET vector_state = CASE WHEN EXISTS (SELECT 1 FROM vectors v WHERE v.item_pk = items.pk AND v.model = ? AND v.vector IS NOT NULL) THEN 'ready' WHEN EXISTS (SELECT 1 FROM vectors v WHERE v.item_pk = items.pk AND v.model = ?) THEN 'empty' ELSE 'pending' END",
        )
        .run(id, id);
      return { id, dimension, published_at: at };
    });
  }

  async pendingVectors(limit: number): Promise<PendingVector[]> {
    return this.read(() => {
      const rows = this.db
        .prepare(
          "SELECT id, version, title, body, tags FROM items WHERE vector_state = 'pending' ORDER BY pk LIMIT ?",
        )
        .all(limit) as (Omit<PendingVector, 'tags'> & { tags: string })[];
      return rows.map((r) => ({ ...r, tags: JSON.parse(r.tags) as string[] }));
    });
  }

  async putVectors(
    model: string,
    entries: readonly { id: string; version: number; vector: Float32Array | null }[],
  ): Promise<number> {
    return this.write(() => {
      const published = this.publishedModelId();
      let stored = 0;
      for (const entry of entries) {
        const row = this.db.prepare('SELECT pk, version FROM items WHERE id = ?').get(entry.id) as
          | { pk: number; version: number }
          | undefined;
        if (!row || row.version !== entry.version) continue;
        this.writeVector(row.pk, { model, vector: entry.vector }, published);
        stored++;
      }
      return stored;
    });
  }

  async keywordSearch(
    filter: ItemFilter,
    terms: readonly string[],
    limit: number,
  ): Promise<ScoredId[]> {
    if (terms.length === 0 || limit <= 0) return [];
    return this.read(() => this.fts.search(filter, terms, limit));
  }

  async vectorSearch(
    filter: ItemFilter,
    model: string,
    vector: Float32Array,
    limit: number,
  ): Promise<ScoredId[]> {
    return (await this.vectorSearchReport(filter, model, vector, limit)).hits;
  }

  async vectorSearchReport(
    filter: ItemFilter,
    model: string,
    vector: Float32Array,
    limit: number,
  ): Promise<VectorSearchResult> {
    return this.read(() => this.vectorIndex.search(filter, model, vector, limit));
  }

  async sessionNeighbors(
    filter: ItemFilter,
    ids: readonly string[],
    window: number,
  ): Promise<SessionTurn[]> {
    return this.read(() => sessionNeighbors(this.db, filter, ids, window));
  }

  async recordAccess(space: string, ids: readonly string[], at: number): Promise<void> {
    if (ids.length === 0) return;
    const unique = [...new Set(ids)];
    await this.write(() => {
      this.db
        .prepare(
          // `+space`: by id, not by a scan of the space's index.
          'UPDATE items SET access_count = access_count + 1, last_accessed_at = ? WHERE +space = ? AND id IN (SELECT value FROM json_each(?))',
        )
        .run(at, space, JSON.stringify(unique));
    });
  }

  async stats(space: string | null): Promise<StoreStats> {
    return this.read(() => {
      const scope = space === null ? '' : 'WHERE space = @space';
      const params = space === null ? {} : { space };
      const group = (column: string) =>
        Object.fromEntries(
          (
            this.db
              .prepare(
                `SELECT coalesce(${column}, 'active') AS k, count(*) AS n FROM items ${scope} GROUP BY k ORDER BY k`,
              )
              .all(params) as { k: string; n: number }[]
          ).map((r) => [r.k, r.n]),
        );
      const byVector = group('vector_state');
      const total = (
        this.db.prepare(`SELECT count(*) AS n FROM items ${scope}`).get(params) as { n: number }
      ).n;
      const relations = (
        this.db.prepare(`SELECT count(*) AS n FROM relations ${scope}`).get(params) as { n: number }
      ).n;
      return {
        location: this.path,
        schema_version: this.schemaVersion,
        items_total: total,
        by_status: group('status'),
        by_kind: group('kind'),
        vectors: {
          ready: byVector.ready ?? 0,
          pending: byVector.pending ?? 0,
          empty: byVector.empty ?? 0,
        },
        relations,
        size_bytes: this.fileSize(),
        vector_index: this.vectorIndex.status(),
      };
    });
  }

  private fileSize(): number | null {
    if (this.path === ':memory:') return null;
    let total = 0;
    for (const suffix of ['', '-wal']) {
      try {
        total += statSync(this.path + suffix).size;
      } catch {
        // the WAL file may not exist
      }
    }
    return total;
  }

  exportItems(space: string | null): AsyncIterable<ItemExport> {
    return transfer.exportItems((fn) => this.read(() => fn(this.db)), space);
  }

  exportRelations(space: string | null): AsyncIterable<RelationRecord> {
    return transfer.exportRelations((fn) => this.read(() => fn(this.db)), space);
  }

  snapshot<T>(read: (view: SnapshotView) => Promise<T>): Promise<T> {
    const source = { path: this.path, db: this.db, assertOpen: () => this.assertOpen() };
    return transfer.snapshot(source, read);
  }

  async importItems(records: readonly ItemExport[]): Promise<ImportOutcome[]> {
    return this.write(() => {
      const published = this.publishedModelId();
      return records.map((record) => {
        if (this.db.prepare('SELECT 1 FROM items WHERE id = ?').get(record.item.id))
          return 'exists';
        const pk = this.insertItem({ ...record.item, vector_state: 'pending' });
        for (const v of record.versions) this.insertVersion(v.item_id, { ...v, at: v.created_at });
        for (const e of record.status_events) this.insertEvent(e);
        for (const v of record.vectors)
          this.writeVector(pk, { model: v.model, vector: v.vector }, published);
        if (
          record.item.vector_state !== 'pending' &&
          !record.vectors.some((v) => v.model === published)
        )
          this.db.prepare("UPDATE items SET vector_state = 'pending' WHERE pk = ?").run(pk);
        return 'imported';
      });
    });
  }

  async importRelations(records: readonly RelationRecord[]): Promise<ImportOutcome[]> {
    return this.write(() =>
      records.map((r) => {
        if (this.db.prepare('SELECT 1 FROM relations WHERE id = ?').get(r.id)) return 'exists';
        this.insertRelation(r);
        return 'imported';
      }),
    );
  }

  async integrityCheck(): Promise<{ ok: boolean; problems: string[] }> {
    return this.read(() => {
      const rows = this.db.pragma('integrity_check') as { integrity_check: string }[];
      const problems = rows.map((r) => r.integrity_check).filter((m) => m !== 'ok');
      try {
        this.db
          .prepare("INSERT INTO items_fts(items_fts, rank) VALUES ('integrity-check', 1)")
          .run();
      } catch (err) {
        problems.push(`full-text index: ${(err as Error).message}`);
      }
      return { ok: problems.length === 0, problems };
    });
  }

  withLease<T>(
    name: string,
    ttlMs: number,
    fn: (lease: Lease) => Promise<T>,
  ): Promise<LeaseOutcome<T>> {
    return runLease(
      sqliteLeaseRows(this.db, (f) => this.write(f)),
      name,
      ttlMs,
      fn,
    );
  }

  /** Consistent online backup to a file (used by maintenance). */
  async backup(destination: string): Promise<void> {
    this.assertOpen();
    await this.db.backup(destination);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.vectorIndex.close();
    this.dormant.close();
    this.db.close();
  }
}
