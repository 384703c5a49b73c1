/**
 * A read-only look at a PostgreSQL store for `engram doctor`: whether the server answers, its
 * version, whether pgvector is enabled in the database (or only installed, or missing), and the
 * schema version of engram's schema. It creates nothing: no extension, no schema, no table.
 */
import type { EngramError } from '../../domain/errors.js';
import { parseConnection, type PgSslOptions, poolConfig } from './connection.js';
import { pgDriver } from './driver.js';
import { pgError } from './errors.js';
import { ident, PG_LATEST_SCHEMA_VERSION } from './migrations.js';

/** Where and how to connect (the `store` section of the configuration). */
export interface PgInspectOptions {
  url: string;
  schema: string;
  ssl?: PgSslOptions;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
}

/** What the look found. */
export interface PostgresInspection {
  backend: 'postgres';
  /** `host:port/database` (never the password). */
  location: string;
  schema: string;
  /** `unreachable`: no connection (see error); `connected`: the facts below were read. */
  state: 'unreachable' | 'connected';
  error?: EngramError;
  /** The server's version, e.g. `16.4`. */
  serverVersion?: string;
  /** pgvector's version where it is enabled in the database, else null. */
  pgvectorEnabled?: string | null;
  /** pgvector's version where the server has it installed (enabled or not), else null. */
  pgvectorInstalled?: string | null;
  /** The newest migration applied to the schema; null when engram never created it. */
  schemaVersion?: number | null;
  /** The schema version this engram writes. */
  latestVersion: number;
}

type Query = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

async function first(query: Query, sql: string, params?: unknown[]): Promise<unknown> {
  const rows = await query(sql, params);
  return rows[0] ? Object.values(rows[0])[0] : undefined;
}

async function readFacts(query: Query, schema: string) {
  const serverVersion = String(await first(query, 'SHOW server_version')).split(' ')[0];
  const enabled = await first(
    query,
    "SELECT extversion FROM pg_extension WHERE extname = 'vector'",
  );
  const installed = await first(
    query,
    "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'",
  );
  const ledger = await first(query, 'SELECT to_regclass($1)::text', [
    `${ident(schema)}.schema_migrations`,
  ]);
  const version = ledger
    ? await first(query, `SELECT max(version) FROM ${ident(schema)}.schema_migrations`)
    : null;
  return {
    serverVersion,
    pgvectorEnabled: enabled === undefined ? null : String(enabled),
    pgvectorInstalled: installed === undefined || installed === null ? null : String(installed),
    schemaVersion: ledger ? Number(version ?? 0) : null,
  };
}

/** Connects once, reads the facts, and disconnects; a failure is reported, never thrown. */
export async function inspectPostgres(options: PgInspectOptions): Promise<PostgresInspection> {
  const connection = parseConnection(options.url, options.ssl);
  const base = {
    backend: 'postgres' as const,
    location: connection.target.label,
    schema: options.schema,
    latestVersion: PG_LATEST_SCHEMA_VERSION,
  };
  const settings = {
    poolSize: 1,
    connectTimeoutMs: options.connectTimeoutMs,
    statementTimeoutMs: options.statementTimeoutMs,
  };
  const { Client } = pgDriver();
  const client = new Client({
    ...poolConfig(connection, settings),
    application_name: 'engram-doctor',
  });
  client.on('error', () => {});
  const query: Query = async (sql, params) => (await client.query(sql, params)).rows;
  try {
    await client.connect();
    return { ...base, state: 'connected', ...(await readFacts(query, options.schema)) };
  } catch (err) {
    const error = pgError(err, {
      target: connection.target,
      schema: options.schema,
      secret: connection.secret,
      statementTimeoutMs: options.statementTimeoutMs,
      phase: 'connect',
    });
    return { ...base, state: 'unreachable', error };
  } finally {
    await client.end().catch(() => {});
  }
}
