/**
 * Status facts of the SQLite store: item, vector and relation counts, file size, the vector and
 * keyword index states, and the integrity check of the database and its full-text index.
 */
import { statSync } from 'node:fs';

import type { StoreStats } from '../store.js';
import type { SqliteVectorSearch } from './ann-search.js';
import type { KeywordMemory } from './keyword-memory.js';
import type { StoreCore } from './store-core.js';

/** Counts and facts for `status`, over one space or (null) the whole store. */
export async function stats(
  core: StoreCore,
  vectorIndex: SqliteVectorSearch,
  keywordMemory: KeywordMemory | undefined,
  space: string | null,
): Promise<StoreStats> {
  return core.read(() => {
    const scope = space === null ? '' : 'WHERE space = @space';
    const params = space === null ? {} : { space };
    const count = (table: string) =>
      (core.db.prepare(`SELECT count(*) AS n FROM ${table} ${scope}`).get(params) as { n: number })
        .n;
    const group = (column: string) =>
      Object.fromEntries(
        (
          core.db
            .prepare(
              `SELECT coalesce(${column}, 'active') AS k, count(*) AS n FROM items ${scope} GROUP BY k ORDER BY k`,
            )
            .all(params) as { k: string; n: number }[]
        ).map((r) => [r.k, r.n]),
      );
    const byVector = group('vector_state');
    const total = count('items');
    const relations = count('relations');
    return {
      location: core.path,
      schema_version: core.schemaVersion,
      items_total: total,
      by_status: group('status'),
      by_kind: group('kind'),
      vectors: {
        ready: byVector.ready ?? 0,
        pending: byVector.pending ?? 0,
        empty: byVector.empty ?? 0,
      },
      relations,
      size_bytes: fileSize(core.path),
      vector_index: vectorIndex.status(),
      ...(keywordMemory && { keyword_index: keywordMemory.status() }),
    };
  });
}

/** Bytes of the database file and its WAL; null for an in-memory store. */
function fileSize(path: string): number | null {
  if (path === ':memory:') return null;
  let total = 0;
  for (const suffix of ['', '-wal']) {
    try {
      total += statSync(path + suffix).size;
    } catch {
      // the WAL file may not exist
    }
  }
  return total;
}

/** SQLite's integrity check plus the full-text index's own; problems are listed, not thrown. */
export async function integrityCheck(
  core: StoreCore,
): Promise<{ ok: boolean; problems: string[] }> {
  return core.read(() => {
    const rows = core.db.pragma('integrity_check') as { integrity_check: string }[];
    const problems = rows.map((r) => r.integrity_check).filter((m) => m !== 'ok');
    try {
      core.db.prepare("INSERT INTO items_fts(items_fts, rank) VALUES ('integrity-check', 1)").run();
    } catch (err) {
      problems.push(`full-text index: ${(err as Error).message}`);
    }
    return { ok: problems.length === 0, problems };
  });
}
