/**
 * Planner statistics after bulk growth on PostgreSQL. Autovacuum refreshes them too, but up to a
 * minute later: until then a freshly imported store would be planned as if it were empty.
 */
import type { Logger } from '../../domain/log.js';
import type { PgDatabase } from './database.js';

/** Counts rows a store added and refreshes statistics in the background once they matter. */
export class StatisticsRefresh {
  private grown = 0;
  private analyzing: Promise<void> | undefined;

  constructor(
    private readonly db: PgDatabase,
    private readonly logger: Logger,
  ) {}

  /** Notes new rows; past a fifth of the table (at least 1000 rows) it runs ANALYZE. */
  grew(rows: number): void {
    this.grown += rows;
    if (this.grown < 1_000 || this.analyzing) return;
    this.analyzing = this.analyze()
      .catch((err: unknown) =>
        this.logger.info('postgres: statistics refresh skipped', { error: String(err) }),
      )
      .finally(() => (this.analyzing = undefined));
  }

  /** The refresh in flight, if any, so closing the pool waits for it. */
  running(): Promise<void> | undefined {
    return this.analyzing;
  }

  private async analyze(): Promise<void> {
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
  }
}
