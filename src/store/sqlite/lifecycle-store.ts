/**
 * The SQLite side of the lifecycle capability: decay facts in one scan, maintenance applied in one
 * immediate transaction, use events, persisted settings and per-conversation auto-recall state,
 * and their export and import (lifecycle-transfer.ts).
 */
import type { Statement } from 'better-sqlite3';

import { EngramError } from '../../domain/errors.js';
import { lifecycleImportKeys, planLifecycleImport } from '../lifecycle-import-plan.js';
import { type FactsColumns, factsFromColumns } from '../lifecycle-records.js';
import type {
  ConversationState,
  DecayFacts,
  LifecycleImportOutcome,
  LifecycleRecord,
  LifecycleStore,
  MaintenanceRunRecord,
  MaintenanceWrite,
  UseCounts,
  UseEventRecord,
} from '../lifecycle-store.js';
import { type SqliteDatabase, storeError, writeWithRetry } from './database.js';
import {
  exportLifecycleRows,
  insertUse,
  readImportState,
  type SqliteUseRow,
  useFromRow,
  writeImport,
} from './lifecycle-transfer.js';
import { blobToVector } from './rows.js';

/** What the lifecycle store borrows from the SQLite store that owns the connection. */
export interface SqliteLifecycleContext {
  db: SqliteDatabase;
  path: string;
  retryMs: number;
  assertOpen(): void;
}

/** An items row as the facts query returns it (JSON tags, integer flags, unchecked kind/status). */
type FactsRow = Omit<FactsColumns, 'tags' | 'pinned'> & {
  pk: number;
  tags: string;
  pinned: number;
};

const FACTS_COLUMNS = `SELECT i.pk, i.id, i.space, i.kind, i.area, i.tags, i.status, i.pinned, i.importance,
  i.strength, i.strength_base AS base, i.created_at, i.use_count, i.last_used_at,
  (SELECT max(v.created_at) FROM versions v WHERE v.item_id = i.id AND v.version > 1) AS last_revised_at,
  (SELECT max(e.at) FROM status_events e WHERE e.item_id = i.id
     AND e.from_status IN ('archived', 'forgotten', 'superseded', 'merged')
     AND e.to_status IN ('active', 'candidate', 'challenged')) AS last_restored_at`;
const NOT_FORGOTTEN = "(i.status IS NULL OR i.status <> 'forgotten')";
/**
 * Items named by a JSON list of ids, driven from the list: CROSS JOIN fixes the join order, so
 * SQLite looks each id up by its unique index instead of scanning the space's index.
 */
const BY_IDS = 'FROM json_each(?) AS j CROSS JOIN items i ON i.id = j.value';

const PROGRESS_EVERY = 2_000;

function factsFromRow(row: FactsRow): DecayFacts {
  let tags: string[] = [];
  try {
    tags = JSON.parse(row.tags) as string[];
  } catch {
    // a malformed tag list reads as no tags; decay does not depend on it
  }
  return factsFromColumns({ ...row, tags, pinned: row.pinned === 1 });
}

/** LifecycleStore over the SQLite store's connection. */
export class SqliteLifecycleStore implements LifecycleStore {
  /** Prepared statements by SQL text: compiling the facts query costs more than running it. */
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly ctx: SqliteLifecycleContext) {}

  private stmt(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private get db(): SqliteDatabase {
    return this.ctx.db;
  }

  private read<T>(fn: () => T): T {
    this.ctx.assertOpen();
    try {
      return fn();
    } catch (err) {
      if (err instanceof EngramError) throw err;
      throw storeError(err, this.ctx.path);
    }
  }

  private write<T>(fn: () => T): Promise<T> {
    this.ctx.assertOpen();
    return writeWithRetry(this.db, this.ctx.path, this.ctx.retryMs, fn);
  }

  private readFacts(space: string | null, ids?: readonly string[]): DecayFacts[] {
    return this.readRows(space, ids).map(factsFromRow);
  }

  private readRows(space: string | null, ids?: readonly string[]): FactsRow[] {
    const params: unknown[] = ids ? [JSON.stringify(ids)] : [];
    const where = [NOT_FORGOTTEN];
    if (space !== null) {
      where.push('i.space = ?');
      params.push(space);
    }
    const sql = `${FACTS_COLUMNS} ${ids ? BY_IDS : 'FROM items i'} WHERE ${where.join(' AND ')} ORDER BY i.pk`;
    return this.stmt(sql).all(...params) as FactsRow[];
  }

  async decayFacts(space: string | null, ids?: readonly string[]): Promise<DecayFacts[]> {
    return this.read(() => this.readFacts(space, ids));
  }

  async applyMaintenance(
    space: string | null,
    plan: (facts: readonly DecayFacts[]) => MaintenanceWrite,
    onProgress?: (done: number, total: number) => void,
  ): Promise<MaintenanceWrite> {
    return this.write(() => {
      const rows = this.readRows(space);
      const result = plan(rows.map(factsFromRow));
      // Rows are written by their integer key: cheaper than the text id's index, 100k times over.
      this.writeMaintenance(result, new Map(rows.map((r) => [r.id, r.pk])), onProgress);
      return result;
    });
  }

  private writeMaintenance(
    result: MaintenanceWrite,
    pks: ReadonlyMap<string, number>,
    onProgress?: (done: number, total: number) => void,
  ): void {
    const total = result.updates.length + result.transitions.length;
    let done = 0;
    const tick = () => {
      done++;
      if (onProgress && (done % PROGRESS_EVERY === 0 || done === total)) onProgress(done, total);
    };
    const setStrength = this.stmt(
      'UPDATE items SET strength = ?, strength_base = coalesce(?, strength_base) WHERE pk = ?',
    );
    for (const u of result.updates) {
      setStrength.run(u.strength, u.base ?? null, pks.get(u.id));
      tick();
    }
    const setStatus = this.stmt(
      'UPDATE items SET status = ?, prior = ?, updated_at = ? WHERE pk = ?',
    );
    const event = this.stmt(
      'INSERT INTO status_events(id, item_id, from_status, to_status, reason, actor, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const at = result.run.finished_at;
    for (const t of result.transitions) {
      setStatus.run(t.to, JSON.stringify(t.prior), at, pks.get(t.id));
      event.run(t.event_id, t.id, t.from, t.to, t.reason, 'engram:maintain', at);
      tick();
    }
    if (result.prune_conversations_before !== undefined)
      this.stmt(
        'DELETE FROM autorecall_conversations WHERE updated_at < ? AND (? IS NULL OR space = ?)',
      ).run(result.prune_conversations_before, result.run.space, result.run.space);
    const run = result.run;
    this.db
      .prepare(
        'INSERT INTO maintenance_runs(id, space, started_at, finished_at, backup_path, summary) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(
        run.id,
        run.space,
        run.started_at,
        run.finished_at,
        run.backup_path,
        JSON.stringify(run.summary),
      );
  }

  async backup(destination: string): Promise<void> {
    this.ctx.assertOpen();
    try {
      await this.db.backup(destination);
    } catch (err) {
      throw storeError(err, destination);
    }
  }

  async recordUses(
    space: string,
    ids: readonly string[],
    plan: (facts: ReadonlyMap<string, DecayFacts>) => UseEventRecord[],
  ): Promise<UseEventRecord[]> {
    return this.write(() => {
      const facts = new Map(this.readFacts(space, ids).map((f) => [f.id, f]));
      const events = plan(facts);
      const update = this.stmt(
        `UPDATE items SET strength_base = ?, strength = ?, use_count = use_count + 1,
          last_used_at = max(coalesce(last_used_at, 0), ?) WHERE id = ? AND space = ?`,
      );
      insertUse(this.db, events);
      for (const e of events) {
        update.run(e.base_after, e.strength_after, e.at, e.item_id, space);
      }
      return events;
    });
  }

  async useCounts(space: string, since?: number): Promise<UseCounts> {
    return this.read(() => {
      const rows = this.stmt(
        'SELECT source, count(*) AS n, sum(cross_domain) AS cross FROM use_events WHERE space = ? AND at >= ? GROUP BY source ORDER BY source',
      ).all(space, since ?? 0) as { source: string; n: number; cross: number }[];
      return {
        events: rows.reduce((s, r) => s + r.n, 0),
        cross_domain: rows.reduce((s, r) => s + r.cross, 0),
        by_source: Object.fromEntries(rows.map((r) => [r.source, r.n])),
      };
    });
  }

  async useEvents(space: string, itemId: string): Promise<UseEventRecord[]> {
    return this.read(() =>
      (
        this.stmt('SELECT * FROM use_events WHERE space = ? AND item_id = ? ORDER BY at, id').all(
          space,
          itemId,
        ) as SqliteUseRow[]
      ).map(useFromRow),
    );
  }

  async getSetting(space: string, key: string): Promise<unknown> {
    return this.read(() => {
      const row = this.stmt('SELECT value FROM settings WHERE space = ? AND key = ?').get(
        space,
        key,
      ) as { value: string } | undefined;
      return row ? (JSON.parse(row.value) as unknown) : undefined;
    });
  }

  async putSetting(space: string, key: string, value: unknown, at: number): Promise<void> {
    await this.write(() =>
      this.stmt(
        'INSERT INTO settings(space, key, value, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(space, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at',
      ).run(space, key, JSON.stringify(value), at),
    );
  }

  async conversation(
    space: string,
    conversationId: string,
  ): Promise<ConversationState | undefined> {
    return this.read(() => {
      const row = this.stmt(
        'SELECT * FROM autorecall_conversations WHERE space = ? AND conversation_id = ?',
      ).get(space, conversationId) as
        | (Omit<ConversationState, 'topics'> & { topics: string })
        | undefined;
      return row ? { ...row, topics: JSON.parse(row.topics) as string[][] } : undefined;
    });
  }

  async putConversation(state: ConversationState): Promise<void> {
    await this.write(() =>
      this.stmt(
        `INSERT INTO autorecall_conversations(space, conversation_id, topics, last_recall_at, updated_at)
           VALUES (?, ?, ?, ?, ?) ON CONFLICT(space, conversation_id) DO UPDATE SET
           topics = excluded.topics, last_recall_at = excluded.last_recall_at, updated_at = excluded.updated_at`,
      ).run(
        state.space,
        state.conversation_id,
        JSON.stringify(state.topics),
        state.last_recall_at,
        state.updated_at,
      ),
    );
  }

  exportLifecycle(space: string | null): AsyncIterable<LifecycleRecord> {
    return exportLifecycleRows((fn) => this.read(() => fn(this.db)), space);
  }

  async importLifecycle(records: readonly LifecycleRecord[]): Promise<LifecycleImportOutcome[]> {
    if (records.length === 0) return [];
    return this.write(() => {
      const { outcomes, writes } = planLifecycleImport(
        records,
        readImportState(this.db, lifecycleImportKeys(records)),
      );
      writeImport(this.db, writes);
      return outcomes;
    });
  }

  async storedVectors(
    space: string,
    ids: readonly string[],
    model: string,
  ): Promise<Map<string, Float32Array>> {
    if (ids.length === 0) return new Map();
    return this.read(() => {
      const rows = this.stmt(
        `SELECT i.id, v.vector ${BY_IDS} JOIN vectors v ON v.item_pk = i.pk AND v.model = ?
           WHERE i.space = ? AND v.vector IS NOT NULL`,
      ).all(JSON.stringify(ids), model, space) as { id: string; vector: Buffer }[];
      return new Map(rows.map((r) => [r.id, blobToVector(r.vector)]));
    });
  }

  async lastMaintenance(space: string | null): Promise<MaintenanceRunRecord | undefined> {
    return this.read(() => {
      const row = this.stmt(
        `SELECT * FROM maintenance_runs WHERE ${space === null ? 'space IS NULL' : '(space = ? OR space IS NULL)'} ORDER BY started_at DESC LIMIT 1`,
      ).get(...(space === null ? [] : [space])) as
        | (Omit<MaintenanceRunRecord, 'summary'> & { summary: string })
        | undefined;
      return row
        ? { ...row, summary: JSON.parse(row.summary) as Record<string, unknown> }
        : undefined;
    });
  }
}
