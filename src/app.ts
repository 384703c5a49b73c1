/**
 * createEngram(config): the one place that wires default implementations — the store backend,
 * the embedder and its queue, the logger — into a MemoryService.
 */
import { loadConfig } from './config/load.js';
import type { Config, ConfigInput } from './config/schema.js';
import { type Logger, stderrLogger } from './domain/log.js';
import type { Embedder } from './embed/embedder.js';
import { EmbeddingQueue } from './embed/queue.js';
import { StaticEmbedder } from './embed/static/static-embedder.js';
import { VectorSupply } from './models/supply.js';
import { configuredScorer, wordVectorSource } from './retrieval/rerank/scorers.js';
import { MemoryService } from './service/service.js';
import { openPostgresStore } from './store/postgres/postgres-store.js';
import { openSqliteStore } from './store/sqlite/sqlite-store.js';
import type { Store } from './store/store.js';

/** Options of createEngram. */
export interface CreateEngramOptions {
  /** Configuration values; they win over the file and the environment. */
  config?: ConfigInput;
  /** A YAML configuration file (else `ENGRAM_CONFIG`, else defaults only). */
  configFile?: string;
  /** Environment for `ENGRAM_*` overrides (default process.env). */
  env?: Record<string, string | undefined>;
  /** An embedder to use instead of the configured provider. */
  embedder?: Embedder | null;
  /** Where warnings go (default: stderr). */
  logger?: Logger;
  /** Run background work (vector backfill) in this process (default true). */
  background?: boolean;
  /** Clock, for tests of time-dependent behaviour. */
  now?: () => number;
}

/** The engram service returned by createEngram. */
export type Engram = MemoryService;

function openStore(config: Config, log: Logger): Store {
  const { store } = config;
  if (store.backend === 'postgres')
    // Connects on first use, so createEngram stays synchronous.
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
    path: config.store.path!,
    ann: config.store.ann,
    busyTimeoutMs: config.store.busy_timeout_ms,
    writeRetryMs: config.store.write_retry_ms,
  });
}

function defaultEmbedder(config: Config): Embedder | null {
  if (config.embedder.provider === 'none') return null;
  return new StaticEmbedder({ cacheDir: config.embedder.cache_dir!, sifA: config.embedder.sif_a });
}

/** Loads configuration, opens the store and returns the memory service. */
export function createEngram(options: CreateEngramOptions = {}): Engram {
  const config = loadConfig({
    file: options.configFile,
    env: options.env,
    overrides: options.config,
  });
  const log = options.logger ?? stderrLogger();
  const store = openStore(config, log);
  const embedder = options.embedder === undefined ? defaultEmbedder(config) : options.embedder;
  const queue = embedder ? new EmbeddingQueue(embedder) : null;
  const vectors = new VectorSupply(store, embedder, queue, config, log, options.background ?? true);
  const relevance = configuredScorer(config.recall.rerank, wordVectorSource(embedder));
  return new MemoryService({ config, store, vectors, log, now: options.now, relevance });
}
