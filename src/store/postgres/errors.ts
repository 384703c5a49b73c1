/**
 * PostgreSQL failures as EngramErrors: each names the server (`host:port/database`, never the
 * password) and says what to do — an unreachable server, a lost connection, a missing pgvector
 * extension, a user without rights, a statement past its timeout.
 */
import { EngramError, isEngramError } from '../../domain/errors.js';
import { type PgTarget, scrub } from './connection.js';

/** What the store was doing, so a privilege error can say which right is missing. */
export type PgPhase = 'connect' | 'migrate' | 'read' | 'write';

/** Details a mapped error needs: the target, the schema and the password to scrub. */
export interface PgErrorContext {
  target: PgTarget;
  schema: string;
  secret: string | undefined;
  statementTimeoutMs: number;
  phase: PgPhase;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ECONNABORTED',
]);

/** SQLSTATEs retried inside a transaction helper before they reach a caller. */
export const RETRYABLE_STATES = new Set(['40001', '40P01']);

function codeOf(err: unknown): string {
  return String((err as { code?: unknown } | null)?.code ?? '');
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** True for failures of the connection itself (the server is down, restarting or unreachable). */
export function isConnectionFailure(err: unknown): boolean {
  const code = codeOf(err);
  if (NETWORK_CODES.has(code) || code.startsWith('08')) return true;
  if (code === '57P01' || code === '57P02' || code === '57P03') return true;
  const message = messageOf(err);
  return (
    /Connection terminated|connection timeout|timeout expired|not queryable|Client was closed|ECONNREFUSED|socket hang up/i.test(
      message,
    ) && !code
  );
}

/** The install hint given whenever the server lacks pgvector. */
export function pgvectorInstallHint(target: PgTarget): string {
  return (
    `the PostgreSQL server at ${target.host}:${target.port} does not have the pgvector extension ` +
    'installed. Install it on the database server (Debian/Ubuntu: apt-get install ' +
    'postgresql-<major>-pgvector; or build pgvector from source with `make && make install` ' +
    "against that server's pg_config), then connect again: engram enables it with " +
    '`CREATE EXTENSION vector` (a superuser may have to run that once per database)'
  );
}

/** The error for a server that lacks pgvector. */
export function missingPgvector(target: PgTarget): EngramError {
  return new EngramError('STORE_UNAVAILABLE', pgvectorInstallHint(target), {
    field: 'store.url',
    rule: 'pgvector extension installed',
  });
}

function privilegeError(err: unknown, ctx: PgErrorContext, message: string): EngramError {
  const who = `user ${JSON.stringify(ctx.target.user)}`;
  if (ctx.phase === 'write')
    return new EngramError(
      'STORE_READ_ONLY',
      `${who} may not write engram's tables in schema ${ctx.schema} at ${ctx.target.label} (${message}): grant it INSERT, UPDATE and DELETE on the schema's tables, or connect as a user that has them`,
      { field: 'store.url', rule: 'write privileges' },
      { cause: err },
    );
  if (ctx.phase === 'migrate' && /extension/i.test(message))
    return new EngramError(
      'STORE_UNAVAILABLE',
      `pgvector is installed at ${ctx.target.host}:${ctx.target.port} but not enabled in database ${ctx.target.database}, and ${who} may not enable it (${message}): ask a superuser to run \`CREATE EXTENSION vector;\` in that database once`,
      { field: 'store.url', rule: 'pgvector enabled' },
      { cause: err },
    );
  if (ctx.phase === 'migrate')
    return new EngramError(
      'STORE_UNAVAILABLE',
      `${who} cannot create engram's schema ${ctx.schema} in ${ctx.target.label} (${message}): grant it CREATE on the database (or on an existing schema ${ctx.schema}), or run engram once as the schema's owner so later users only need read/write rights`,
      { field: 'store.schema', rule: 'create privileges' },
      { cause: err },
    );
  return new EngramError(
    'STORE_UNAVAILABLE',
    `${who} may not read engram's tables in schema ${ctx.schema} at ${ctx.target.label} (${message}): grant it USAGE on the schema and SELECT on its tables`,
    { field: 'store.url', rule: 'read privileges' },
    { cause: err },
  );
}

/** Maps anything a driver call threw to an EngramError; EngramErrors pass through unchanged. */
export function pgError(err: unknown, ctx: PgErrorContext): EngramError {
  if (isEngramError(err)) return err;
  const code = codeOf(err);
  const message = scrub(messageOf(err), ctx.secret);
  const where = ctx.target.label;
  const unavailable = (text: string, rule: string) =>
    new EngramError('STORE_UNAVAILABLE', text, { field: 'store.url', rule }, { cause: err });
  if (code === '58P01' && /vector/.test(message)) return missingPgvector(ctx.target);
  if (code === '42501') return privilegeError(err, ctx, message);
  if (code === '28P01' || code === '28000')
    return unavailable(
      `PostgreSQL at ${where} refused user ${JSON.stringify(ctx.target.user)}: ${message}; check the user and password of store.url`,
      'valid credentials',
    );
  if (code === '3D000')
    return unavailable(
      `database ${ctx.target.database} does not exist at ${ctx.target.host}:${ctx.target.port}; create it (createdb ${ctx.target.database}) or fix store.url`,
      'existing database',
    );
  if (code === '53300')
    return new EngramError(
      'STORE_BUSY',
      `PostgreSQL at ${where} has no free connection slots; lower store.pool_size or raise max_connections`,
      { rule: 'free connections' },
      { cause: err },
    );
  if (code === '57014')
    return new EngramError(
      'STORE_BUSY',
      `a statement at ${where} ran past store.statement_timeout_ms (${ctx.statementTimeoutMs} ms) and was cancelled; try again, or raise the timeout`,
      { field: 'store.statement_timeout_ms', rule: 'statement timeout' },
      { cause: err },
    );
  if (code === '55P03' || RETRYABLE_STATES.has(code))
    return new EngramError(
      'STORE_BUSY',
      `PostgreSQL at ${where} stayed busy with conflicting writes (${message}); try again`,
      { rule: 'busy' },
      { cause: err },
    );
  if (code === '25006')
    return new EngramError(
      'STORE_READ_ONLY',
      `PostgreSQL at ${where} is read-only (a standby?): ${message}; point store.url at the primary`,
      { field: 'store.url', rule: 'writable server' },
      { cause: err },
    );
  if (code === '23505')
    return new EngramError(
      'CONFLICT',
      `a record exists already: ${message}`,
      { rule: 'unique' },
      { cause: err },
    );
  if (code === '22021' || code === '22P05')
    return new EngramError(
      'INVALID_INPUT',
      `text PostgreSQL cannot store (${message})`,
      { rule: 'text without NUL characters' },
      { cause: err },
    );
  if (code === '54000')
    return new EngramError(
      'INVALID_INPUT',
      `too large for PostgreSQL: ${message}`,
      { rule: 'size' },
      { cause: err },
    );
  if (code === '53100')
    return unavailable(`PostgreSQL at ${where} is out of disk space (${message})`, 'disk space');
  if (
    /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_)/.test(code) ||
    /does not support SSL/i.test(message)
  )
    return unavailable(
      `TLS with PostgreSQL at ${ctx.target.host}:${ctx.target.port} failed (${code ? `${code}: ` : ''}${message}): check store.ssl (mode, ca) or the sslmode of store.url`,
      'TLS',
    );
  if (NETWORK_CODES.has(code))
    return unavailable(
      `cannot reach PostgreSQL at ${ctx.target.host}:${ctx.target.port} (${code}): check that the server runs and that store.url names it`,
      'reachable server',
    );
  if (/timeout expired|connection timeout/i.test(message))
    return unavailable(
      `PostgreSQL at ${ctx.target.host}:${ctx.target.port} did not accept a connection in time; check that the server runs and is reachable`,
      'reachable server',
    );
  if (isConnectionFailure(err))
    return unavailable(
      `the connection to PostgreSQL at ${where} was lost (${message}); the server may be restarting — try again`,
      'connection',
    );
  return new EngramError(
    'INTERNAL',
    `PostgreSQL at ${where}: ${message}`,
    { sqlstate: code || undefined },
    { cause: err },
  );
}
