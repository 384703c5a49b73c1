/**
 * The PostgreSQL connection pool of one store: lazy start (createEngram stays synchronous),
 * migrations before the first query, short transactions with retries on deadlocks and
 * serialisation failures, and every failure mapped to an EngramError that names the server.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import type pg from 'pg';
import type { PoolClient, QueryResultRow } from 'pg';

import { EngramError } from '../../domain/errors.js';
import type { Logger } from '../../domain/log.js';
import { type PgConnection, poolConfig, type PoolSettings } from './connection.js';
import { pgDriver } from './driver.js';
import { pgError, type PgPhase, RETRYABLE_STATES } from './errors.js';
import { migrate, type MigrationResult } from './migrations.js';

/** Something that runs SQL: the pool or one transaction's client. */
export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(sql: string, params?: unknown[]): Promise<R[]>;
}

/** Settings of a store's database. */
export interface DatabaseSettings extends PoolSettings {
  schema: string;
  logger: Logger;
  /** Settings every pool connection starts with (`-c name=value`), beside the search path. */
  sessionSettings?: Readonly<Record<string, string>>;
}

const TX_ATTEMPTS = 6;

/** The pool of one store and its lazily run migrations. */
export class PgDatabase {
  private pool: pg.Pool | undefined;
  private starting: Promise<pg.Pool> | undefined;
  private migration: MigrationResult | undefined;
  private closed = false;

  constructor(
    readonly connection: PgConnection,
    readonly settings: DatabaseSettings,
  ) {}

  /** The schema version after migrations (0 before the first connection). */
  get schemaVersion(): number {
    return this.migration?.version ?? 0;
  }

  /** Connects and migrates once; a failed start is retried by the next call. */
  start(): Promise<pg.Pool> {
    if (this.closed)
      return Promise.reject(
        new EngramError('STORE_UNAVAILABLE', 'the store is closed', { rule: 'open store' }),
      );
    if (this.pool) return Promise.resolve(this.pool);
    this.starting ??= this.open().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async open(): Promise<pg.Pool> {
    const { settings, connection } = this;
    const base = poolConfig(connection, { ...settings, statementTimeoutMs: 0 });
    const { Client, Pool } = pgDriver();
    const client = new Client({ ...base, application_name: 'engram-migrate' });
    client.on('error', () => {});
    try {
      await client.connect();
      this.migration = await migrate(client, settings.schema, connection.target);
    } catch (err) {
      throw this.error(err, this.migration ? 'read' : 'migrate');
    } finally {
      await client.end().catch(() => {});
    }
    const options = [
      `-c search_path=${settings.schema},${this.migration.extensionSchema}`,
      ...Object.entries(settings.sessionSettings ?? {}).map(
        ([name, value]) => `-c ${name}=${value}`,
      ),
    ].join(' ');
    const pool = new Pool(poolConfig(connection, { ...settings, options }));
    pool.on('error', (err) =>
      settings.logger.info('postgres: an idle connection closed', {
        error: this.error(err, 'connect').message,
      }),
    );
    if (this.closed) {
      await pool.end();
      throw new EngramError('STORE_UNAVAILABLE', 'the store is closed', { rule: 'open store' });
    }
    this.pool = pool;
    return pool;
  }

  /** Maps a driver failure with this store's context. */
  error(err: unknown, phase: PgPhase): EngramError {
    return pgError(err, {
      target: this.connection.target,
      schema: this.settings.schema,
      secret: this.connection.secret,
      statementTimeoutMs: this.settings.statementTimeoutMs,
      phase,
    });
  }

  /** Runs one statement outside a transaction. */
  query<R extends QueryResultRow = QueryResultRow>(
    sql: string,
    params: unknown[] = [],
    phase: PgPhase = 'read',
  ): Promise<R[]> {
    return this.autocommit<R>(sql, params, phase, false);
  }

  /**
   * Runs `fn` in one transaction on one connection. Deadlocks and serialisation failures retry
   * the whole function (plans are pure, so re-running them is safe); anything else rolls back and
   * reaches the caller as an EngramError (an EngramError thrown by `fn` arrives unchanged).
   */
  async transaction<T>(fn: (tx: Queryable) => Promise<T>, phase: PgPhase = 'write'): Promise<T> {
    const pool = await this.start();
    for (let attempt = 1; ; attempt++) {
      let client: PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        throw this.error(err, phase);
      }
      let broken: Error | undefined;
      // A checked-out connection that dies between statements reports it as an 'error' event;
      // without a listener that would crash the process instead of failing this transaction.
      const onError = (err: Error) => (broken = err);
      client.on('error', onError);
      try {
        await client.query('BEGIN');
        const result = await fn(asQueryable(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        broken = (await rollback(client, err)) ?? broken;
        if (await retried(err, attempt)) continue;
        throw this.error(err, phase);
      } finally {
        client.removeListener('error', onError);
        client.release(broken);
      }
    }
  }

  /**
   * Runs one statement as a transaction of its own (autocommit: no BEGIN and COMMIT round trips),
   * retried on deadlocks and serialisation failures as `transaction` retries.
   */
  statement<R extends QueryResultRow = QueryResultRow>(
    sql: string,
    params: unknown[] = [],
    phase: PgPhase = 'write',
  ): Promise<R[]> {
    return this.autocommit<R>(sql, params, phase, true);
  }

  /** One statement on the pool, retried (when `retry`) like a transaction. */
  private async autocommit<R extends QueryResultRow>(
    sql: string,
    params: unknown[],
    phase: PgPhase,
    retry: boolean,
  ): Promise<R[]> {
    const pool = await this.start();
    for (let attempt = 1; ; attempt++) {
      try {
        return (await pool.query<R>(sql, params)).rows;
      } catch (err) {
        if (retry && (await retried(err, attempt))) continue;
        throw this.error(err, phase);
      }
    }
  }

  /**
   * Runs `fn` on a connection of its own, outside the pool and without a statement timeout (long
   * maintenance such as index builds); `onClient` learns the connection first, to cancel it.
   */
  async dedicated<T>(
    fn: (client: pg.Client) => Promise<T>,
    onClient?: (client: pg.Client) => void,
  ): Promise<T> {
    await this.start();
    const options = `-c search_path=${this.settings.schema},${this.migration!.extensionSchema}`;
    const { Client } = pgDriver();
    const client = new Client({
      ...poolConfig(this.connection, { ...this.settings, statementTimeoutMs: 0, options }),
      application_name: 'engram-maintenance',
    });
    client.on('error', () => {});
    try {
      await client.connect();
      onClient?.(client);
      return await fn(client);
    } catch (err) {
      throw this.error(err, 'write');
    } finally {
      await client.end().catch(() => {});
    }
  }

  /** Ends the pool; later calls fail with STORE_UNAVAILABLE. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const starting = this.starting;
    if (starting) await starting.catch(() => undefined);
    const pool = this.pool;
    this.pool = undefined;
    await pool?.end();
  }
}

/** Whether a failed attempt is retried: a deadlock or serialisation failure, after a backoff. */
async function retried(err: unknown, attempt: number): Promise<boolean> {
  const code = String((err as { code?: unknown }).code ?? '');
  if (!RETRYABLE_STATES.has(code) || attempt >= TX_ATTEMPTS) return false;
  await sleep(Math.min(200, 10 * 2 ** attempt) * (0.5 + Math.random()));
  return true;
}

function asQueryable(client: PoolClient): Queryable {
  return {
    async query<R extends QueryResultRow>(sql: string, params: unknown[] = []) {
      return (await client.query<R>(sql, params)).rows;
    },
  };
}

/** Rolls back; returns an error when the connection itself is unusable (it is then discarded). */
async function rollback(client: PoolClient, cause: unknown): Promise<Error | undefined> {
  try {
    await client.query('ROLLBACK');
    return undefined;
  } catch {
    return cause instanceof Error ? cause : new Error(String(cause));
  }
}
