/**
 * What the PostgreSQL store reports about itself: where it lives (never with the password), the
 * counts and size `status` shows, and the integrity check.
 */
import type { StoreStats } from '../store.js';
import type { PgDatabase } from './database.js';
import type { PgStoreContext } from './store-context.js';
import { integrityProblems } from './transfer.js';

/** Where the store lives, without credentials: `postgres://user@host:port/db#schema`. */
export function storeLocation(ctx: PgStoreContext): string {
  const { target } = ctx.db.connection;
  return `postgres://${target.user}@${target.label}#${ctx.schema}`;
}

/** Item, vector and relation counts of one space (or all with null), and the schema's size. */
export async function stats(ctx: PgStoreContext, space: string | null): Promise<StoreStats> {
  const scope = space === null ? '' : 'WHERE space = $1';
  const params = space === null ? [] : [space];
  const group = (column: string) => countBy(ctx.db, column, scope, params);
  const [byStatus, byKind, byVector, relations, size] = await Promise.all([
    group('status'),
    group('kind'),
    group('vector_state'),
    ctx.db.query<{ n: number }>(`SELECT count(*) AS n FROM relations ${scope}`, params),
    ctx.db.query<{ n: number | null }>(
      "SELECT sum(pg_total_relation_size(c.oid))::int8 AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = $1 AND c.relkind = 'r'",
      [ctx.schema],
    ),
  ]);
  return {
    location: storeLocation(ctx),
    schema_version: ctx.db.schemaVersion,
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

/** The schema's structural checks (migrations, pgvector, indexes, vectors, orphans) and their verdict. */
export async function integrityCheck(
  ctx: PgStoreContext,
): Promise<{ ok: boolean; problems: string[] }> {
  const problems = await integrityProblems(ctx.db, ctx.schema);
  return { ok: problems.length === 0, problems };
}

/** Items per value of a column (a missing value counts as `active`). */
async function countBy(
  db: PgDatabase,
  column: string,
  scope: string,
  params: string[],
): Promise<Record<string, number>> {
  const rows = await db.query<{ k: string; n: number }>(
    `SELECT coalesce(${column}, 'active') AS k, count(*) AS n FROM items ${scope} GROUP BY 1 ORDER BY 1`,
    params,
  );
  return Object.fromEntries(rows.map((r) => [r.k, r.n]));
}
