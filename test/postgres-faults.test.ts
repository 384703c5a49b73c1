/**
 * Faults of the PostgreSQL backend: a clear error and nothing lost. An unreachable server at start
 * (the CLI exits non-zero naming host:port, never the password), a server restarting while engram
 * runs, a server without pgvector, users without rights, statements past their timeout, TLS.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

import pg from 'pg';
import { describe, expect, it } from 'vitest';

import { EXIT_CODES } from '../src/interfaces/error-codes.js';
import { openPostgresStore } from '../src/store/postgres/postgres-store.js';
import { testCacheDir } from './cache-dir.js';
import { itemRecord } from './fixtures/store-records.js';
import { testEngram } from './helpers.js';
import {
  admin,
  closedPort,
  dropSchema,
  PG_URL,
  pgConfig,
  randomSchema,
  schemaStore,
  startOwnServer,
  waitFor,
} from './postgres-helpers.js';

const ROOT = join(import.meta.dirname, '..');

/** Runs the engram CLI from source (no build needed) with only the given environment. */
function cli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'src', 'interfaces', 'cli', 'main.ts'), ...args],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => err as Error & { code?: string },
  );
}

describe('PostgreSQL unreachable at start', () => {
  it('the CLI exits with the store-unavailable code and names host:port, not the password', async () => {
    const port = await closedPort();
    const run = await cli(['--json', 'status'], {
      ENGRAM_STORE_BACKEND: 'postgres',
      ENGRAM_STORE_URL: `postgres://engram:Sup3rSecret@127.0.0.1:${port}/engram`,
      ENGRAM_STORE_CONNECT_TIMEOUT_MS: '3000',
      ENGRAM_EMBEDDER_CACHE_DIR: testCacheDir(),
    });
    expect(run.code).toBe(EXIT_CODES.STORE_UNAVAILABLE);
    const output = run.stdout + run.stderr;
    expect(output).toContain('STORE_UNAVAILABLE');
    expect(output).toContain(`127.0.0.1:${port}`);
    expect(output).not.toContain('Sup3rSecret');
  });
});

if (PG_URL) {
  describe('PostgreSQL server restarting while engram runs', () => {
    it('requests fail cleanly while it is down, lose nothing, and succeed once it is back', async () => {
      const server = startOwnServer();
      try {
        const engram = testEngram({ config: pgConfig('engram', { url: server.url }) });
        const kept = await engram.remember({ body: 'Written before the restart' });
        const { port } = new URL(server.url);

        // A batch blocked by a table lock is in flight when the server stops.
        const locker = new pg.Client({ connectionString: server.url });
        await locker.connect();
        locker.on('error', () => {});
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE engram.items IN ACCESS EXCLUSIVE MODE');
        const batch = engram.rememberMany(
          Array.from({ length: 50 }, (_, i) => ({ body: `Batch item ${i} in flight` })),
        );
        const batchFailure = failure(batch);
        await waitFor(async () => {
          const rows = await admin<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'engram' AND wait_event_type = 'Lock'",
            [],
            server.url,
          );
          return (rows[0]?.n ?? 0) > 0;
        });
        server.pause();
        const inFlight = await batchFailure;
        expect(inFlight.code).toBe('STORE_UNAVAILABLE');
        await locker.end().catch(() => {});

        for (const attempt of [
          () => engram.remember({ body: 'Written while the server is down' }),
          () => engram.get(kept.memory.id),
        ]) {
          const err = await failure(attempt());
          expect(err.code).toBe('STORE_UNAVAILABLE');
          expect(err.message).toContain(`127.0.0.1:${port}`);
          expect(err.message).not.toContain(new URL(server.url).password);
        }

        server.resume();
        expect((await engram.get(kept.memory.id)).body).toBe('Written before the restart');
        const after = await engram.remember({ body: 'Written after the restart' });
        expect(after.created).toBe(true);
        const listed = await engram.list({ limit: 100 });
        expect(listed.items.map((m) => m.body).sort()).toEqual([
          'Written after the restart',
          'Written before the restart',
        ]);
        expect(await engram.storeForTransfer.integrityCheck()).toEqual({ ok: true, problems: [] });
        await engram.storeForTransfer.close();
      } finally {
        server.stop();
      }
    }, 180_000);
  });

  describe('PostgreSQL server without pgvector', () => {
    it('says that pgvector is missing and how to install it', async () => {
      const server = startOwnServer({ withoutPgvector: true });
      const store = openPostgresStore({ url: server.url, schema: 'engram' });
      try {
        const err = await failure(store.connect());
        expect(err.code).toBe('STORE_UNAVAILABLE');
        expect(err.message).toMatch(/does not have the pgvector extension installed/);
        expect(err.message).toMatch(/apt-get install postgresql-<major>-pgvector/);
        expect(err.message).toContain('CREATE EXTENSION vector');
        expect(err.message).not.toContain(new URL(server.url).password);
        // Nothing was half created.
        expect(
          await admin("SELECT 1 FROM pg_namespace WHERE nspname = 'engram'", [], server.url),
        ).toEqual([]);
      } finally {
        await store.close();
        server.stop();
      }
    }, 180_000);
  });

  describe('PostgreSQL users without rights', () => {
    async function withRole<T>(fn: (role: string, url: string) => Promise<T>): Promise<T> {
      const role = randomSchema('engram_role');
      const password = `pw-${randomSchema('x')}`;
      await admin(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
      const url = new URL(PG_URL!);
      url.username = role;
      url.password = password;
      try {
        return await fn(role, url.toString());
      } finally {
        await admin(`DROP OWNED BY ${role} CASCADE`);
        await admin(`DROP ROLE ${role}`);
      }
    }

    it('a user who may not create the schema gets an error naming the user and the right', async () => {
      await withRole(async (role, url) => {
        const store = openPostgresStore({ url, schema: randomSchema() });
        try {
          const err = await failure(store.connect());
          expect(err.code).toBe('STORE_UNAVAILABLE');
          expect(err.message).toContain(`user "${role}" cannot create engram's schema`);
          expect(err.message).toContain('grant it CREATE');
        } finally {
          await store.close();
        }
      });
    });

    it('a read-only user reads a migrated store, and a write says it lacks write rights', async () => {
      const owner = schemaStore();
      try {
        const [created] = await owner.store.createItems([
          { item: itemRecord({ body: 'Visible to readers' }), actor: null, reason: null },
        ]);
        await withRole(async (role, url) => {
          await admin(`GRANT USAGE ON SCHEMA ${owner.schema} TO ${role}`);
          await admin(`GRANT SELECT ON ALL TABLES IN SCHEMA ${owner.schema} TO ${role}`);
          const reader = openPostgresStore({ url, schema: owner.schema });
          try {
            expect(await reader.getItems('default', [created!.item.id])).toEqual([created!.item]);
            const err = await failure(
              reader.recordAccess('default', [created!.item.id], Date.now()),
            );
            expect(err.code).toBe('STORE_READ_ONLY');
            expect(err.message).toContain(`user "${role}" may not write`);
          } finally {
            await reader.close();
          }
        });
      } finally {
        await owner.cleanup();
      }
    });

    it('a user who may not enable pgvector is told to ask a superuser', async () => {
      const database = randomSchema('engram_db');
      await admin(`CREATE DATABASE ${database}`);
      try {
        await withRole(async (role, url) => {
          await admin(`GRANT ALL ON DATABASE ${database} TO ${role}`);
          const target = new URL(url);
          target.pathname = `/${database}`;
          const store = openPostgresStore({ url: target.toString(), schema: 'engram' });
          try {
            const err = await failure(store.connect());
            expect(err.code).toBe('STORE_UNAVAILABLE');
            expect(err.message).toContain(`pgvector is installed`);
            expect(err.message).toContain('ask a superuser to run `CREATE EXTENSION vector;`');
          } finally {
            await store.close();
            await admin(`REVOKE ALL ON DATABASE ${database} FROM ${role}`);
          }
        });
      } finally {
        await admin(`DROP DATABASE ${database}`);
      }
    });

    it('a wrong password is refused without echoing it', async () => {
      const url = new URL(PG_URL!);
      url.password = 'Not-The-Password-42';
      const store = openPostgresStore({ url: url.toString(), schema: randomSchema() });
      try {
        const err = await failure(store.connect());
        expect(err.code).toBe('STORE_UNAVAILABLE');
        expect(err.message).toContain(`refused user "${url.username}"`);
        expect(err.message).not.toContain('Not-The-Password-42');
      } finally {
        await store.close();
      }
    });
  });

  describe('PostgreSQL statement timeouts and TLS', () => {
    it('cancels a statement past store.statement_timeout_ms with STORE_BUSY, then works again', async () => {
      const opened = schemaStore({ statementTimeoutMs: 300 });
      const locker = new pg.Client({ connectionString: PG_URL });
      try {
        await opened.store.connect();
        await locker.connect();
        await locker.query('BEGIN');
        await locker.query(`LOCK TABLE ${opened.schema}.items IN ACCESS EXCLUSIVE MODE`);
        const started = Date.now();
        const err = await failure(opened.store.getItems('default', ['x']));
        expect(err.code).toBe('STORE_BUSY');
        expect(err.message).toContain('store.statement_timeout_ms (300 ms)');
        expect(Date.now() - started).toBeLessThan(10_000);
        await locker.query('ROLLBACK');
        expect(await opened.store.getItems('default', ['x'])).toEqual([]);
      } finally {
        await locker.end();
        await opened.cleanup();
      }
    });

    it('connects over TLS with the server certificate verified, and refuses a wrong CA', async () => {
      const [ssl] = await admin<{ ssl: string }>('SHOW ssl');
      expect(ssl?.ssl).toBe('on'); // scripts/ci/postgres.sh enables TLS with its own certificate
      const [dir] = await admin<{ data_directory: string }>('SHOW data_directory');
      const ca = join(dir!.data_directory, 'server.crt');
      const verified = schemaStore({ ssl: { mode: 'verify-full', ca } });
      try {
        const [row] = await verified.store.query<{ ssl: boolean }>(
          'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()',
        );
        expect(row?.ssl).toBe(true);
      } finally {
        await verified.cleanup();
      }
      const untrusted = schemaStore({ ssl: { mode: 'verify-full' } });
      try {
        const err = await failure(untrusted.store.connect());
        expect(err.code).toBe('STORE_UNAVAILABLE');
        expect(err.message).toMatch(/^TLS with PostgreSQL at 127\.0\.0\.1:\d+ failed/);
      } finally {
        await untrusted.store.close();
        await dropSchema(untrusted.schema);
      }
    });
  });
} else {
  it('tests server faults only when ENGRAM_TEST_PG_URL names a server (scripts/ci/postgres.sh)', () => {
    expect(process.env.ENGRAM_TEST_PG_URL ?? '').toBe('');
  });
}
