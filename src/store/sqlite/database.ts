/**
 * Opening a SQLite store file: pragmas for several processes (WAL, busy timeout), migrations
 * under an immediate transaction, and the mapping of driver failures to EngramErrors.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import Database from 'better-sqlite3';

import { makeDirectory } from '../../domain/dirs.js';
import { EngramError } from '../../domain/errors.js';
import { MIGRATIONS } from './migrations.js';

/** The subset of better-sqlite3 this store uses. */
export type SqliteDatabase = Database.Database;

/** Options for opening a store file. */
export interface OpenOptions {
  path: string;
  busyTimeoutMs: number;
  /** How long a busy lock while opening is retried (default `busyTimeoutMs`). */
  retryMs?: number;
  /** MiB of the file read through memory mapping (`PRAGMA mmap_size`); 0 or absent: none. */
  mmapMb?: number;
}

const BUSY_CODES = new Set([
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_BUSY_RECOVERY',
  'SQLITE_LOCKED',
]);

/** True for the driver's "database is busy/locked" failures, which are retried, never shown. */
export function isBusyError(err: unknown): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    BUSY_CODES.has(String((err as { code?: unknown }).code))
  );
}

/** Maps a driver failure to a clear EngramError; busy errors become STORE_BUSY. */
export function storeError(err: unknown, path: string): EngramError {
  const code = String((err as { code?: unknown })?.code ?? '');
  const message = err instanceof Error ? err.message : String(err);
  if (isBusyError(err))
    return new EngramError(
      'STORE_BUSY',
      `store ${path} stayed busy: another process holds the write lock; try again`,
      { rule: 'busy' },
    );
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return new EngramError(
      'STORE_UNAVAILABLE',
      `store ${path} is not an engram database (${message})`,
      { field: 'store.path', rule: 'must be a SQLite database' },
    );
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return new EngramError(
      'STORE_READ_ONLY',
      `store ${path} is read-only: check the permissions of the file and its directory`,
      { field: 'store.path', rule: 'must be writable' },
    );
  }
  if (code.startsWith('SQLITE_CANTOPEN') || code === 'SQLITE_PERM' || code === 'SQLITE_IOERR') {
    return new EngramError(
      'STORE_UNAVAILABLE',
      `cannot open store ${path}: ${message}; check that its directory exists and is writable`,
      { field: 'store.path', rule: 'must be openable' },
    );
  }
  if (code === 'SQLITE_FULL')
    return new EngramError('STORE_UNAVAILABLE', `store ${path}: the disk is full`, {
      rule: 'disk space',
    });
  return new EngramError('INTERNAL', `store ${path}: ${message}`, {}, { cause: err });
}

function prepareDirectory(path: string): void {
  if (path === ':memory:') return;
  const dir = dirname(path);
  try {
    makeDirectory(dir);
  } catch (err) {
    throw new EngramError(
      'STORE_UNAVAILABLE',
      `cannot create the directory ${dir} of store ${path}: ${(err as Error).message}`,
      { field: 'store.path', rule: 'directory must be creatable' },
    );
  }
  if (!statSync(dir).isDirectory()) {
    throw new EngramError('STORE_UNAVAILABLE', `store directory ${dir} is not a directory`, {
      field: 'store.path',
      rule: 'must be in a directory',
    });
  }
  if (existsSync(path) && !statSync(path).isFile()) {
    throw new EngramError('STORE_UNAVAILABLE', `store path ${path} is not a file`, {
      field: 'store.path',
      rule: 'must be a SQLite database file',
    });
  }
}

/** Blocks the thread for `ms` milliseconds (opening a store is synchronous). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Opens (creating if needed) and migrates a store file; returns the connection and schema version.
 * Several processes may open one file at once, and the pragmas and migrations briefly need its
 * locks: a busy lock is waited on and the whole opening retried until `retryMs` has passed,
 * as writes are (`writeWithRetry`), so a process opening the store while others write never fails
 * with STORE_BUSY before then.
 */
export function openDatabase(options: OpenOptions): { db: SqliteDatabase; schemaVersion: number } {
  prepareDirectory(options.path);
  const deadline = Date.now() + (options.retryMs ?? options.busyTimeoutMs);
  for (let attempt = 0; ; attempt++) {
    let db: SqliteDatabase | undefined;
    try {
      db = new Database(options.path, { timeout: options.busyTimeoutMs });
      db.pragma(`busy_timeout = ${Math.floor(options.busyTimeoutMs)}`);
      if (options.path !== ':memory:') {
        const mode = String(db.pragma('journal_mode', { simple: true }));
        if (mode !== 'wal') db.pragma('journal_mode = WAL');
      }
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      if (options.mmapMb && options.path !== ':memory:')
        db.pragma(`mmap_size = ${Math.floor(options.mmapMb) * 1024 * 1024}`);
      // Deleted and overwritten content is zeroed, so a purge (or a revision) leaves no old text
      // behind in free pages of the file.
      db.pragma('secure_delete = ON');
      const schemaVersion = migrate(db);
      return { db, schemaVersion };
    } catch (err) {
      db?.close();
      if (err instanceof EngramError) throw err;
      if (isBusyError(err) && Date.now() < deadline) {
        pause(Math.min(200, 5 * 2 ** attempt) + Math.random() * 10);
        continue;
      }
      throw storeError(err, options.path);
    }
  }
}

function appliedVersions(db: SqliteDatabase): Set<number> {
  // Created only when missing: a statement that may write takes the write lock, which a store
  // already set up never needs just to be opened.
  const exists = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (!exists)
    db.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
    );
  return new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map(
      (r) => r.version,
    ),
  );
}

/**
 * Applies every migration not yet recorded, in version order, each in its own immediate
 * transaction (safe when two processes open a new file at once). Returns the highest version.
 */
function migrate(db: SqliteDatabase): number {
  let applied = appliedVersions(db);
  for (const step of MIGRATIONS) {
    if (applied.has(step.version)) continue;
    const apply = db.transaction(() => {
      applied = appliedVersions(db);
      if (applied.has(step.version)) return;
      db.exec(step.sql);
      step.then?.(db);
      db.prepare('INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)').run(
        step.version,
        step.name,
        Date.now(),
      );
    });
    apply.immediate();
  }
  return Math.max(0, ...appliedVersions(db));
}

/** Per connection: what runs after each transaction `writeWithRetry` commits. */
const afterCommit = new WeakMap<SqliteDatabase, () => void>();

/** Runs `fn` after every transaction `writeWithRetry` commits on `db` (one per connection). */
export function onCommit(db: SqliteDatabase, fn: () => void): void {
  afterCommit.set(db, fn);
}

/**
 * Runs a synchronous write transaction (BEGIN IMMEDIATE), retrying while another process holds
 * the write lock, so "database is locked" never reaches the user before `retryMs` has passed.
 */
export async function writeWithRetry<T>(
  db: SqliteDatabase,
  path: string,
  retryMs: number,
  fn: () => T,
): Promise<T> {
  const tx = db.transaction(fn);
  const deadline = Date.now() + retryMs;
  for (let attempt = 0; ; attempt++) {
    let result: T;
    try {
      result = tx.immediate();
    } catch (err) {
      if (!isBusyError(err) || Date.now() >= deadline)
        throw err instanceof EngramError ? err : storeError(err, path);
      await sleep(Math.min(200, 5 * 2 ** attempt) + Math.random() * 10);
      continue;
    }
    afterCommit.get(db)?.();
    return result;
  }
}
