/**
 * Helpers of the PostgreSQL tests: the server named by ENGRAM_TEST_PG_URL (started by
 * scripts/ci/postgres.sh), one randomly named schema per store, dropped afterwards.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import pg from 'pg';

import {
  openPostgresStore,
  type PostgresStore,
  type PostgresStoreOptions,
} from '../src/store/postgres/postgres-store.js';

/** The test server's URL, or undefined when no server is configured. */
export const PG_URL = process.env.ENGRAM_TEST_PG_URL || undefined;

/** A fresh schema name for one store. */
export function randomSchema(prefix = 'engram_t'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

/** Runs SQL as the test server's superuser (outside any engram store). */
export async function admin<T = unknown>(
  sql: string,
  params: unknown[] = [],
  url = PG_URL,
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Drops a schema and everything in it. */
export async function dropSchema(schema: string, url = PG_URL): Promise<void> {
  await admin(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`, [], url);
}

/** A store on its own new schema, and how to dispose of both. */
export function schemaStore(options: Partial<PostgresStoreOptions> = {}): {
  store: PostgresStore;
  schema: string;
  cleanup(): Promise<void>;
} {
  const schema = options.schema ?? randomSchema();
  const store = openPostgresStore({ url: PG_URL!, ...options, schema });
  return {
    store,
    schema,
    async cleanup() {
      await store.close();
      await dropSchema(schema);
    },
  };
}

/** A TCP port on 127.0.0.1 where nothing listens. */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Engram configuration for a PostgreSQL store on `schema` of the test server. */
export function pgConfig(schema: string, extra: Partial<PostgresStoreOptions> = {}) {
  return {
    store: {
      backend: 'postgres' as const,
      url: extra.url ?? PG_URL!,
      schema,
      ...(extra.statementTimeoutMs === undefined
        ? {}
        : { statement_timeout_ms: extra.statementTimeoutMs }),
    },
  };
}

const SCRIPT = join(import.meta.dirname, '..', 'scripts', 'ci', 'postgres.sh');

/** A throwaway server of this test's own (scripts/ci/postgres.sh with its own state file). */
export interface OwnServer {
  url: string;
  pause(): void;
  /** Stops the server at once (`pg_ctl -m immediate`): no checkpoint, recovery from WAL at resume. */
  crash(): void;
  resume(): void;
  stop(): void;
}

function script(args: string[]): string {
  const run = spawnSync('bash', [SCRIPT, ...args], { encoding: 'utf8', timeout: 300_000 });
  if (run.status !== 0)
    throw new Error(`postgres.sh ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  return run.stdout;
}

/** Starts a server only this test uses, so it may stop and restart it. */
export function startOwnServer(options: { withoutPgvector?: boolean } = {}): OwnServer {
  const dir = mkdtempSync(join(tmpdir(), 'engram-own-pg-'));
  const state = ['--state', join(dir, 'state')];
  const extra = options.withoutPgvector ? ['--without-pgvector'] : [];
  const out = script(['start', ...state, ...extra]);
  const url = /ENGRAM_TEST_PG_URL=(\S+)/.exec(out)?.[1]?.replace(/^'|'$/g, '');
  if (!url) throw new Error(`postgres.sh start printed no URL: ${out}`);
  return {
    url,
    pause: () => void script(['pause', ...state]),
    crash: () => void script(['crash', ...state]),
    resume: () => void script(['resume', ...state]),
    stop() {
      script(['stop', ...state]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until `check` holds, polling; fails after `ms`. */
export async function waitFor(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * How many sessions wait, directly or behind another waiter, on a lock session `holder` (a
 * backend pid) holds. The activity snapshot is cleared first: inside a transaction `client`
 * would otherwise see the one it took at its first look.
 */
export async function waitingBehind(client: pg.Client, holder: number): Promise<number> {
  await client.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await client.query<{ pid: number; blockers: number[] }>(
    'SELECT pid, pg_blocking_pids(pid) AS blockers FROM pg_stat_activity WHERE cardinality(pg_blocking_pids(pid)) > 0',
  );
  const behind = new Set([holder]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const r of rows)
      if (!behind.has(r.pid) && r.blockers.some((b) => behind.has(b))) {
        behind.add(r.pid);
        grew = true;
      }
  }
  return behind.size - 1;
}
