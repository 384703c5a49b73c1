/**
 * The PostgreSQL store's search channels: keyword search, vector search (an exact scan for small
 * spaces, the HNSW index once one is built and worth it) and the conversation turns around hits.
 */
import type { ItemFilter } from '../../domain/filter.js';
import type { ScoredId, SessionTurn } from '../store.js';
import {
  lastTurn,
  sessionNeighbors as sessionRows,
  writeNeighbors as writeRows,
} from './session-context.js';
import type { PgStoreContext } from './store-context.js';
import { annEf, annSearch, exactSearch, setAnnEf } from './vector-index.js';

/** How long a vector count is trusted: it only picks exact scan or index. */
const COUNT_TTL_MS = 30_000;

/** Items whose text matches the terms, best first. */
export function keywordSearch(
  ctx: PgStoreContext,
  filter: ItemFilter,
  terms: readonly string[],
  limit: number,
): Promise<ScoredId[]> {
  if (terms.length === 0 || limit <= 0) return Promise.resolve([]);
  return ctx.keyword.search(ctx.db, filter, terms, limit);
}

/** Items whose vector of the model is nearest the given one, best first. */
export async function vectorSearch(
  ctx: PgStoreContext,
  filter: ItemFilter,
  model: string,
  vector: Float32Array,
  limit: number,
): Promise<ScoredId[]> {
  if (limit <= 0 || vector.length === 0) return [];
  const count = await vectorCount(ctx, filter.space, model);
  if (count >= ctx.hnsw.exactBelow && (await ctx.indexes.ready(model, vector.length, count))) {
    // Connections start with the default walk size: a larger one needs a transaction to set it.
    const ef = annEf(limit, ctx.hnsw);
    const ann =
      ef === annEf(0, ctx.hnsw)
        ? await annSearch(ctx.db, filter, model, vector, limit)
        : await ctx.db.transaction(async (tx) => {
            await setAnnEf(tx, ef);
            return annSearch(tx, filter, model, vector, limit);
          }, 'read');
    if (ann) return ann;
  }
  return exactSearch(ctx.db, filter, model, vector, limit, count);
}

/** Conversation turns around the given items (recall's session context). */
export function sessionNeighbors(
  ctx: PgStoreContext,
  filter: ItemFilter,
  ids: readonly string[],
  window: number,
): Promise<SessionTurn[]> {
  return sessionRows(ctx.db, filter, ids, window);
}

/** The write neighbours of each listed item written with no session. */
export function writeNeighbors(
  ctx: PgStoreContext,
  filter: ItemFilter,
  ids: readonly string[],
  window: number,
  gapMs: number,
): Promise<SessionTurn[]> {
  return writeRows(ctx.db, filter, ids, window, gapMs);
}

/** The highest turn recorded for a session in a space, or null. */
export function sessionLastTurn(
  ctx: PgStoreContext,
  space: string,
  session: string,
): Promise<number | null> {
  return lastTurn(ctx.db, space, session);
}

/** Vectors of a model in a space, cached briefly. */
async function vectorCount(ctx: PgStoreContext, space: string, model: string): Promise<number> {
  if (ctx.hnsw.exactBelow <= 0) return 1;
  const key = `${space}\u0000${model}`;
  const cached = ctx.vectorCounts.get(key);
  if (cached && Date.now() - cached.at < COUNT_TTL_MS) return cached.n;
  const [row] = await ctx.db.query<{ n: number }>(
    'SELECT count(*) AS n FROM vectors v JOIN items i ON i.pk = v.item_pk WHERE i.space = $1 AND v.model = $2 AND v.embedding IS NOT NULL',
    [space, model],
  );
  const n = row?.n ?? 0;
  ctx.vectorCounts.set(key, { n, at: Date.now() });
  return n;
}
