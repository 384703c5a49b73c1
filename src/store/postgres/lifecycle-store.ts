/**
 * The PostgreSQL side of the lifecycle capability, the twin of the SQLite one: decay facts in one
 * scan, maintenance applied in one transaction, use events, persisted settings and
 * per-conversation auto-recall state, and their export and import (lifecycle-transfer.ts). Several engram processes share the database, so every
 * read-plan-write locks the rows it plans from first, and maintenance runs one at a time.
 */
import { EngramError } from '../../domain/errors.js';
import { lifecycleImportKeys, planLifecycleImport } from '../lifecycle-import-plan.js';
import { factsFromColumns, type UseColumns, useFromColumns } from '../lifecycle-records.js';
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
import type { PgDatabase } from './database.js';
import { lockFactsRows, readFactsRows, writeMaintenance, writeUses } from './lifecycle-rows.js';
import { exportLifecycleRows, readImportState, writeImport } from './lifecycle-transfer.js';
import { assertStorable, parseVector } from './rows.js';

type RunRow = Omit<MaintenanceRunRecord, 'summary'> & { summary: Record<string, unknown> };

function runFromRow(row: RunRow): MaintenanceRunRecord {
  return {
    id: row.id,
    space: row.space,
    started_at: row.started_at,
    finished_at: row.finished_at,
    backup_path: row.backup_path,
    summary: row.summary,
  };
}

/** Whether PostgreSQL can hold the text (no NUL characters). */
function storable(text: string): boolean {
  return !text.includes('\u0000');
}

/** Rejects the text of a use PostgreSQL cannot hold, naming the input field. */
function assertStorableUse(e: UseEventRecord): void {
  assertStorable(e.actor, 'actor');
  assertStorable(e.conversation_id, 'conversation_id');
  assertStorable(e.context_tags, 'context_tags');
  assertStorable(e.context_area, 'context_area');
}

/** Where a lifecycle line holds its record, naming a refused field as the line does. */
const LINE_KEYS: Record<LifecycleRecord['kind'], string> = {
  strength_base: 'strength_base',
  use_event: 'event',
  setting: 'setting',
  autorecall_conversation: 'conversation',
  maintenance_run: 'run',
};

/** The error of an imported record PostgreSQL cannot hold, or undefined when it can. */
function unstorable(record: LifecycleRecord): { error: EngramError } | undefined {
  try {
    assertStorable(record.value, LINE_KEYS[record.kind]);
    return undefined;
  } catch (err) {
    if (err instanceof EngramError) return { error: err };
    throw err;
  }
}

/** LifecycleStore over the PostgreSQL store's pool. */
export class PgLifecycleStore implements LifecycleStore {
  // No `backup`: PostgreSQL has no database file to copy; maintenance backs up a JSONL export of
  // the store's snapshot instead.
  constructor(private readonly db: PgDatabase) {}

  async decayFacts(space: string | null, ids?: readonly string[]): Promise<DecayFacts[]> {
    if (ids?.length === 0) return [];
    return (await readFactsRows(this.db, space, ids)).map(factsFromColumns);
  }

  /**
   * One transaction: waits for any other run on this store (a self-exclusive table lock taken
   * before anything is read), locks the rows it plans from, reads their facts, plans, writes.
   * A throw from `onProgress` rolls everything back and reaches the caller unchanged.
   */
  async applyMaintenance(
    space: string | null,
    plan: (facts: readonly DecayFacts[]) => MaintenanceWrite,
    onProgress?: (done: number, total: number) => void,
  ): Promise<MaintenanceWrite> {
    let stopped: { error: unknown } | undefined;
    const progress =
      onProgress &&
      ((done: number, total: number) => {
        try {
          onProgress(done, total);
        } catch (error) {
          stopped = { error };
          throw error;
        }
      });
    try {
      return await this.db.transaction(async (tx) => {
        stopped = undefined;
        await tx.query('LOCK TABLE maintenance_runs IN SHARE ROW EXCLUSIVE MODE');
        await lockFactsRows(tx, space);
        const rows = await readFactsRows(tx, space, undefined, true);
        const result = plan(rows.map(factsFromColumns));
        await writeMaintenance(tx, result, new Map(rows.map((r) => [r.id, r.pk])), progress);
        return result;
      });
    } catch (err) {
      if (stopped) throw stopped.error;
      throw err;
    }
  }

  async recordUses(
    space: string,
    ids: readonly string[],
    plan: (facts: ReadonlyMap<string, DecayFacts>) => UseEventRecord[],
  ): Promise<UseEventRecord[]> {
    // An id PostgreSQL cannot hold names no item: it is left to be reported unknown, alone.
    const known = ids.filter(storable);
    return this.db.transaction(async (tx) => {
      await lockFactsRows(tx, space, known);
      const facts = (await readFactsRows(tx, space, known, true)).map(factsFromColumns);
      const events = plan(new Map(facts.map((f) => [f.id, f])));
      events.forEach(assertStorableUse);
      await writeUses(tx, space, events);
      return events;
    });
  }

  async useCounts(space: string, since?: number): Promise<UseCounts> {
    const rows = await this.db.query<{ source: string; n: number; crossed: number }>(
      `SELECT source, count(*) AS n, count(*) FILTER (WHERE cross_domain) AS crossed
FROM use_events WHERE space = $1 AND at >= $2 GROUP BY source ORDER BY source COLLATE "C"`,
      [space, since ?? 0],
    );
    return {
      events: rows.reduce((s, r) => s + r.n, 0),
      cross_domain: rows.reduce((s, r) => s + r.crossed, 0),
      by_source: Object.fromEntries(rows.map((r) => [r.source, r.n])),
    };
  }

  async useEvents(space: string, itemId: string): Promise<UseEventRecord[]> {
    if (!storable(itemId)) return [];
    const rows = await this.db.query<UseColumns>(
      'SELECT * FROM use_events WHERE space = $1 AND item_id = $2 ORDER BY at, id',
      [space, itemId],
    );
    return rows.map(useFromColumns);
  }

  async getSetting(space: string, key: string): Promise<unknown> {
    const [row] = await this.db.query<{ value: unknown }>(
      'SELECT value FROM settings WHERE space = $1 AND key = $2',
      [space, key],
    );
    return row?.value;
  }

  async putSetting(space: string, key: string, value: unknown, at: number): Promise<void> {
    assertStorable(value, key);
    await this.db.query(
      `INSERT INTO settings (space, key, value, updated_at) VALUES ($1, $2, $3::json, $4)
ON CONFLICT (space, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      [space, key, JSON.stringify(value), at],
      'write',
    );
  }

  async conversation(
    space: string,
    conversationId: string,
  ): Promise<ConversationState | undefined> {
    if (!storable(conversationId)) return undefined;
    const [row] = await this.db.query<ConversationState>(
      'SELECT space, conversation_id, topics, last_recall_at, updated_at FROM autorecall_conversations WHERE space = $1 AND conversation_id = $2',
      [space, conversationId],
    );
    return row
      ? {
          space: row.space,
          conversation_id: row.conversation_id,
          topics: row.topics,
          last_recall_at: row.last_recall_at,
          updated_at: row.updated_at,
        }
      : undefined;
  }

  async putConversation(state: ConversationState): Promise<void> {
    assertStorable(state.conversation_id, 'conversation_id');
    await this.db.query(
      `INSERT INTO autorecall_conversations (space, conversation_id, topics, last_recall_at, updated_at)
VALUES ($1, $2, $3::json, $4, $5) ON CONFLICT (space, conversation_id) DO UPDATE SET
topics = excluded.topics, last_recall_at = excluded.last_recall_at, updated_at = excluded.updated_at`,
      [
        state.space,
        state.conversation_id,
        JSON.stringify(state.topics),
        state.last_recall_at,
        state.updated_at,
      ],
      'write',
    );
  }

  async lastMaintenance(space: string | null): Promise<MaintenanceRunRecord | undefined> {
    const [row] = await this.db.query<RunRow>(
      `SELECT * FROM maintenance_runs WHERE ${space === null ? 'space IS NULL' : '(space = $1 OR space IS NULL)'}
ORDER BY started_at DESC, id DESC LIMIT 1`,
      space === null ? [] : [space],
    );
    return row ? runFromRow(row) : undefined;
  }

  exportLifecycle(space: string | null): AsyncIterable<LifecycleRecord> {
    return exportLifecycleRows(this.db, space);
  }

  /** One transaction; a record with text PostgreSQL cannot hold fails alone, before it. */
  async importLifecycle(records: readonly LifecycleRecord[]): Promise<LifecycleImportOutcome[]> {
    const refused = records.map(unstorable);
    const storable = records.filter((_, i) => refused[i] === undefined);
    const planned =
      storable.length === 0
        ? []
        : await this.db.transaction(async (tx) => {
            const held = await readImportState(tx, lifecycleImportKeys(storable));
            const { outcomes, writes } = planLifecycleImport(storable, held);
            await writeImport(tx, writes);
            return outcomes;
          });
    let next = 0;
    return refused.map((error) => error ?? planned[next++]!);
  }

  async storedVectors(
    space: string,
    ids: readonly string[],
    model: string,
  ): Promise<Map<string, Float32Array>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.query<{ id: string; vec: string }>(
      `SELECT i.id, v.embedding::text AS vec FROM items i
JOIN vectors v ON v.item_pk = i.pk AND v.model = $3
WHERE i.space = $1 AND i.id = ANY($2::text[]) AND v.embedding IS NOT NULL`,
      [space, [...ids], model],
    );
    return new Map(rows.map((r) => [r.id, parseVector(r.vec)]));
  }
}
