/**
 * Lease rows on SQLite: one row per lease name in the store file, taken and renewed inside the
 * store's immediate write transactions, so processes sharing the file agree on one holder. The
 * table is created on first use (like other additive, lazily created tables) and expiry uses this
 * machine's clock, which every process on one file shares.
 */
import type { LeaseRows } from '../lease.js';
import type { SqliteDatabase } from './database.js';

const TABLE = `CREATE TABLE IF NOT EXISTS leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  acquired_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
)`;

/** Lease rows of a SQLite store; `write` runs a function in the store's write transaction. */
export function sqliteLeaseRows(
  db: SqliteDatabase,
  write: <T>(fn: () => T) => Promise<T>,
): LeaseRows {
  // IF NOT EXISTS inside each transaction: a rolled-back first use leaves no stale flag behind.
  const ensure = () => db.exec(TABLE);
  return {
    acquire(name, holder, ttlMs) {
      return write(() => {
        ensure();
        const now = Date.now();
        const taken = db
          .prepare(
            `INSERT INTO leases (name, holder, acquired_at, expires_at) VALUES (?, ?, ?, ?)
ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, acquired_at = excluded.acquired_at, expires_at = excluded.expires_at
WHERE leases.expires_at <= ? OR leases.holder = excluded.holder
RETURNING holder`,
          )
          .get(name, holder, now, now + ttlMs, now);
        if (taken) return { acquired: true, holder, expires_at: now + ttlMs };
        const current = db
          .prepare('SELECT holder, expires_at FROM leases WHERE name = ?')
          .get(name) as { holder: string; expires_at: number };
        return { acquired: false, holder: current.holder, expires_at: current.expires_at };
      });
    },
    renew(name, holder, ttlMs) {
      return write(() => {
        ensure();
        const done = db
          .prepare('UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ?')
          .run(Date.now() + ttlMs, name, holder);
        return done.changes > 0;
      });
    },
    async release(name, holder) {
      await write(() => {
        ensure();
        db.prepare('DELETE FROM leases WHERE name = ? AND holder = ?').run(name, holder);
      });
    },
  };
}
