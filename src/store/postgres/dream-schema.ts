/** The PostgreSQL schema of consolidation (§10): dream runs, their stages and diaries, daily caps. */

/**
 * Migration 7, the tables of SQLite's migration 9. A run has one stage row per stage and an
 * append-only diary numbered from 1 per run; a day's cap is one counter row per space, cap and UTC
 * day, so claims from several processes meet on one row (`INSERT ... ON CONFLICT DO UPDATE`).
 * Entry details are jsonb so that an undo can set a flag in place. Times are bigint epoch ms.
 */
export const PG_DREAMS_SCHEMA_SQL = `
CREATE TABLE dream_runs (
  id text COLLATE "C" PRIMARY KEY,
  space text COLLATE "C" NOT NULL,
  dry_run boolean NOT NULL,
  state text NOT NULL,
  diary text NOT NULL,
  reason text,
  started_at bigint NOT NULL,
  finished_at bigint,
  undone_at bigint,
  job_id text COLLATE "C"
);
CREATE INDEX dream_runs_space_started ON dream_runs (space, started_at, id);
CREATE INDEX dream_runs_started ON dream_runs (started_at);

CREATE TABLE dream_stages (
  run_id text COLLATE "C" NOT NULL REFERENCES dream_runs (id) ON DELETE CASCADE,
  stage text NOT NULL,
  state text NOT NULL,
  started_at bigint,
  finished_at bigint,
  note text,
  PRIMARY KEY (run_id, stage)
);

CREATE TABLE dream_entries (
  run_id text COLLATE "C" NOT NULL REFERENCES dream_runs (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  stage text NOT NULL,
  action text NOT NULL,
  outcome text NOT NULL,
  reason text NOT NULL,
  items text[] NOT NULL DEFAULT '{}',
  detail jsonb NOT NULL DEFAULT '{}',
  at bigint NOT NULL,
  PRIMARY KEY (run_id, seq)
);

CREATE TABLE dream_caps (
  space text COLLATE "C" NOT NULL,
  cap text NOT NULL,
  day text NOT NULL,
  used integer NOT NULL DEFAULT 0,
  PRIMARY KEY (space, cap, day)
);
`;

/** Migration 9, SQLite's migration 11: a run's write-ahead intent (jsonb), see DreamIntent. */
export const PG_DREAM_INTENT_SQL = 'ALTER TABLE dream_runs ADD COLUMN intent jsonb;';
