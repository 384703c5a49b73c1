/**
 * Search reads of the SQLite store: keyword (FTS5), vector (mirrors and HNSW indexes) and the
 * neighbouring turns of recorded conversations, each run as one guarded read.
 */
import type { ItemFilter } from '../../domain/filter.js';
import type { ScoredId, SessionTurn, VectorSearchResult } from '../store.js';
import type { SqliteVectorSearch } from './ann-search.js';
import type { FtsSearch } from './fts-search.js';
import type { ReadCache } from './read-cache.js';
import {
  lastTurn,
  sessionNeighbors,
  sessionNeighborsBySeed,
  writeNeighbors,
  writeNeighborsBySeed,
} from './session-context.js';
import type { StoreCore } from './store-core.js';

/** The search engines a store's searches run on. */
export interface SearchEngines {
  core: StoreCore;
  /** Keyword search: BM25 through FTS5, planned for large stores (fts-search.ts). */
  fts: FtsSearch;
  /** Vector search: the in-memory mirrors and their HNSW indexes (ann-search.ts). */
  vectors: SqliteVectorSearch;
  /** Recall's reads kept between recalls while nothing changes (read-cache.ts). */
  cache: ReadCache;
}

/** Items matching the terms, best BM25 first; nothing for no terms or no room. */
export async function keywordSearch(
  engines: SearchEngines,
  filter: ItemFilter,
  terms: readonly string[],
  limit: number,
): Promise<ScoredId[]> {
  if (terms.length === 0 || limit <= 0) return [];
  return engines.core.read(() => engines.fts.search(filter, terms, limit));
}

/** Items nearest the vector under the model, with why the search degraded when it did. */
export async function vectorSearchReport(
  engines: SearchEngines,
  filter: ItemFilter,
  model: string,
  vector: Float32Array,
  limit: number,
): Promise<VectorSearchResult> {
  return engines.core.read(() => engines.vectors.search(filter, model, vector, limit));
}

/** The turns within `window` of each listed item in its recorded conversation. */
export async function sessionTurns(
  engines: SearchEngines,
  filter: ItemFilter,
  ids: readonly string[],
  window: number,
): Promise<SessionTurn[]> {
  const { core, cache } = engines;
  return core.read(() =>
    cache.usable()
      ? cache.neighboursOf(`session ${window}`, filter, ids, (missing) =>
          sessionNeighborsBySeed(core, filter, missing, window),
        )
      : sessionNeighbors(core, filter, ids, window),
  );
}

/** The write neighbours of each listed item written with no session. */
export async function writeTurns(
  engines: SearchEngines,
  filter: ItemFilter,
  ids: readonly string[],
  window: number,
  gapMs: number,
): Promise<SessionTurn[]> {
  const { core, cache } = engines;
  return core.read(() =>
    cache.usable()
      ? cache.neighboursOf(`write ${window} ${gapMs}`, filter, ids, (missing) =>
          writeNeighborsBySeed(core, filter, missing, window, gapMs),
        )
      : writeNeighbors(core, filter, ids, window, gapMs),
  );
}

/** The highest turn recorded for a session in a space, or null. */
export async function sessionLastTurn(
  engines: SearchEngines,
  space: string,
  session: string,
): Promise<number | null> {
  return engines.core.read(() => lastTurn(engines.core, space, session));
}
