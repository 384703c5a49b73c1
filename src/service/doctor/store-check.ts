/**
 * The doctor's store check: the configured store exists (it is never created here), opens, passes
 * SQLite's quick integrity check or answers on PostgreSQL with pgvector, and its schema is the one
 * this engram writes.
 */
import {
  inspectStore,
  type PostgresInspection,
  type SqliteInspection,
} from '../../store/inspect.js';
import { engramCommand, quoteArg } from './command-line.js';
import type { Check, DoctorContext, Finding } from './types.js';

const MB = 1024 * 1024;

/** A schema older than this engram's is migrated by the next open; a newer one is refused. */
function schemaFinding(
  ctx: DoctorContext,
  where: string,
  version: number,
  latest: number,
): Finding | undefined {
  if (version > latest)
    return {
      status: 'fail',
      finding: `${where} has schema version ${version}, newer than this engram's ${latest}: it was written by a newer engram`,
      fix: 'run a newer engram against it (update the checkout, then npm ci)',
      code: 'STORE_UNAVAILABLE',
    };
  if (version < latest)
    return {
      status: 'warn',
      finding: `${where} has schema version ${version}; this engram writes ${latest}: the next command that opens it migrates it (the migrations only add)`,
      fix: engramCommand(ctx, 'status'),
    };
  return undefined;
}

function missingSqlite(ctx: DoctorContext, path: string): Finding {
  const fix =
    ctx.configSource === 'defaults'
      ? 'engram init (writes ./engram.yaml and creates ./engram.db here), or any write creates the default store'
      : `${engramCommand(ctx, 'remember "..."')} (any write creates it); check store.path if you expected one there`;
  return { status: 'warn', finding: `no store at ${path} yet (doctor never creates one)`, fix };
}

function sqliteFinding(ctx: DoctorContext, s: SqliteInspection): Finding {
  const path = s.location;
  if (s.state === 'memory')
    return {
      status: 'ok',
      finding: 'in-memory store (:memory:): nothing is kept after the process',
    };
  if (s.state === 'missing') return missingSqlite(ctx, path);
  if (s.state === 'unopenable')
    return {
      status: 'fail',
      finding: s.error!.message,
      fix: 'point store.path at an engram store file (or a path where one may be created)',
      code: s.error!.code,
    };
  if (s.schemaVersion === 0 && (s.tables ?? 0) > 0)
    return {
      status: 'fail',
      finding: `${path} is a SQLite database but not an engram store (no schema_migrations table)`,
      fix: 'point store.path at an engram store, or move that file away',
      code: 'STORE_UNAVAILABLE',
    };
  if (s.problems && s.problems.length > 0)
    return {
      status: 'fail',
      finding: `SQLite's integrity check found problems in ${path}: ${s.problems.slice(0, 3).join('; ')}`,
      fix: `copy ${quoteArg(path)} aside, then rescue what reads: ${engramCommand(ctx, 'export --all-spaces rescue.jsonl')}, and import it into a new store (engram import rescue.jsonl)`,
      code: 'STORE_UNAVAILABLE',
    };
  const schema = schemaFinding(ctx, path, s.schemaVersion ?? 0, s.latestVersion);
  if (schema) return schema;
  const size = ((s.bytes ?? 0) / MB).toFixed(1);
  return {
    status: 'ok',
    finding: `SQLite ${path} (${size} MB): schema ${s.schemaVersion}, integrity check ok`,
  };
}

/** `postgresql-16-pgvector` for a server version such as `16.4`. */
const pgvectorPackage = (serverVersion: string | undefined) =>
  `postgresql-${serverVersion?.split('.')[0] ?? '<major>'}-pgvector`;

function postgresFinding(ctx: DoctorContext, s: PostgresInspection): Finding {
  if (s.state === 'unreachable')
    return {
      status: 'fail',
      finding: s.error!.message,
      fix: `start PostgreSQL at ${s.location.split('/')[0]}, or correct store.url (host, port, user, password)`,
      code: s.error!.code,
    };
  const server = `PostgreSQL ${s.serverVersion} at ${s.location}`;
  if (s.pgvectorEnabled === null && s.pgvectorInstalled === null)
    return {
      status: 'fail',
      finding: `${server} does not have the pgvector extension installed`,
      fix: `apt-get install ${pgvectorPackage(s.serverVersion)} on the database server (or build pgvector against its pg_config)`,
      code: 'STORE_UNAVAILABLE',
    };
  if (s.schemaVersion === null)
    return {
      status: 'warn',
      finding: `${server} answers; schema ${s.schema} is not created yet (doctor never creates it)`,
      fix: `${engramCommand(ctx, 'status')} (the first command that opens the store creates the schema${s.pgvectorEnabled === null ? ' and enables pgvector, when its user may CREATE EXTENSION' : ''})`,
    };
  if (s.pgvectorEnabled === null)
    return {
      status: 'warn',
      finding: `${server}: pgvector ${s.pgvectorInstalled} is installed but not enabled in the database`,
      fix: 'as a superuser, run CREATE EXTENSION vector; in that database (engram does it when its user may)',
    };
  const schema = schemaFinding(ctx, `schema ${s.schema}`, s.schemaVersion ?? 0, s.latestVersion);
  if (schema) return schema;
  return {
    status: 'ok',
    finding: `${server}: schema ${s.schema} at version ${s.schemaVersion}, pgvector ${s.pgvectorEnabled}`,
  };
}

/** Looks at the configured store without creating it; the jobs check reads it afterwards. */
export const storeCheck: Check = async (ctx) => {
  const inspection = await inspectStore(ctx.config!);
  ctx.store = inspection;
  const { error, ...facts } = inspection;
  const details = { ...facts, ...(error ? { error: error.toJSON() } : {}) };
  const finding =
    inspection.backend === 'sqlite'
      ? sqliteFinding(ctx, inspection)
      : postgresFinding(ctx, inspection);
  return { ...finding, details };
};
