/** The SQLite schema of consolidation (§10): dream runs, their stages and diaries, daily caps. */

/**
 * The schema of dreams (migration 9). A run has one stage row per stage and an append-only diary
 * numbered from 1 per run; a day's cap is one counter row per space, cap and UTC day, so claims
 * from several processes meet on one row. Diary rows hold ids, areas and scores, never memory text.
 */
export const DREAMS_SCHEMA_SQL = `
CREATE TABLE dream_runs (
  id TEXT PRIMARY KEY,
  space TEXT NOT NULL,
  dry_run INTEGER NOT NULL,
  state TEXT NOT NULL,
  diary TEXT NOT NULL,
  reason TEXT,
  started_at INTEGER NOT NULL,
  finished_at INTEGER,
  undone_at INTEGER,
  job_id TEXT
);
CREATE INDEX dream_runs_space_started ON dream_runs(space, started_at, id);
CREATE INDEX dream_runs_started ON dream_runs(started_at);

CREATE TABLE dream_stages (
  run_id TEXT NOT NULL REFERENCES dream_runs(id) ON DELETE CASCADE,
  stage TEXT NOT NULL,
  state TEXT NOT NULL,
  started_at INTEGER,
  finished_at INTEGER,
  note TEXT,
  PRIMARY KEY (run_id, stage)
) WITHOUT ROWID;

CREATE TABLE dream_entries (
  run_id TEXT NOT NULL REFERENCES dream_runs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  stage TEXT NOT NULL,
  action TEXT NOT NULL,
  outcome TEXT NOT NULL,
  reason TEXT NOT NULL,
  items TEXT NOT NULL DEFAULT '[]',
  detail TEXT NOT NULL DEFAULT '{}',
  at INTEGER NOT NULL,
  PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

CREATE TABLE dream_caps (
  space TEXT NOT NULL,
  cap TEXT NOT NULL,
  day TEXT NOT NULL,
  used INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (space, cap, day)
) WITHOUT ROWID;
`;

/**
 * Migration 11: a run's write-ahead intent (the batch it is about to apply, JSON), cleared with
 * the batch's diary entries; left behind only by a run stopped between the two.
 */
export const DREAM_INTENT_SQL = 'ALTER TABLE dream_runs ADD COLUMN intent TEXT;';
