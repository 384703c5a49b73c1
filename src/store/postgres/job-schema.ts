/** The PostgreSQL schema of background jobs and per-item work failures. */

/** The schema of jobs and item failures (migration 4), the columns of SQLite's migration 6. */
export const PG_JOBS_SCHEMA_SQL = `
CREATE TABLE jobs (
  id text COLLATE "C" PRIMARY KEY,
  kind text NOT NULL,
  space text COLLATE "C",
  payload json NOT NULL DEFAULT '{}',
  state text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL,
  next_attempt_at bigint NOT NULL,
  lease_holder text,
  lease_expires_at bigint,
  progress json,
  last_error text,
  cancel_requested boolean NOT NULL DEFAULT false,
  dedupe_key text COLLATE "C",
  created_at bigint NOT NULL,
  started_at bigint,
  run_started_at bigint,
  heartbeat_at bigint,
  finished_at bigint
);
CREATE INDEX jobs_due ON jobs (state, next_attempt_at);
CREATE INDEX jobs_created ON jobs (created_at, id);
CREATE UNIQUE INDEX jobs_dedupe ON jobs (dedupe_key)
  WHERE dedupe_key IS NOT NULL AND state IN ('queued', 'running');

CREATE TABLE item_failures (
  item_id text COLLATE "C" NOT NULL,
  work text NOT NULL,
  space text COLLATE "C" NOT NULL,
  version integer NOT NULL,
  attempts integer NOT NULL,
  last_error text NOT NULL,
  first_failed_at bigint NOT NULL,
  last_failed_at bigint NOT NULL,
  next_attempt_at bigint,
  PRIMARY KEY (item_id, work)
);
CREATE INDEX item_failures_space ON item_failures (space, last_failed_at);
`;
