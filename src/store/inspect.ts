/**
 * A read-only look at the configured store for `engram doctor`, on either backend: it never
 * creates, migrates or writes a store (see sqlite/inspect.ts and postgres/inspect.ts).
 */
import type { Config } from '../config/schema.js';
import { inspectPostgres, type PostgresInspection } from './postgres/inspect.js';
import { inspectSqlite, type SqliteInspection } from './sqlite/inspect.js';

export type { PostgresInspection } from './postgres/inspect.js';
export type { SqliteInspection } from './sqlite/inspect.js';

/** What the look at a store found. */
export type StoreInspection = SqliteInspection | PostgresInspection;

/** Looks at the store the configuration names. */
export async function inspectStore(config: Config): Promise<StoreInspection> {
  const { store } = config;
  if (store.backend === 'postgres')
    return inspectPostgres({
      url: store.url!,
      schema: store.schema,
      ssl: store.ssl,
      connectTimeoutMs: store.connect_timeout_ms,
      statementTimeoutMs: store.statement_timeout_ms,
    });
  return inspectSqlite(store.path!, store.busy_timeout_ms);
}
