/**
 * The state a PostgreSQL store shares with its function modules: the pool, the schema, the
 * vector index settings and the small caches kept between calls. Built once from the options.
 */
import { EngramError } from '../../domain/errors.js';
import type { Logger } from '../../domain/log.js';
import { silentLogger } from '../../domain/log.js';
import { parseConnection, type PgSslOptions } from './connection.js';
import { PgDatabase } from './database.js';
import { PgKeywordSearch } from './keyword.js';
import { StatisticsRefresh } from './statistics-refresh.js';
import { hnswSessionSettings, type HnswSettings } from './vector-index.js';
import { VectorIndexes } from './vector-indexes.js';

/** Options of the PostgreSQL store (configuration keys under `store`). */
export interface PostgresStoreOptions {
  /** `postgres://user:password@host:port/database?sslmode=...` */
  url: string;
  /** Schema holding engram's tables (created when missing). Default `engram`. */
  schema?: string;
  poolSize?: number;
  /** Longest a statement may run; 0 = no limit. Default 30 s. */
  statementTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** TLS settings; they win over the URL's sslmode/sslrootcert/sslcert/sslkey. */
  ssl?: PgSslOptions;
  hnsw?: Partial<HnswSettings>;
  logger?: Logger;
}

/** A vector count and when it was taken. */
export interface CachedCount {
  n: number;
  at: number;
}

/** What the store's function modules work on. */
export interface PgStoreContext {
  readonly db: PgDatabase;
  readonly schema: string;
  readonly hnsw: HnswSettings;
  readonly logger: Logger;
  readonly indexes: VectorIndexes;
  readonly statistics: StatisticsRefresh;
  /** Vectors per `space NUL model`, cached briefly (they only pick exact scan or index). */
  readonly vectorCounts: Map<string, CachedCount>;
  /** The keyword channel, with its cache of term frequencies. */
  readonly keyword: PgKeywordSearch;
}

/** Validates the options and builds the store's state; nothing connects yet. */
export function createStoreContext(options: PostgresStoreOptions): PgStoreContext {
  const schema = checkedSchema(options.schema ?? 'engram');
  // The defaults of `store.ann`, so a store opened directly behaves as a configured one.
  const hnsw: HnswSettings = {
    m: 16,
    efConstruction: 200,
    efSearch: 1_000,
    exactBelow: 20_000,
    ...options.hnsw,
  };
  const logger = options.logger ?? silentLogger;
  const db = new PgDatabase(parseConnection(options.url, options.ssl), {
    schema,
    poolSize: options.poolSize ?? 10,
    statementTimeoutMs: options.statementTimeoutMs ?? 30_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    logger,
    sessionSettings: hnswSessionSettings(hnsw),
  });
  return {
    db,
    schema,
    hnsw,
    logger,
    indexes: new VectorIndexes(db, schema, hnsw, logger),
    statistics: new StatisticsRefresh(db, logger),
    vectorCounts: new Map(),
    keyword: new PgKeywordSearch(),
  };
}

/** The schema name is spliced into SQL, so it must be a plain identifier. */
function checkedSchema(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema))
    throw new EngramError(
      'CONFIG_INVALID',
      'store.schema: must be 1-63 lowercase letters, digits or "_"',
      {
        field: 'store.schema',
        rule: 'identifier',
      },
    );
  return schema;
}
