/** The SQLite schema of background jobs and per-item work failures. */

/** The schema of jobs and item failures (migration 6). */
export const JOBS_SCHEMA_SQL = `
CREATE TABLE jobs (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  space TEXT,
  payload TEXT NOT NULL DEFAULT '{}',
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  next_attempt_at INTEGER NOT NULL,
  lease_holder TEXT,
  lease_expires_at INTEGER,
  progress TEXT,
  last_error TEXT,
  cancel_requested INTEGER NOT NULL DEFAULT 0,
  dedupe_key TEXT,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  run_started_at INTEGER,
  heartbeat_at INTEGER,
  finished_at INTEGER
);
CREATE INDEX jobs_due ON jobs(state, next_attempt_at);
CREATE UNIQUE INDEX jobs_dedupe ON jobs(dedupe_key)
  WHERE dedupe_key IS NOT NULL AND state IN ('queued', 'running');

CREATE TABLE item_failures (
  item_id TEXT NOT NULL,
  work TEXT NOT NULL,
  space TEXT NOT NULL,
  version INTEGER NOT NULL,
  attempts INTEGER NOT NULL,
  last_error TEXT NOT NULL,
  first_failed_at INTEGER NOT NULL,
  last_failed_at INTEGER NOT NULL,
  next_attempt_at INTEGER,
  PRIMARY KEY (item_id, work)
) WITHOUT ROWID;
CREATE INDEX item_failures_space ON item_failures(space, last_failed_at);
`;
