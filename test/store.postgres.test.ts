/**
 * The PostgreSQL store: the shared Store contract against the server of ENGRAM_TEST_PG_URL (each
 * store on its own random schema, dropped afterwards), plus what needs no server at all: backend
 * selection, URL handling and redaction, and the error for a server that is not there.
 */
import { describe, expect, it } from 'vitest';

import { createEngram } from '../src/app.js';
import { loadConfig } from '../src/config/load.js';
import { EngramError } from '../src/domain/errors.js';
import { silentLogger } from '../src/domain/log.js';
import { parseConnection, redactUrl, scrub } from '../src/store/postgres/connection.js';
import { openPostgresStore, PostgresStore } from '../src/store/postgres/postgres-store.js';
import { closedPort, PG_URL, schemaStore } from './postgres-helpers.js';
import { storeContract } from './store-contract.js';

if (PG_URL) {
  storeContract('postgres', async () => schemaStore());
  storeContract('postgres, HNSW index for every search', async () =>
    schemaStore({ hnsw: { exactBelow: 0 } }),
  );
}

describe('PostgreSQL backend selection', () => {
  it('refuses backend postgres without a URL, naming store.url', () => {
    let error: unknown;
    try {
      loadConfig({ env: {}, overrides: { store: { backend: 'postgres' } } });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(EngramError);
    expect(error).toMatchObject({ code: 'CONFIG_INVALID', details: { field: 'store.url' } });
    expect((error as Error).message).toContain('store.url');
  });

  it('selects the PostgreSQL store from configuration and ENGRAM_* overrides', async () => {
    const engram = createEngram({
      env: {
        ENGRAM_STORE_BACKEND: 'postgres',
        ENGRAM_STORE_URL: 'postgres://engram:s3cret@127.0.0.1:1/engram',
        ENGRAM_STORE_SCHEMA: 'team_memory',
      },
      embedder: null,
      logger: silentLogger,
      background: false,
    });
    try {
      expect(engram.storeForTransfer).toBeInstanceOf(PostgresStore);
      expect(engram.storeForTransfer.capabilities).toMatchObject({
        backend: 'postgres',
        onlineBackup: true,
      });
    } finally {
      await engram.close();
    }
  });
});

describe('PostgreSQL connection settings', () => {
  it('redacts passwords in URLs, also unusual ones', () => {
    expect(redactUrl('postgres://bob:pa55@db.example:5432/mem')).toBe(
      'postgres://bob:***@db.example:5432/mem',
    );
    expect(redactUrl('postgresql://bob:p%40ss@db/mem?sslmode=require')).toBe(
      'postgresql://bob:***@db/mem?sslmode=require',
    );
    expect(redactUrl('postgres://bob:a@b@db/mem')).toBe('postgres://bob:***@db/mem');
    expect(redactUrl('postgres://db/mem?user=bob&password=hunter2&x=1')).toBe(
      'postgres://db/mem?user=bob&password=***&x=1',
    );
    expect(redactUrl('postgres://bob@db/mem')).toBe('postgres://bob@db/mem');
    expect(scrub('login p@ss failed (p%40ss)', 'p@ss')).toBe('login *** failed (***)');
  });

  it('parses host, port, user, database and the password from the URL', () => {
    const c = parseConnection('postgres://bob:p%40ss@10.1.2.3:6543/team?application_name=x');
    expect(c.target).toEqual({
      host: '10.1.2.3',
      port: 6543,
      database: 'team',
      user: 'bob',
      label: '10.1.2.3:6543/team',
    });
    expect(c.client).toMatchObject({ password: 'p@ss', application_name: 'x', ssl: false });
    expect(parseConnection('postgres://[::1]/db').target.label).toBe('[::1]:5432/db');
  });

  it('passes TLS options through with libpq meanings; config wins over the URL', () => {
    expect(parseConnection('postgres://h/db?sslmode=require').client.ssl).toEqual({
      rejectUnauthorized: false,
    });
    expect(parseConnection('postgres://h/db?sslmode=verify-full').client.ssl).toEqual({});
    const full = parseConnection('postgres://h/db?sslmode=disable', {
      mode: 'verify-full',
      servername: 'db.internal',
    });
    expect(full.client.ssl).toEqual({ servername: 'db.internal' });
    const ca = parseConnection('postgres://h/db', { mode: 'verify-ca' }).client.ssl as {
      checkServerIdentity?: unknown;
    };
    expect(typeof ca.checkServerIdentity).toBe('function');
    expect(() =>
      parseConnection('postgres://h/db', { mode: 'verify-full', ca: '/no/such/ca.pem' }),
    ).toThrow(/store\.ssl\.ca: cannot read \/no\/such\/ca\.pem/);
    expect(() => parseConnection('postgres://h/db?sslmode=sometimes')).toThrow(/unknown sslmode/);
  });

  it('rejects a malformed URL without printing its password', () => {
    for (const url of ['postgres://bob:hunter2@db:99999/x', 'mysql://bob:hunter2@db/x']) {
      let message = '';
      try {
        parseConnection(url);
      } catch (err) {
        expect(err).toMatchObject({ code: 'CONFIG_INVALID', details: { field: 'store.url' } });
        message = (err as Error).message;
      }
      expect(message).not.toBe('');
      expect(message).not.toContain('hunter2');
    }
  });

  it('fails with STORE_UNAVAILABLE naming host:port when no server listens, and recovers nothing silently', async () => {
    const port = await closedPort();
    const store = openPostgresStore({
      url: `postgres://engram:topsecret@127.0.0.1:${port}/engram`,
      connectTimeoutMs: 2_000,
    });
    try {
      for (const attempt of [() => store.connect(), () => store.getItems('default', ['x'])]) {
        const err = await attempt().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).toMatchObject({ code: 'STORE_UNAVAILABLE' });
        expect((err as Error).message).toContain(`127.0.0.1:${port}`);
        expect((err as Error).message).not.toContain('topsecret');
        expect(JSON.stringify(err)).not.toContain('topsecret');
      }
    } finally {
      await store.close();
    }
  });
});
