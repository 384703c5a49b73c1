/**
 * The PostgreSQL side of dormant recall (§9.5), with the same SQL semantics as the SQLite one:
 * two additive tables created lazily (CREATE TABLE IF NOT EXISTS under an advisory lock, never a
 * migration), an exact cosine scan computed in the server over the stored vectors (an expression
 * no vector index can serve, so the HNSW index is never used), and one short transaction per
 * write. Evaluators of one space serialise on a transaction-level advisory lock with a short
 * lock timeout: a wait that runs out fails open (nothing recorded) instead of stalling.
 */
import { isEngramError } from '../../domain/errors.js';
import { type DormantFlow, runAsync } from '../dormant/flows.js';
import { DormantStoreBase } from '../dormant/store-base.js';
import type { DormantScanHit, DormantScanRequest } from '../dormant-store.js';
import type { PgDatabase } from './database.js';
import { LOCK_CLASS, pgDormantRows, SCHEMA_SQL, SINCE } from './dormant-rows.js';
import { compileFilter, Params, vectorText } from './rows.js';

/** How long a dormant write waits for a lock before failing open. */
const LOCK_TIMEOUT = '250ms';

/** Dormant-recall persistence over PostgreSQL. */
export class PgDormantStore extends DormantStoreBase {
  private ready = false;

  constructor(private readonly db: PgDatabase) {
    super();
  }

  protected async tablesExist(): Promise<boolean> {
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

  protected async tryRun<T>(flow: () => DormantFlow<T>): Promise<T | null> {
    await this.ensureSchema();
    try {
      return await this.db.transaction(async (tx) => {
        await tx.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
        return runAsync(flow(), pgDormantRows(tx));
      });
    } catch (err) {
      if (isEngramError(err) && err.code === 'STORE_BUSY') return null;
      throw err;
    }
  }

  protected async read<T>(flow: () => DormantFlow<T>): Promise<T> {
    await this.ensureSchema();
    return runAsync(flow(), pgDormantRows(this.db));
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
}
