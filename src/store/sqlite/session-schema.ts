/** The SQLite schema of sessions (§1.4): sessions, their turns, the turns' FTS5 index, purges. */

/**
 * The schema of sessions (migration 8). Turns are indexed one by one in their own FTS5 table
 * (the items' tokenizer), kept in step by triggers; nothing here touches the items' tables, so a
 * memory search never meets a turn and a session search never meets an item. A session is keyed
 * by space and id: a caller-given id names a conversation within one space only.
 */
export const SESSIONS_SCHEMA_SQL = `
CREATE TABLE sessions (
  pk INTEGER PRIMARY KEY,
  space TEXT NOT NULL,
  id TEXT NOT NULL,
  agent TEXT,
  title TEXT,
  started_at INTEGER NOT NULL,
  ended_at INTEGER,
  source TEXT,
  turn_count INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (space, id)
);
CREATE INDEX sessions_space_started ON sessions(space, started_at, id);
CREATE INDEX sessions_space_agent_started ON sessions(space, agent, started_at, id);

CREATE TABLE session_turns (
  pk INTEGER PRIMARY KEY,
  session_pk INTEGER NOT NULL,
  turn INTEGER NOT NULL,
  role TEXT NOT NULL,
  text TEXT NOT NULL,
  at INTEGER,
  UNIQUE (session_pk, turn)
);

CREATE VIRTUAL TABLE session_turns_fts USING fts5(
  text,
  content = 'session_turns', content_rowid = 'pk',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER session_turns_fts_insert AFTER INSERT ON session_turns BEGIN
  INSERT INTO session_turns_fts(rowid, text) VALUES (new.pk, new.text);
END;
CREATE TRIGGER session_turns_fts_delete AFTER DELETE ON session_turns BEGIN
  INSERT INTO session_turns_fts(session_turns_fts, rowid, text) VALUES ('delete', old.pk, old.text);
END;
CREATE TRIGGER session_turns_fts_update AFTER UPDATE OF text ON session_turns BEGIN
  INSERT INTO session_turns_fts(session_turns_fts, rowid, text) VALUES ('delete', old.pk, old.text);
  INSERT INTO session_turns_fts(rowid, text) VALUES (new.pk, new.text);
END;

CREATE TABLE session_purges (
  space TEXT NOT NULL,
  session_id TEXT NOT NULL,
  actor TEXT,
  reason TEXT,
  at INTEGER NOT NULL,
  PRIMARY KEY (space, session_id)
) WITHOUT ROWID;
`;
