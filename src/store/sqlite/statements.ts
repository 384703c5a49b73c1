/**
 * Prepared statements kept per connection. Search paths run the same few statements on every
 * query, and compiling them each time showed up in the scale benchmark's profiles.
 */
import type Database from 'better-sqlite3';

import type { SqliteDatabase } from './database.js';

/** Statements beyond this many are dropped and compiled again (filters vary the SQL text). */
const MAX_STATEMENTS = 256;

/** A per-connection cache of prepared statements, keyed by SQL text. */
export class Statements {
  private readonly cache = new Map<string, Database.Statement>();

  constructor(private readonly db: SqliteDatabase) {}

  /** The statement for `sql`, compiled on first use. Never change its mode (raw, pluck). */
  get(sql: string): Database.Statement {
    let statement = this.cache.get(sql);
    if (!statement) {
      if (this.cache.size >= MAX_STATEMENTS) this.cache.clear();
      statement = this.db.prepare(sql);
      this.cache.set(sql, statement);
    }
    return statement;
  }
}
