/**
 * A read-only look at a SQLite store file for `engram doctor`: whether it exists, opens, is an
 * engram store, at which schema version, and what SQLite's quick integrity check says. It never
 * creates, migrates or writes the file.
 */
import { existsSync, statSync } from 'node:fs';

import Database from 'better-sqlite3';

import { EngramError } from '../../domain/errors.js';
import { storeError } from './database.js';
import { LATEST_SCHEMA_VERSION } from './migrations.js';

/** What the look found. */
export interface SqliteInspection {
  backend: 'sqlite';
  /** The file's path (or `:memory:`). */
  location: string;
  /** `missing`: no file there; `memory`: an in-memory store; `opened`: read; `unopenable`: see error. */
  state: 'missing' | 'memory' | 'opened' | 'unopenable';
  /** Why it did not open (a directory, not a database, no permission...). */
  error?: EngramError;
  /** The newest applied migration; 0 in a SQLite file that engram never migrated. */
  schemaVersion?: number;
  /** Tables in the file (tells an empty file from another program's database). */
  tables?: number;
  /** The schema version this engram writes. */
  latestVersion: number;
  /** What `PRAGMA quick_check` reported other than "ok" (empty when the file is sound). */
  problems?: string[];
  bytes?: number;
}

/** Lines of the quick check kept at most (it can list thousands on a badly damaged file). */
const PROBLEMS_KEPT = 10;

function readSchema(db: Database.Database): { schemaVersion: number; tables: number } {
  const tables = (
    db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as {
      n: number;
    }
  ).n;
  const ledger = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (!ledger) return { schemaVersion: 0, tables };
  const row = db.prepare('SELECT max(version) AS v FROM schema_migrations').get() as {
    v: number | null;
  };
  return { schemaVersion: row.v ?? 0, tables };
}

/** What the quick check reports; a file too damaged to be checked reports why. */
function quickCheck(db: Database.Database): string[] {
  try {
    const rows = db.pragma(`quick_check(${PROBLEMS_KEPT})`) as { quick_check: string }[];
    return rows
      .map((r) =>
        r.quick_check.replace(/^\*\*\* in database \w+ \*\*\*\s*/u, '').replace(/\s+/gu, ' '),
      )
      .filter((line) => line !== 'ok');
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'SQLITE_CORRUPT') throw err;
    return [(err as Error).message];
  }
}

/** Looks at the store file at `path` without creating or changing it. */
export function inspectSqlite(path: string, busyTimeoutMs: number): SqliteInspection {
  const base = { backend: 'sqlite' as const, location: path, latestVersion: LATEST_SCHEMA_VERSION };
  if (path === ':memory:') return { ...base, state: 'memory' };
  if (!existsSync(path)) return { ...base, state: 'missing' };
  if (!statSync(path).isFile()) {
    const error = new EngramError('STORE_UNAVAILABLE', `store path ${path} is not a file`, {
      field: 'store.path',
      rule: 'must be a SQLite database file',
    });
    return { ...base, state: 'unopenable', error };
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
    const schema = readSchema(db);
    const problems = quickCheck(db);
    return { ...base, state: 'opened', ...schema, problems, bytes: statSync(path).size };
  } catch (err) {
    return { ...base, state: 'unopenable', error: storeError(err, path) };
  } finally {
    db?.close();
  }
}
