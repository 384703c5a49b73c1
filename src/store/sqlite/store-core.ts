/**
 * The SQLite store's shared internals: its connection, the open/closed state, the statement cache
 * and the read and write wrappers that every item, model, stats and purge module runs through.
 */
import type Database from 'better-sqlite3';

import { EngramError } from '../../domain/errors.js';
import { type SqliteDatabase, storeError, writeWithRetry } from './database.js';

/** The connection and transaction helpers the SQLite store's modules share. */
export class StoreCore {
  private readonly statements = new Map<string, Database.Statement>();
  private closed = false;

  constructor(
    readonly db: SqliteDatabase,
    readonly path: string,
    readonly retryMs: number,
    readonly schemaVersion: number,
  ) {}

  /** Runs `fn` in one immediate transaction, retried while another process holds the lock. */
  write<T>(fn: () => T): Promise<T> {
    this.assertOpen();
    return writeWithRetry(this.db, this.path, this.retryMs, fn);
  }

  /** Runs a read, reporting driver failures as store errors. */
  read<T>(fn: () => T): T {
    this.assertOpen();
    try {
      return fn();
    } catch (err) {
      if (err instanceof EngramError) throw err;
      throw storeError(err, this.path);
    }
  }

  /** Throws STORE_UNAVAILABLE once the store is closed. */
  assertOpen(): void {
    if (this.closed)
      throw new EngramError('STORE_UNAVAILABLE', 'the store is closed', { rule: 'open store' });
  }

  /** Marks the store closed; false when it already was. */
  markClosed(): boolean {
    if (this.closed) return false;
    this.closed = true;
    return true;
  }

  /**
   * A statement compiled once per connection. Writes run the same few statements for every item,
   * and compiling them each time was a sixth of import time (bench/scale profile).
   */
  prepared(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
