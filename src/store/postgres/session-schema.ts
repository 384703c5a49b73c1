/** The PostgreSQL schema of sessions (§1.4): sessions, their turns with a tsvector, purges. */

/**
 * Migration 6, the tables of SQLite's migration 8. Each turn carries a generated `english`
 * tsvector under a GIN index (as items do); nothing here touches the items' tables, so a memory
 * search never meets a turn and a session search never meets an item. A session is keyed by space
 * and id: a caller-given id names a conversation within one space only.
 */
export const PG_SESSIONS_SCHEMA_SQL = `
CREATE TABLE sessions (
  pk bigserial PRIMARY KEY,
  space text COLLATE "C" NOT NULL,
  id text COLLATE "C" NOT NULL,
  agent text,
  title text,
  started_at bigint NOT NULL,
  ended_at bigint,
  source json,
  turn_count integer NOT NULL,
  created_at bigint NOT NULL,
  UNIQUE (space, id)
);
CREATE INDEX sessions_space_started ON sessions (space, started_at, id);
CREATE INDEX sessions_space_agent_started ON sessions (space, agent, started_at, id);

CREATE TABLE session_turns (
  session_pk bigint NOT NULL REFERENCES sessions (pk) ON DELETE CASCADE,
  turn integer NOT NULL,
  role text NOT NULL,
  text text NOT NULL,
  at bigint,
  search tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
  PRIMARY KEY (session_pk, turn)
);
CREATE INDEX session_turns_search ON session_turns USING gin (search);

CREATE TABLE session_purges (
  space text COLLATE "C" NOT NULL,
  session_id text COLLATE "C" NOT NULL,
  actor text,
  reason text,
  at bigint NOT NULL,
  PRIMARY KEY (space, session_id)
);
`;
