/**
 * The PostgreSQL side of dormant recall (§9.5), with the same SQL semantics as the SQLite one:
 * two additive tables created lazily (CREATE TABLE IF NOT EXISTS under an advisory lock, never a
 * migration), an exact cosine scan computed in the server over the stored vectors (an expression
 * no vector index can serve, so the HNSW index is never used), and one short transaction per
 * write. Evaluators of one space serialise on a transaction-level advisory lock with a short
 * lock timeout: a wait that runs out fails open (nothing recorded) instead of stalling.
 */
import type { Kind } from '../../core/types.js';
import type {
  DormantEventRecord,
  DormantFeedback,
  DormantRecordRequest,
  DormantRetention,
  DormantScanHit,
  DormantScanRequest,
  DormantStateRecord,
  DormantStore,
} from '../../dormant/dormant-store.js';
import { checkFeedback } from '../../dormant/profile.js';
import { EngramError, isEngramError } from '../../errors/errors.js';
import type { PgDatabase, Queryable } from './database.js';
import {
  eventFromRow,
  insertEvent,
  isEligible,
  prune,
  readEvent,
  SCHEMA_SQL,
  SINCE,
  stateFromRow,
  stillSelectable,
  upsertState,
} from './dormant-rows.js';
import { compileFilter, Params, vectorText } from './rows.js';

/** How long a dormant write waits for a lock before failing open. */
const LOCK_TIMEOUT = '250ms';
/** Advisory-lock class of dormant-recall decisions (the second key is the space's hash). */
const LOCK_CLASS = 0x646f726d; // "dorm"
const EXPORT_PAGE = 500;

/** Dormant-recall persistence over PostgreSQL. */
export class PgDormantStore implements DormantStore {
  private ready = false;

  constructor(private readonly db: PgDatabase) {}

  private async tablesExist(): Promise<boolean> {
    if (this.ready) return true;
    const rows = await this.db.query<{ n: string }>(
      "SELECT count(*) AS n FROM pg_tables WHERE schemaname = current_schema() AND tablename IN ('dormant_recall_events', 'dormant_recall_state')",
    );
    this.ready = Number(rows[0]?.n ?? 0) === 2;
    return this.ready;
  }

  private async ensureSchema(): Promise<void> {
    if (await this.tablesExist()) return;
    await this.db.transaction(async (tx) => {
      // Concurrent first evaluations would race on the catalog: one creates, the rest wait.
      await tx.query('SELECT pg_advisory_xact_lock($1, 0)', [LOCK_CLASS]);
      await tx.query(SCHEMA_SQL);
    });
    this.ready = true;
  }

  /** A write transaction with a short lock wait; null when the wait ran out (fail open). */
  private async tryWrite<T>(fn: (tx: Queryable) => Promise<T>): Promise<T | null> {
    await this.ensureSchema();
    try {
      return await this.db.transaction(async (tx) => {
        await tx.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
        return fn(tx);
      });
    } catch (err) {
      if (isEngramError(err) && err.code === 'STORE_BUSY') return null;
      throw err;
    }
  }

  private async write<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const out = await this.tryWrite(fn);
    if (out === null)
      throw new EngramError('STORE_BUSY', 'the store stayed busy; try again', { rule: 'busy' });
    return out;
  }

  async scan(request: DormantScanRequest): Promise<{ hits: DormantScanHit[]; scanned: number }> {
    const { eligibility } = request;
    if (eligibility.kinds.length === 0 || request.limit <= 0) return { hits: [], scanned: 0 };
    const p = new Params();
    const where = compileFilter(
      { ...request.filter, statuses: ['active'], kinds: eligibility.kinds },
      p,
    );
    const state = (await this.tablesExist())
      ? 'dormant_recall_state'
      : '(SELECT NULL::text AS space, NULL::text AS item_id, NULL::bigint AS used_at, NULL::bigint AS cooldown_until)';
    const q = p.add(vectorText(request.vector));
    const before = p.add(eligibility.dormantBefore, '::bigint');
    const now = p.add(eligibility.now, '::bigint');
    // 1 - cosine distance of the raw column: no operator class can serve it, so this is exact.
    const sql = `WITH scored AS (
  SELECT i.id, i.version, ${SINCE} AS since, 1 - (v.embedding <=> ${q}::vector) AS cosine
  FROM items i
  JOIN vectors v ON v.item_pk = i.pk AND v.model = ${p.add(request.model)}
  LEFT JOIN ${state} s ON s.space = i.space AND s.item_id = i.id
  WHERE ${where} AND v.embedding IS NOT NULL AND vector_dims(v.embedding) = ${p.add(request.vector.length)}
    AND NOT (i.id = ANY(${p.add([...request.exclude], '::text[]')}))
    AND (${before} IS NULL OR ${SINCE} <= ${before})
    AND (${now} IS NULL OR s.cooldown_until IS NULL OR s.cooldown_until <= ${now})
)
SELECT id, version, since, cosine, count(*) OVER () AS scanned FROM scored
WHERE cosine <> 'NaN'::float8 ORDER BY cosine DESC, id LIMIT ${p.add(request.limit)}`;
    const rows = await this.db.query<{
      id: string;
      version: number;
      since: string;
      cosine: number;
      scanned: string;
    }>(sql, p.values);
    return {
      hits: rows.map((r) => ({
        id: r.id,
        cosine: r.cosine,
        version: r.version,
        dormant_since: Number(r.since),
      })),
      scanned: Number(rows[0]?.scanned ?? 0),
    };
  }

  async record(request: DormantRecordRequest): Promise<DormantEventRecord | null> {
    return this.tryWrite(async (tx) => {
      const { space } = request.event;
      await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS, space]);
      let chosen: DormantRecordRequest['ranked'][number] | undefined;
      for (const c of request.ranked)
        if (await stillSelectable(tx, request, c)) {
          chosen = c;
          break;
        }
      const { now } = request.eligibility;
      const event: DormantEventRecord = {
        ...request.event,
        outcome: chosen ? 'selected' : request.event.outcome === 'failed' ? 'failed' : 'none',
        candidate_id: chosen?.id ?? null,
        candidate_version: chosen?.version ?? null,
        raw_relevance: chosen?.raw_relevance ?? null,
        relevance_score: chosen?.relevance_score ?? null,
        bonus: chosen?.bonus ?? null,
        dormant_days: chosen?.dormant_days ?? null,
        overlap_terms: chosen?.overlap_terms ?? null,
        retrieved_at: chosen ? now : null,
        shown_at: null,
        feedback: null,
        feedback_at: null,
      };
      await insertEvent(tx, event);
      if (chosen)
        await upsertState(tx, space, chosen.id, now, {
          retrieved_at: now,
          cooldown_until: request.cooldownUntil,
        });
      await prune(tx, space, request.retention, request.eligibility.kinds);
      return event;
    });
  }

  async prune(
    space: string,
    retention: DormantRetention,
    kinds: readonly Kind[],
  ): Promise<boolean> {
    return (await this.tryWrite((tx) => prune(tx, space, retention, kinds))) !== null;
  }

  async review(
    space: string,
    limit: number,
    retention: DormantRetention,
    kinds: readonly Kind[],
  ): Promise<DormantEventRecord[]> {
    await this.prune(space, retention, kinds);
    const rows = await this.db.query<DormantEventRecord>(
      'SELECT * FROM dormant_recall_events WHERE space = $1 ORDER BY at DESC, id DESC LIMIT $2',
      [space, limit],
    );
    return rows.map(eventFromRow);
  }

  async event(space: string, id: string): Promise<DormantEventRecord | undefined> {
    await this.ensureSchema();
    return readEvent(this.db, space, id);
  }

  async state(space: string, itemId: string): Promise<DormantStateRecord | undefined> {
    await this.ensureSchema();
    const [row] = await this.db.query<DormantStateRecord>(
      'SELECT * FROM dormant_recall_state WHERE space = $1 AND item_id = $2',
      [space, itemId],
    );
    return row ? stateFromRow(row) : undefined;
  }

  async markShown(
    space: string,
    eventId: string,
    at: number,
    cooldownUntil: number,
    kinds: readonly Kind[],
  ): Promise<DormantEventRecord | undefined> {
    return this.write(async (tx) => {
      const event = await readEvent(tx, space, eventId, true);
      if (!event) return undefined;
      if (event.shown_at === null)
        await tx.query('UPDATE dormant_recall_events SET shown_at = $1 WHERE id = $2', [
          at,
          eventId,
        ]);
      if (event.candidate_id && (await isEligible(tx, space, event.candidate_id, kinds)))
        await upsertState(tx, space, event.candidate_id, at, {
          shown_at: at,
          cooldown_until: cooldownUntil,
        });
      return readEvent(tx, space, eventId);
    });
  }

  async feedback(
    space: string,
    eventId: string,
    category: DormantFeedback,
    at: number,
    cooldownUntil: number,
    kinds: readonly Kind[],
  ): Promise<{ event: DormantEventRecord; changed: boolean } | undefined> {
    return this.write(async (tx) => {
      const event = await readEvent(tx, space, eventId, true);
      if (!event) return undefined;
      if (!checkFeedback(event, category)) return { event, changed: false };
      await tx.query(
        'UPDATE dormant_recall_events SET feedback = $1, feedback_at = $2 WHERE id = $3',
        [category, at, eventId],
      );
      const id = event.candidate_id!;
      if (await isEligible(tx, space, id, kinds))
        await upsertState(tx, space, id, at, {
          cooldown_until: cooldownUntil,
          ...(category === 'useful' ? { used_at: at } : {}),
        });
      return { event: (await readEvent(tx, space, eventId))!, changed: true };
    });
  }

  async *exportEvents(space: string | null): AsyncIterable<DormantEventRecord> {
    for await (const row of this.page<DormantEventRecord>('dormant_recall_events', 'id', space))
      yield eventFromRow(row);
  }

  async *exportStates(space: string | null): AsyncIterable<DormantStateRecord> {
    for await (const row of this.page<DormantStateRecord>('dormant_recall_state', 'item_id', space))
      yield stateFromRow(row);
  }

  private async *page<T>(table: string, key: string, space: string | null): AsyncIterable<T> {
    if (!(await this.tablesExist())) return;
    let after = '';
    for (;;) {
      const rows = await this.db.query<T & Record<string, unknown>>(
        `SELECT * FROM ${table} WHERE ${key} > $1 ${space === null ? '' : 'AND space = $2'} ORDER BY ${key} LIMIT ${EXPORT_PAGE}`,
        space === null ? [after] : [after, space],
      );
      for (const row of rows) yield row as T;
      if (rows.length < EXPORT_PAGE) return;
      after = String(rows[rows.length - 1]![key]);
    }
  }

  async importEvents(records: readonly DormantEventRecord[]): Promise<('imported' | 'exists')[]> {
    return this.write(async (tx) => {
      const out: ('imported' | 'exists')[] = [];
      for (const r of records) out.push((await insertEvent(tx, r, true)) ? 'imported' : 'exists');
      return out;
    });
  }

  async importStates(records: readonly DormantStateRecord[]): Promise<('imported' | 'exists')[]> {
    return this.write(async (tx) => {
      const out: ('imported' | 'exists')[] = [];
      for (const r of records) {
        const rows = await tx.query(
          'INSERT INTO dormant_recall_state(space, item_id, retrieved_at, shown_at, used_at, cooldown_until, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (space, item_id) DO NOTHING RETURNING 1',
          [
            r.space,
            r.item_id,
            r.retrieved_at,
            r.shown_at,
            r.used_at,
            r.cooldown_until,
            r.updated_at,
          ],
        );
        out.push(rows.length > 0 ? 'imported' : 'exists');
      }
      return out;
    });
  }
}
