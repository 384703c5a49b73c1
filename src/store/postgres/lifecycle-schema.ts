/**
 * The lifecycle tables of the PostgreSQL store (migration version 2), the twins of SQLite's
 * version 3: the reinforcement base on items, the use-event log, per-space settings, per-conversation
 * auto-recall state and the maintenance-run log. Times are bigint epoch milliseconds and JSON is
 * `json` (key order kept), as in the other tables.
 */

/** The SQL of the lifecycle migration step. */
export const LIFECYCLE_SCHEMA_SQL = `
ALTER TABLE items ADD COLUMN strength_base double precision;

CREATE TABLE use_events (
  id text COLLATE "C" PRIMARY KEY,
  space text COLLATE "C" NOT NULL,
  item_id text COLLATE "C" NOT NULL,
  at bigint NOT NULL,
  source text NOT NULL,
  conversation_id text,
  actor text,
  context_tags text[] NOT NULL DEFAULT '{}',
  context_area text,
  cross_domain boolean NOT NULL DEFAULT false,
  base_before double precision NOT NULL,
  base_after double precision NOT NULL,
  strength_before double precision NOT NULL,
  strength_after double precision NOT NULL
);
CREATE INDEX use_events_item ON use_events (item_id, at);
CREATE INDEX use_events_space ON use_events (space, at);

CREATE TABLE settings (
  space text COLLATE "C" NOT NULL,
  key text COLLATE "C" NOT NULL,
  value json NOT NULL,
  updated_at bigint NOT NULL,
  PRIMARY KEY (space, key)
);

CREATE TABLE autorecall_conversations (
  space text COLLATE "C" NOT NULL,
  conversation_id text COLLATE "C" NOT NULL,
  topics json NOT NULL DEFAULT '[]',
  last_recall_at bigint,
  updated_at bigint NOT NULL,
  PRIMARY KEY (space, conversation_id)
);
CREATE INDEX autorecall_conversations_updated ON autorecall_conversations (updated_at);

CREATE TABLE maintenance_runs (
  id text COLLATE "C" PRIMARY KEY,
  space text COLLATE "C",
  started_at bigint NOT NULL,
  finished_at bigint NOT NULL,
  backup_path text,
  summary json NOT NULL
);
CREATE INDEX maintenance_runs_started ON maintenance_runs (started_at);
`;
