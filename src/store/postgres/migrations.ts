/**
 * Versioned, additive migrations of the PostgreSQL store, run under a session advisory lock per
 * schema so that several engram servers starting at once apply each step exactly once. pgvector
 * is enabled (database-wide, under its own lock) before the first step. Nothing is created when
 * everything exists already, so a user with only read/write rights can start a migrated store.
 */
import type pg from 'pg';

import type { PgTarget } from './connection.js';
import { PG_DREAM_INTENT_SQL, PG_DREAMS_SCHEMA_SQL } from './dream-schema.js';
import { missingPgvector } from './errors.js';
import { PG_GRAPH_DERIVED_CO_MENTIONS_SQL, PG_GRAPH_SCHEMA_SQL } from './graph-schema.js';
import { PG_JOBS_SCHEMA_SQL } from './job-schema.js';
import {
  foldPgKeywordIndex,
  PG_KEYWORD_INDEX_PREPARE_SQL,
  rebuildPgKeywordIndex,
  refreshPgIndexedText,
} from './keyword-index.js';
import { LIFECYCLE_SCHEMA_SQL } from './lifecycle-schema.js';
import { PG_MODEL_TRANSITION_SQL, PG_VECTOR_STATES_SQL } from './model-schema.js';
import { PG_SESSIONS_SCHEMA_SQL } from './session-schema.js';

/** One schema step. */
export interface PgMigration {
  version: number;
  name: string;
  sql: string;
  /** Work SQL alone cannot do (text computed in JavaScript), run after `sql` in its transaction. */
  then?: (client: pg.ClientBase) => Promise<void>;
}

/** What migrating found: the schema version and where pgvector lives. */
export interface MigrationResult {
  version: number;
  extensionSchema: string;
}

/** The PostgreSQL schema history, oldest first. Never edit a released step; add a new one. */
export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    name: 'items, versions, relations, status events, vectors, full-text search, leases',
    sql: `
CREATE TABLE items (
  pk bigserial PRIMARY KEY,
  id text COLLATE "C" NOT NULL UNIQUE,
  space text COLLATE "C" NOT NULL,
  area text COLLATE "C" NOT NULL,
  kind text NOT NULL,
  title text,
  body text NOT NULL,
  body_hash text NOT NULL,
  tags text[] NOT NULL DEFAULT '{}',
  tags_text text NOT NULL DEFAULT '',
  importance double precision NOT NULL DEFAULT 0.5,
  pinned boolean NOT NULL DEFAULT false,
  status text,
  strength double precision NOT NULL DEFAULT 1,
  source json,
  version integer NOT NULL DEFAULT 1,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL,
  access_count bigint NOT NULL DEFAULT 0,
  last_accessed_at bigint,
  use_count bigint NOT NULL DEFAULT 0,
  last_used_at bigint,
  prior json,
  vector_state text NOT NULL DEFAULT 'pending',
  search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A') ||
    setweight(to_tsvector('english'::regconfig, body), 'B') ||
    setweight(to_tsvector('english'::regconfig, tags_text), 'C')
  ) STORED
);
CREATE INDEX items_space_status_updated ON items (space, status, updated_at);
CREATE INDEX items_space_created ON items (space, created_at, id);
CREATE INDEX items_space_updated ON items (space, updated_at, id);
CREATE INDEX items_dedupe ON items (space, kind, body_hash);
CREATE INDEX items_vector_pending ON items (pk) WHERE vector_state = 'pending';
CREATE INDEX items_search ON items USING gin (search);
CREATE INDEX items_tags ON items USING gin (tags);

CREATE TABLE versions (
  item_id text COLLATE "C" NOT NULL,
  version integer NOT NULL,
  title text,
  body text NOT NULL,
  tags text[] NOT NULL DEFAULT '{}',
  actor text,
  reason text,
  created_at bigint NOT NULL,
  PRIMARY KEY (item_id, version)
);

CREATE TABLE status_events (
  id text COLLATE "C" PRIMARY KEY,
  item_id text COLLATE "C" NOT NULL,
  from_status text,
  to_status text NOT NULL,
  reason text NOT NULL,
  actor text,
  at bigint NOT NULL
);
CREATE INDEX status_events_item ON status_events (item_id, at);

CREATE TABLE relations (
  id text COLLATE "C" PRIMARY KEY,
  space text COLLATE "C" NOT NULL,
  type text NOT NULL,
  from_id text COLLATE "C" NOT NULL,
  to_id text COLLATE "C" NOT NULL,
  actor text,
  reason text,
  created_at bigint NOT NULL,
  invalidated_at bigint,
  invalidated_reason text
);
CREATE INDEX relations_from ON relations (from_id);
CREATE INDEX relations_to ON relations (to_id);

CREATE TABLE models (
  id text COLLATE "C" PRIMARY KEY,
  dimension integer NOT NULL,
  published_at bigint
);

CREATE TABLE vectors (
  item_pk bigint NOT NULL REFERENCES items (pk) ON DELETE CASCADE,
  model text COLLATE "C" NOT NULL,
  dimension integer NOT NULL,
  embedding vector,
  PRIMARY KEY (item_pk, model)
);

CREATE TABLE purges (
  item_id text COLLATE "C" PRIMARY KEY,
  space text NOT NULL,
  actor text,
  reason text,
  at bigint NOT NULL
);

CREATE TABLE leases (
  name text COLLATE "C" PRIMARY KEY,
  holder text NOT NULL,
  acquired_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
`,
  },
  {
    version: 2,
    name: 'lifecycle: strength base, use events, settings, conversations, maintenance runs',
    sql: LIFECYCLE_SCHEMA_SQL,
  },
  {
    version: 3,
    name: 'knowledge graph (entities, mentions, links, triggers); session-turn index',
    sql: PG_GRAPH_SCHEMA_SQL,
  },
  {
    version: 4,
    name: 'background jobs and per-item work failures',
    sql: PG_JOBS_SCHEMA_SQL,
  },
  {
    version: 5,
    name: 'model transitions: vectors stamped with the item version, model specs and the target',
    sql: PG_MODEL_TRANSITION_SQL,
  },
  {
    version: 6,
    name: 'sessions: past conversations, their turns and full-text index, purge audit rows',
    sql: PG_SESSIONS_SCHEMA_SQL,
  },
  {
    version: 7,
    name: 'dreams: runs, their stages and diary entries, daily caps',
    sql: PG_DREAMS_SCHEMA_SQL,
  },
  {
    version: 8,
    name: 'keyword index: words of unspaced scripts segmented, items and turns re-indexed',
    sql: PG_KEYWORD_INDEX_PREPARE_SQL,
    then: rebuildPgKeywordIndex,
  },
  {
    version: 9,
    name: 'dreams: a run records the batch it is about to apply (write-ahead intent)',
    sql: PG_DREAM_INTENT_SQL,
  },
  {
    version: 10,
    name: "knowledge graph: co-mentions follow from mentions, relations link their items' first entities",
    sql: PG_GRAPH_DERIVED_CO_MENTIONS_SQL,
  },
  {
    version: 11,
    name: "vector states read again from the published model's vectors (a write racing a swap)",
    sql: PG_VECTOR_STATES_SQL,
  },
  {
    version: 12,
    name: 'keyword index: stems of words of inflected languages, items and turns re-indexed',
    sql: '',
    then: refreshPgIndexedText,
  },
  {
    version: 13,
    name: 'keyword index: Latin diacritics folded as on SQLite ("cafe" finds "café"), items and turns re-indexed',
    sql: '',
    then: foldPgKeywordIndex,
  },
];

/** The newest schema version this code knows. */
export const PG_LATEST_SCHEMA_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1]!.version;

/** Advisory-lock class ids ("engr" and "engv"), so engram's locks never meet another program's. */
const LOCK_CLASS_MIGRATE = 0x656e6772;
const LOCK_CLASS_EXTENSION = 0x656e6776;
/** The advisory-lock class of vector index builds (one builder per schema at a time). */
export const LOCK_CLASS_INDEX = 0x656e6769;

/** A 31-bit FNV-1a hash, the object id of a per-schema lock. */
export function lockKey(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) hash = Math.imul(hash ^ byte, 0x01000193);
  return (hash >>> 0) & 0x7fffffff;
}

/** Quotes an identifier that the configuration already restricted to [a-z0-9_]. */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

async function extensionSchema(client: pg.ClientBase): Promise<string | undefined> {
  const { rows } = await client.query<{ schema: string }>(
    "SELECT n.nspname AS schema FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'",
  );
  return rows[0]?.schema;
}

async function schemaExists(client: pg.ClientBase, schema: string): Promise<boolean> {
  const { rows } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
  return rows.length > 0;
}

/** Enables pgvector once per database (installing into `public` when it exists). */
async function ensureExtension(
  client: pg.ClientBase,
  schema: string,
  target: PgTarget,
): Promise<string> {
  const found = await extensionSchema(client);
  if (found) return found;
  const available = await client.query(
    "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'",
  );
  if (available.rows.length === 0) throw missingPgvector(target);
  await client.query('SELECT pg_advisory_lock($1, 0)', [LOCK_CLASS_EXTENSION]);
  try {
    const again = await extensionSchema(client);
    if (again) return again;
    const home = (await schemaExists(client, 'public')) ? 'public' : schema;
    if (home === schema) await ensureSchema(client, schema);
    await client.query(`CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA ${ident(home)}`);
    return home;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1, 0)', [LOCK_CLASS_EXTENSION]).catch(() => {});
  }
}

async function ensureSchema(client: pg.ClientBase, schema: string): Promise<void> {
  if (!(await schemaExists(client, schema)))
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${ident(schema)}`);
}

/**
 * The versions applied to `schema` itself. Qualified: unqualified, the search path would find the
 * ledger of another engram store in the pgvector extension's schema (often `public`) and skip
 * creating this one's tables.
 */
async function appliedVersions(
  client: pg.ClientBase,
  schema: string,
): Promise<Set<number> | undefined> {
  const ledger = `${ident(schema)}.schema_migrations`;
  const { rows } = await client.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [
    ledger,
  ]);
  if (!rows[0]?.t) return undefined;
  const applied = await client.query<{ version: number }>(`SELECT version FROM ${ledger}`);
  return new Set(applied.rows.map((r) => Number(r.version)));
}

async function applyPending(client: pg.ClientBase, schema: string): Promise<number> {
  let applied = await appliedVersions(client, schema);
  if (!applied || PG_MIGRATIONS.some((m) => !applied!.has(m.version))) {
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at bigint NOT NULL)',
    );
    applied ??= new Set();
    for (const step of PG_MIGRATIONS) {
      if (applied.has(step.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(step.sql);
        await step.then?.(client);
        await client.query(
          'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
          [step.version, step.name, Date.now()],
        );
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      }
      applied.add(step.version);
    }
  }
  return Math.max(0, ...applied);
}

/**
 * Brings `schema` to the latest version on a dedicated connection: pgvector first, then the schema,
 * then each pending step in its own transaction, all under the schema's advisory lock.
 */
export async function migrate(
  client: pg.ClientBase,
  schema: string,
  target: PgTarget,
): Promise<MigrationResult> {
  const extension = await ensureExtension(client, schema, target);
  await client.query('SELECT pg_advisory_lock($1, $2)', [LOCK_CLASS_MIGRATE, lockKey(schema)]);
  try {
    await ensureSchema(client, schema);
    await client.query(`SET search_path = ${ident(schema)}, ${ident(extension)}`);
    const version = await applyPending(client, schema);
    return { version, extensionSchema: extension };
  } finally {
    await client
      .query('SELECT pg_advisory_unlock($1, $2)', [LOCK_CLASS_MIGRATE, lockKey(schema)])
      .catch(() => {});
  }
}

/** Takes the schema's migration lock inside a transaction (index changes on publish). */
export async function lockSchemaInTransaction(
  query: (sql: string, params: unknown[]) => Promise<unknown>,
  schema: string,
): Promise<void> {
  await query('SELECT pg_advisory_xact_lock($1, $2)', [LOCK_CLASS_MIGRATE, lockKey(schema)]);
}
