/**
 * Where the PostgreSQL store connects: the URL parsed into driver settings, TLS options passed
 * through (libpq's sslmode meanings), pool and timeout settings, and URL redaction so a password
 * never reaches a log line or an error message.
 */
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';

import type { PoolConfig } from 'pg';

import { EngramError } from '../../domain/errors.js';
import { pgDriver } from './driver.js';

/** TLS settings from configuration (`store.ssl`); they win over the URL's ssl parameters. */
export interface PgSslOptions {
  mode: 'disable' | 'require' | 'verify-ca' | 'verify-full';
  ca?: string;
  cert?: string;
  key?: string;
  servername?: string;
}

/** The server a store talks to, for messages: never carries the password. */
export interface PgTarget {
  host: string;
  port: number;
  database: string;
  user: string;
  /** `host:port/database`, the form every message names. */
  label: string;
}

/** Connection settings derived from a URL and the TLS options. */
export interface PgConnection {
  target: PgTarget;
  /** Driver settings without pool sizes and timeouts. */
  client: PoolConfig;
  /** The password, so messages can be scrubbed of it even when a driver repeats it. */
  secret: string | undefined;
}

const SSL_MODES = new Set(['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full']);

/** Replaces the password of a connection URL (userinfo and `password=` parameters) with `***`. */
export function redactUrl(url: string): string {
  const scheme = url.indexOf('://');
  if (scheme < 0) return url.replace(/(password=)[^&\s]*/gi, '$1***');
  const rest = url.slice(scheme + 3);
  const cut = rest.search(/[?#]/);
  const head = cut < 0 ? rest : rest.slice(0, cut);
  const tail = cut < 0 ? '' : rest.slice(cut);
  const at = head.lastIndexOf('@');
  let authority = head;
  if (at >= 0) {
    const info = head.slice(0, at);
    const colon = info.indexOf(':');
    if (colon >= 0) authority = `${info.slice(0, colon)}:***${head.slice(at)}`;
  }
  return (
    url.slice(0, scheme + 3) + authority + tail.replace(/([?&](?:ssl)?password=)[^&#]*/gi, '$1***')
  );
}

/** Removes every occurrence of `secret` (plain and URL-encoded) from a message. */
export function scrub(message: string, secret: string | undefined): string {
  if (!secret) return message;
  let out = message.split(secret).join('***');
  const encoded = encodeURIComponent(secret);
  if (encoded !== secret) out = out.split(encoded).join('***');
  return out;
}

function invalidUrl(url: string, rule: string): EngramError {
  return new EngramError('CONFIG_INVALID', `store.url ${redactUrl(url)}: ${rule}`, {
    field: 'store.url',
    rule,
  });
}

function decode(url: string, part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw invalidUrl(url, 'has a malformed percent-encoding');
  }
}

function readTlsFile(path: string, field: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'unreadable';
    throw new EngramError('CONFIG_INVALID', `${field}: cannot read ${path} (${code})`, {
      field,
      rule: 'readable file',
    });
  }
}

/**
 * TLS for the driver from a libpq-style mode: `require` encrypts without checking the server
 * (unless a CA is given, then like verify-ca), `verify-ca` checks the chain, `verify-full` checks
 * the chain and the host name. `allow`/`prefer` cannot fall back in this driver and mean no TLS.
 */
export function tlsOptions(
  ssl: PgSslOptions | undefined,
  params: URLSearchParams,
): false | ConnectionOptions {
  const field = ssl ? 'store.ssl' : 'store.url';
  const mode =
    ssl?.mode ?? params.get('sslmode') ?? (params.get('ssl') === 'true' ? 'require' : 'disable');
  if (mode === 'no-verify') return { rejectUnauthorized: false };
  if (!SSL_MODES.has(mode))
    throw new EngramError('CONFIG_INVALID', `${field}: unknown sslmode ${JSON.stringify(mode)}`, {
      field: `${field}.mode`,
      rule: 'disable, require, verify-ca or verify-full',
    });
  if (mode === 'disable' || mode === 'allow' || mode === 'prefer') return false;
  const caPath = ssl ? ssl.ca : (params.get('sslrootcert') ?? undefined);
  const certPath = ssl ? ssl.cert : (params.get('sslcert') ?? undefined);
  const keyPath = ssl ? ssl.key : (params.get('sslkey') ?? undefined);
  const out: ConnectionOptions = {};
  if (caPath) out.ca = readTlsFile(caPath, `${field}.ca`);
  if (certPath) out.cert = readTlsFile(certPath, `${field}.cert`);
  if (keyPath) out.key = readTlsFile(keyPath, `${field}.key`);
  if (ssl?.servername) out.servername = ssl.servername;
  if (mode === 'require' && !caPath) out.rejectUnauthorized = false;
  else if (mode === 'require' || mode === 'verify-ca') out.checkServerIdentity = () => undefined;
  return out;
}

/** Parses a `postgres://` URL into driver settings; errors name `store.url` and hide the password. */
export function parseConnection(url: string, ssl?: PgSslOptions): PgConnection {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidUrl(url, 'is not a valid URL');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw invalidUrl(url, 'must be a postgres:// or postgresql:// URL');
  const params = parsed.searchParams;
  const host = params.get('host') ?? (parsed.hostname.replace(/^\[(.*)\]$/, '$1') || 'localhost');
  const portText = params.get('port') ?? (parsed.port || '5432');
  const port = Number(portText);
  if (!Number.isInteger(port) || port <= 0 || port > 65_535)
    throw invalidUrl(url, `port ${portText} is not a TCP port`);
  const user =
    decode(url, parsed.username) || params.get('user') || process.env.PGUSER || 'postgres';
  const password =
    (parsed.password ? decode(url, parsed.password) : undefined) ??
    params.get('password') ??
    undefined;
  const database = decode(url, parsed.pathname.replace(/^\//, '')) || params.get('dbname') || user;
  const client: PoolConfig = {
    host,
    port,
    user,
    database,
    ssl: tlsOptions(ssl, params),
    application_name: params.get('application_name') ?? 'engram',
  };
  if (password !== undefined) client.password = password;
  const label = `${host.includes(':') ? `[${host}]` : host}:${port}/${database}`;
  return { target: { host, port, database, user, label }, client, secret: password };
}

/** Pool and timeout settings of the store. */
export interface PoolSettings {
  poolSize: number;
  statementTimeoutMs: number;
  connectTimeoutMs: number;
  /** `-c name=value` startup options (search_path). */
  options?: string;
}

const INT8 = 20;

/** int8 columns (epoch milliseconds, counts) as JS numbers; they stay below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 && format !== 'binary'
      ? (value: string) => Number(value)
      : pgDriver().types.getTypeParser(oid, format)) as NonNullable<
    PoolConfig['types']
  >['getTypeParser'],
};

/** The driver's pool configuration for one store. */
export function poolConfig(connection: PgConnection, settings: PoolSettings): PoolConfig {
  return {
    ...connection.client,
    max: settings.poolSize,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    allowExitOnIdle: true,
    keepAlive: true,
    statement_timeout: settings.statementTimeoutMs > 0 ? settings.statementTimeoutMs : false,
    idle_in_transaction_session_timeout: Math.max(60_000, settings.statementTimeoutMs * 2),
    types,
    ...(settings.options ? { options: settings.options } : {}),
  };
}
