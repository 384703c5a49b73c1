/**
 * Lease rows on PostgreSQL. Expiry uses the database server's clock, so engram servers on hosts
 * whose clocks disagree still agree on who holds a lease. Rows rather than session advisory
 * locks: they work through transaction-pooling proxies, never pin a pooled connection for the
 * length of a job, and show who holds what until when.
 */
import type { LeaseRows } from '../lease.js';
import type { PgDatabase } from './database.js';

/** Lease rows in the store's `leases` table. */
export function pgLeaseRows(db: PgDatabase): LeaseRows {
  return {
    async acquire(name, holder, ttlMs) {
      const taken = await db.query<{ holder: string }>(
        `INSERT INTO leases (name, holder, acquired_at, expires_at)
VALUES ($1, $2, clock_timestamp(), clock_timestamp() + $3 * interval '1 millisecond')
ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, acquired_at = excluded.acquired_at, expires_at = excluded.expires_at
WHERE leases.expires_at <= clock_timestamp() OR leases.holder = excluded.holder
RETURNING holder`,
        [name, holder, ttlMs],
        'write',
      );
      if (taken.length > 0) return { acquired: true, holder, expires_at: Date.now() + ttlMs };
      const [current] = await db.query<{ holder: string; expires_at: number }>(
        'SELECT holder, (extract(epoch FROM expires_at) * 1000)::int8 AS expires_at FROM leases WHERE name = $1',
        [name],
      );
      return {
        acquired: false,
        holder: current?.holder ?? 'unknown',
        expires_at: current?.expires_at ?? Date.now(),
      };
    },
    async renew(name, holder, ttlMs) {
      const rows = await db.query(
        "UPDATE leases SET expires_at = clock_timestamp() + $3 * interval '1 millisecond' WHERE name = $1 AND holder = $2 RETURNING 1",
        [name, holder, ttlMs],
        'write',
      );
      return rows.length > 0;
    },
    async release(name, holder) {
      await db.query('DELETE FROM leases WHERE name = $1 AND holder = $2', [name, holder], 'write');
    },
  };
}
