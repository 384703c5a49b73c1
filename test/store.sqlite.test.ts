/**
 * The SQLite store: the shared Store contract on a temporary file, plus what only this backend
 * has: opening failures, the migration ledger, WAL mode, legacy null statuses and two
 * connections on one file.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';

import { EngramError } from '../src/domain/errors.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from '../src/store/sqlite/migrations.js';
import { openSqliteStore, type SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { draft, MODEL, T0, unit } from './fixtures/store-records.js';
import { storeContract } from './store-contract.js';

const dirs: string[] = [];
const stores: SqliteStore[] = [];

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'engram-sqlite-'));
  dirs.push(dir);
  return dir;
}

function open(path: string): SqliteStore {
  const store = openSqliteStore({ path });
  stores.push(store);
  return store;
}

afterEach(async () => {
  while (stores.length) await stores.pop()!.close();
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

storeContract('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-contract-'));
  const store = openSqliteStore({ path: join(dir, 'engram.db') });
  return {
    store,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

/** The error thrown by `fn`, which must throw. */
function thrown(fn: () => unknown): EngramError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(EngramError);
    return err as EngramError;
  }
  throw new Error('expected an error');
}

describe('SQLite store: opening failures', () => {
  it('refuses a file that is not a database, naming the path', () => {
    const path = join(freshDir(), 'notes.txt');
    writeFileSync(path, 'These are my notes, not a database.\n'.repeat(20));
    const err = thrown(() => openSqliteStore({ path }));
    expect(err.code).toBe('STORE_UNAVAILABLE');
    expect(err.message).toContain(path);
  });

  it('refuses a store path whose parent is a file', () => {
    const file = join(freshDir(), 'plain-file');
    writeFileSync(file, 'x');
    for (const path of [join(file, 'engram.db'), join(file, 'deeper', 'engram.db')]) {
      const err = thrown(() => openSqliteStore({ path }));
      expect(err.code).toBe('STORE_UNAVAILABLE');
      expect(err.message).toContain(file);
    }
  });

  it('reports a read-only store directory clearly', async () => {
    const parent = freshDir();
    const dir = join(parent, 'locked');
    mkdirSync(dir);
    const existing = join(dir, 'existing.db');
    await openSqliteStore({ path: existing }).close();
    const outcomes = [join(dir, 'new.db'), existing].map((path) => openAsOtherUser(dir, path));
    for (const [i, outcome] of outcomes.entries()) {
      expect(outcome.ok).toBe(false);
      expect(['STORE_READ_ONLY', 'STORE_UNAVAILABLE']).toContain(outcome.code);
      expect(outcome.message).toContain(i === 0 ? join(dir, 'new.db') : existing);
      expect(outcome.message).toMatch(/writable|read-only|permission/);
    }
  });
});

/**
 * Opens `path` where its directory cannot be written. Root ignores permission bits, so as root
 * the attempt runs in a child process as `nobody` against a root-owned 0755 directory.
 */
function openAsOtherUser(
  dir: string,
  path: string,
): { ok: boolean; code?: string; message?: string } {
  if (process.getuid?.() !== 0) {
    chmodSync(dir, 0o555);
    try {
      openSqliteStore({ path }).close();
      return { ok: true };
    } catch (err) {
      const e = err as EngramError;
      return { ok: false, code: e.code, message: e.message };
    } finally {
      chmodSync(dir, 0o755);
    }
  }
  chmodSync(resolve(dir, '..'), 0o755);
  chmodSync(dir, 0o755);
  const child = spawnSync(
    process.execPath,
    ['--import', 'tsx', resolve(import.meta.dirname, 'fixtures', 'open-store.ts'), path],
    {
      cwd: resolve(import.meta.dirname, '..'),
      uid: 65534,
      gid: 65534,
      encoding: 'utf8',
      timeout: 60_000,
      killSignal: 'SIGKILL',
      env: { ...process.env, HOME: tmpdir() },
    },
  );
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as { ok: boolean };
}

describe('SQLite store: schema', () => {
  it('records migrations in schema_migrations and does not re-apply them on reopen', async () => {
    const path = join(freshDir(), 'engram.db');
    const first = open(path);
    expect(first.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    const ledger = () =>
      first.connection
        .prepare('SELECT version, name, applied_at FROM schema_migrations ORDER BY version')
        .all() as { version: number; name: string; applied_at: number }[];
    const before = ledger();
    expect(before.map((r) => [r.version, r.name])).toEqual(
      MIGRATIONS.map((m) => [m.version, m.name]),
    );
    await first.createItems([draft({ body: 'survives reopening' })]);

    const second = open(path);
    expect(second.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    expect(ledger()).toEqual(before);
    expect((await second.stats(null)).items_total).toBe(1);
  });

  it('still opens a file migrated by a newer engram', async () => {
    const path = join(freshDir(), 'engram.db');
    const store = open(path);
    const [item] = (await store.createItems([draft({ body: 'from the past' })])).map((o) => o.item);
    store.connection
      .prepare('INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)')
      .run(LATEST_SCHEMA_VERSION + 1, 'a step from the future', T0);
    const reopened = open(path);
    expect(reopened.schemaVersion).toBe(LATEST_SCHEMA_VERSION + 1);
    expect(await reopened.getItems('default', [item!.id])).toEqual([item]);
  });

  it('runs in WAL mode', () => {
    const path = join(freshDir(), 'engram.db');
    const store = open(path);
    expect(store.connection.pragma('journal_mode', { simple: true })).toBe('wal');
    const raw = new Database(path, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      raw.close();
    }
  });
});

describe('SQLite store: legacy rows and shared files', () => {
  it('reads a legacy null status as active everywhere', async () => {
    const store = open(join(freshDir(), 'engram.db'));
    await store.publishModel(MODEL, 4, T0);
    const [legacy, candidate] = (
      await store.createItems([
        draft({ body: 'legacy walrus row' }, unit(1, 0, 0, 0)),
        draft({ body: 'candidate walrus row', status: 'candidate' }, unit(0, 1, 0, 0)),
      ])
    ).map((o) => o.item);
    store.connection.prepare('UPDATE items SET status = NULL WHERE id = ?').run(legacy!.id);

    expect((await store.getItems('default', [legacy!.id]))[0]!.status).toBe('active');
    const active = { space: 'default', statuses: ['active'] as const };
    const list = async (statuses: readonly ('active' | 'candidate')[]) =>
      (
        await store.listItems({
          filter: { space: 'default', statuses },
          limit: 10,
          order: 'created',
        })
      ).items.map((i) => i.id);
    expect(await list(['active'])).toEqual([legacy!.id]);
    expect(await list(['candidate'])).toEqual([candidate!.id]);
    expect((await store.keywordSearch(active, ['walrus'], 10)).map((h) => h.id)).toEqual([
      legacy!.id,
    ]);
    expect(
      (await store.vectorSearch(active, MODEL, unit(0, 1, 0, 0), 10)).map((h) => h.id),
    ).toEqual([legacy!.id]);
    expect((await store.stats('default')).by_status).toEqual({ active: 1, candidate: 1 });
  });

  it('shows one connection the writes of another on the same file', async () => {
    const path = join(freshDir(), 'engram.db');
    const writer = open(path);
    const reader = open(path);
    await writer.publishModel(MODEL, 4, T0);
    const filter = { space: 'default', statuses: ['active'] as const };
    // Warm the reader's vector mirror before the writes it must follow.
    expect(await reader.vectorSearch(filter, MODEL, unit(1, 0, 0, 0), 5)).toEqual([]);
    const [a, b] = (
      await writer.createItems([
        draft({ body: 'shared heron' }, unit(1, 0, 0, 0)),
        draft({ body: 'shared egret' }, unit(0.8, 0.6, 0, 0)),
      ])
    ).map((o) => o.item);
    const ids = async () =>
      (await reader.vectorSearch(filter, MODEL, unit(1, 0, 0, 0), 5)).map((h) => h.id);
    expect(await ids()).toEqual([a!.id, b!.id]);
    await writer.purge('default', a!.id, { actor: null, reason: null, at: T0 + 1 });
    expect(await ids()).toEqual([b!.id]);
    await writer.putVectors(MODEL, [{ id: b!.id, version: 1, vector: unit(0, 0, 1, 0) }]);
    const [hit] = await reader.vectorSearch(filter, MODEL, unit(1, 0, 0, 0), 5);
    expect(hit!.score).toBeCloseTo(0, 5);
    const [c] = (await writer.createItems([draft({ body: 'shared ibis' }, unit(1, 0, 0, 0))])).map(
      (o) => o.item,
    );
    expect((await ids())[0]).toBe(c!.id);
    expect((await reader.keywordSearch(filter, ['heron', 'ibis'], 5)).map((h) => h.id)).toEqual([
      c!.id,
    ]);
    expect(await reader.integrityCheck()).toEqual({ ok: true, problems: [] });
  });
});
