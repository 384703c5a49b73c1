/** Opens the configured store backend: SQLite (the embedded default) or PostgreSQL. */
import { existsSync } from 'node:fs';

import type { Config } from '../config/schema.js';
import type { Logger } from '../domain/log.js';
import { openPostgresStore } from './postgres/postgres-store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './store.js';

/** The store the configuration names; PostgreSQL connects on first use, so this stays synchronous. */
export function openStore(config: Config, log: Logger): Store {
  const { store } = config;
  if (store.backend === 'postgres')
    return openPostgresStore({
      url: store.url!,
      schema: store.schema,
      poolSize: store.pool_size,
      statementTimeoutMs: store.statement_timeout_ms,
      connectTimeoutMs: store.connect_timeout_ms,
      ssl: store.ssl,
      // `store.ann` as for SQLite's index, with pgvector's own build and search widths.
      hnsw: {
        m: store.ann.m,
        efConstruction: store.ann.postgres_ef_construction,
        efSearch: store.ann.postgres_ef_search,
        exactBelow: store.ann.enabled ? store.ann.min_items : Number.POSITIVE_INFINITY,
      },
      logger: log,
    });
  return openSqliteStore({
    path: store.path!,
    ann: store.ann,
    keywordMemory: store.keyword_memory,
    busyTimeoutMs: store.busy_timeout_ms,
    writeRetryMs: store.write_retry_ms,
    mmapMb: store.mmap_mb,
    checkpointThread: store.checkpoint_thread,
    logger: log,
  });
}

/**
 * Whether the configured store exists already, without opening (and so creating) it: a SQLite
 * file, or an in-memory store. A PostgreSQL store is known only by connecting; it counts as there.
 */
export function storeExists(config: Config): boolean {
  const { store } = config;
  if (store.backend === 'postgres' || store.path === ':memory:') return true;
  return existsSync(store.path!);
}
