/**
 * A diagnostic for PostgreSQL runs: while a transition runs, polls `pg_stat_activity` of the
 * store's database and keeps every statement seen running for longer than a threshold (and what
 * it waited on), so a slow swap can be told apart: a lock wait, a plan, or autovacuum beside it.
 */
import pg from 'pg';

/** A statement seen running long. */
export interface SlowStatement {
  pid: number;
  backend: string;
  /** The longest it was seen running, and when first seen (epoch ms). */
  ms: number;
  first_seen_at: number;
  /** Wait events seen while it ran (`type:event`). */
  waits: string[];
  query: string;
}

const POLL_MS = 250;

/** Starts polling; `stop` ends it and returns the statements seen running longer than `minMs`. */
export async function watchStatements(url: string, minMs = 1_000) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const seen = new Map<string, SlowStatement>();
  const poll = async () => {
    const { rows } = await client.query<{
      pid: number;
      backend: string;
      ms: number;
      wait: string | null;
      query: string;
    }>(
      `SELECT pid, backend_type AS backend, extract(epoch FROM now() - query_start) * 1000 AS ms,
  wait_event_type || ':' || wait_event AS wait, left(query, 300) AS query
FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
  AND state = 'active' AND now() - query_start > $1 * interval '1 millisecond'`,
      [minMs],
    );
    for (const r of rows) {
      const key = `${r.pid}\u0000${r.query}`;
      const s = seen.get(key) ?? { ...r, ms: 0, first_seen_at: Date.now(), waits: [] };
      s.ms = Math.max(s.ms, Math.round(r.ms));
      if (r.wait && !s.waits.includes(r.wait)) s.waits.push(r.wait);
      seen.set(key, s);
    }
  };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await poll().catch(() => undefined);
      await new Promise((done) => setTimeout(done, POLL_MS));
    }
  })();
  let ended: Promise<SlowStatement[]> | undefined;
  const end = async () => {
    stopped = true;
    await loop;
    await client.end();
    return [...seen.values()].sort((a, b) => a.first_seen_at - b.first_seen_at);
  };
  return {
    /** Stops polling (once; later calls get the same answer). */
    stop: (): Promise<SlowStatement[]> => (ended ??= end()),
  };
}
