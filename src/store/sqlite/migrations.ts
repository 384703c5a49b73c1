/**
 * Versioned, additive migrations of the SQLite store. Each runs once, in its own transaction;
 * a newer schema only adds, so an older engram can still read what it knows.
 */
import type { SqliteDatabase } from './database.js';
import { DREAM_INTENT_SQL, DREAMS_SCHEMA_SQL } from './dream-schema.js';
import {
  GRAPH_BATCH_SQL,
  GRAPH_DERIVED_CO_MENTIONS_SQL,
  GRAPH_SCHEMA_SQL,
} from './graph-schema.js';
import { JOBS_SCHEMA_SQL } from './job-schema.js';
import {
  KEYWORD_INDEX_PREPARE_SQL,
  rebuildKeywordIndex,
  refreshIndexedText,
} from './keyword-index.js';
import { KEYWORD_CHANGES_SQL } from './keyword-memory.js';
import { MODEL_TRANSITION_SQL } from './model-store.js';
import { SESSION_TURN_INDEX_SQL } from './session-context.js';
import { SESSIONS_SCHEMA_SQL } from './session-schema.js';

/** One schema step. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Work SQL alone cannot do (text computed in JavaScript), run after `sql` in its transaction. */
  then?: (db: SqliteDatabase) => void;
}

/** The SQLite schema history, oldest first. Never edit a released step; add a new one. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'items, versions, relations, status events, vectors, full-text index',
    sql: `
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
INSERT OR IGNORE INTO counters(name, value) VALUES ('vector_seq', 0);

CREATE TABLE items (
  pk INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  space TEXT NOT NULL,
  area TEXT NOT NULL,
  kind TEXT NOT NULL,
  title TEXT,
  body TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  tags TEXT NOT NULL DEFAULT '[]',
  tags_text TEXT NOT NULL DEFAULT '',
  importance REAL NOT NULL DEFAULT 0.5,
  pinned INTEGER NOT NULL DEFAULT 0,
  status TEXT,
  strength REAL NOT NULL DEFAULT 1,
  source TEXT,
  version INTEGER NOT NULL DEFAULT 1,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  access_count INTEGER NOT NULL DEFAULT 0,
  last_accessed_at INTEGER,
  use_count INTEGER NOT NULL DEFAULT 0,
  last_used_at INTEGER,
  prior TEXT,
  vector_state TEXT NOT NULL DEFAULT 'pending'
);
CREATE INDEX items_space_status_updated ON items(space, status, updated_at);
CREATE INDEX items_space_created ON items(space, created_at, id);
CREATE INDEX items_dedupe ON items(space, kind, body_hash);
CREATE INDEX items_vector_pending ON items(vector_state) WHERE vector_state = 'pending';

CREATE VIRTUAL TABLE items_fts USING fts5(
  title, body, tags_text,
  content = 'items', content_rowid = 'pk',
  tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER items_fts_insert AFTER INSERT ON items BEGIN
  INSERT INTO items_fts(rowid, title, body, tags_text) VALUES (new.pk, new.title, new.body, new.tags_text);
END;
CREATE TRIGGER items_fts_delete AFTER DELETE ON items BEGIN
  INSERT INTO items_fts(items_fts, rowid, title, body, tags_text) VALUES ('delete', old.pk, old.title, old.body, old.tags_text);
END;
CREATE TRIGGER items_fts_update AFTER UPDATE OF title, body, tags_text ON items BEGIN
  INSERT INTO items_fts(items_fts, rowid, title, body, tags_text) VALUES ('delete', old.pk, old.title, old.body, old.tags_text);
  INSERT INTO items_fts(rowid, title, body, tags_text) VALUES (new.pk, new.title, new.body, new.tags_text);
END;

CREATE TABLE versions (
  item_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  title TEXT,
  body TEXT NOT NULL,
  tags TEXT NOT NULL DEFAULT '[]',
  actor TEXT,
  reason TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (item_id, version)
) WITHOUT ROWID;

CREATE TABLE status_events (
  id TEXT PRIMARY KEY,
  item_id TEXT NOT NULL,
  from_status TEXT,
  to_status TEXT NOT NULL,
  reason TEXT NOT NULL,
  actor TEXT,
  at INTEGER NOT NULL
);
CREATE INDEX status_events_item ON status_events(item_id, at);

CREATE TABLE relations (
  id TEXT PRIMARY KEY,
  space TEXT NOT NULL,
  type TEXT NOT NULL,
  from_id TEXT NOT NULL,
  to_id TEXT NOT NULL,
  actor TEXT,
  reason TEXT,
  created_at INTEGER NOT NULL,
  invalidated_at INTEGER,
  invalidated_reason TEXT
);
CREATE INDEX relations_from ON relations(from_id);
CREATE INDEX relations_to ON relations(to_id);

CREATE TABLE models (
  id TEXT PRIMARY KEY,
  dimension INTEGER NOT NULL,
  published_at INTEGER
);

CREATE TABLE vectors (
  item_pk INTEGER NOT NULL,
  model TEXT NOT NULL,
  dimension INTEGER NOT NULL,
  vector BLOB,
  seq INTEGER NOT NULL,
  PRIMARY KEY (item_pk, model)
) WITHOUT ROWID;
CREATE INDEX vectors_model_seq ON vectors(model, seq);

CREATE TABLE vector_deletions (
  seq INTEGER PRIMARY KEY,
  item_pk INTEGER NOT NULL,
  model TEXT NOT NULL
);

CREATE TABLE purges (
  item_id TEXT PRIMARY KEY,
  space TEXT NOT NULL,
  actor TEXT,
  reason TEXT,
  at INTEGER NOT NULL
);
`,
  },
  {
    version: 2,
    name: 'knowledge graph: entities, mentions, statements, links, edges',
    sql: GRAPH_SCHEMA_SQL,
  },
  {
    version: 3,
    name: 'lifecycle: strength base, use events, settings, conversations, maintenance runs',
    sql: `
ALTER TABLE items ADD COLUMN strength_base REAL;

CREATE TABLE use_events (
  id TEXT PRIMARY KEY,
  space TEXT NOT NULL,
  item_id TEXT NOT NULL,
  at INTEGER NOT NULL,
  source TEXT NOT NULL,
  conversation_id TEXT,
  actor TEXT,
  context_tags TEXT NOT NULL DEFAULT '[]',
  context_area TEXT,
  cross_domain INTEGER NOT NULL DEFAULT 0,
  base_before REAL NOT NULL,
  base_after REAL NOT NULL,
  strength_before REAL NOT NULL,
  strength_after REAL NOT NULL
);
CREATE INDEX use_events_item ON use_events(item_id, at);
CREATE INDEX use_events_space ON use_events(space, at);

CREATE TABLE settings (
  space TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (space, key)
) WITHOUT ROWID;

CREATE TABLE autorecall_conversations (
  space TEXT NOT NULL,
  conversation_id TEXT NOT NULL,
  topics TEXT NOT NULL DEFAULT '[]',
  last_recall_at INTEGER,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (space, conversation_id)
) WITHOUT ROWID;

CREATE TABLE maintenance_runs (
  id TEXT PRIMARY KEY,
  space TEXT,
  started_at INTEGER NOT NULL,
  finished_at INTEGER NOT NULL,
  backup_path TEXT,
  summary TEXT NOT NULL
);
CREATE INDEX maintenance_runs_started ON maintenance_runs(started_at);
`,
  },
  {
    version: 4,
    name: 'session-turn index for the session context of recall',
    sql: SESSION_TURN_INDEX_SQL,
  },
  {
    version: 5,
    name: 'knowledge graph: batch writes keep derived counts per batch',
    sql: GRAPH_BATCH_SQL,
  },
  {
    version: 6,
    name: 'background jobs and per-item work failures',
    sql: JOBS_SCHEMA_SQL,
  },
  {
    version: 7,
    name: 'model transitions: vectors stamped with the item version, model specs and the target',
    sql: MODEL_TRANSITION_SQL,
  },
  {
    version: 8,
    name: 'sessions: past conversations, their turns and full-text index, purge audit rows',
    sql: SESSIONS_SCHEMA_SQL,
  },
  {
    version: 9,
    name: 'dreams: runs, their stages and diary entries, daily caps',
    sql: DREAMS_SCHEMA_SQL,
  },
  {
    version: 10,
    name: 'keyword index: words of unspaced scripts segmented, items and turns re-indexed',
    sql: KEYWORD_INDEX_PREPARE_SQL,
    then: rebuildKeywordIndex,
  },
  {
    version: 11,
    name: 'dreams: a run records the batch it is about to apply (write-ahead intent)',
    sql: DREAM_INTENT_SQL,
  },
  {
    version: 12,
    name: "knowledge graph: co-mentions follow from mentions, relations link their items' first entities",
    sql: GRAPH_DERIVED_CO_MENTIONS_SQL,
  },
  {
    version: 13,
    name: 'keyword index: a log of the items whose indexed text changed, for the in-memory index',
    sql: KEYWORD_CHANGES_SQL,
  },
  {
    version: 14,
    name: 'keyword index: stems of words of inflected languages, items and turns re-indexed',
    sql: '',
    then: refreshIndexedText,
  },
];

/** The newest schema version this code knows. */
export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;
