/**
 * The doctor's port check: whether `engram serve` can listen where the configuration says
 * (server.host, server.port). A port in use is fine when an engram service answers there.
 */
import { createServer } from 'node:net';

import type { Config } from '../../config/schema.js';
import { engramCommand } from './command-line.js';
import type { Check, DoctorContext, Finding } from './types.js';

/** How long the probe of a busy port waits for an engram health answer. */
const PROBE_MS = 1_500;

/** Tries to listen on host:port; resolves with the error code, or null when the port is free. */
function tryListen(host: string, port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(null)));
  });
}

/**
 * The version of the engram service answering at `url`, or undefined when none does. The timer is
 * a plain (referenced) one: a peer that drops the connection can leave fetch waiting with nothing
 * else keeping the process alive, and `AbortSignal.timeout` would not keep it alive either.
 */
async function engramVersion(url: string): Promise<string | undefined> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), PROBE_MS);
  try {
    const res = await fetch(`${url}/v1/health`, { signal: controller.signal });
    const body = (await res.json()) as { version?: unknown; components?: unknown };
    return typeof body.version === 'string' && body.components ? body.version : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

async function busyFinding(ctx: DoctorContext, server: Config['server']): Promise<Finding> {
  const url = urlOf(server.host, server.port);
  const version = await engramVersion(url);
  if (version !== undefined)
    return { status: 'ok', finding: `an engram service (${version}) already answers at ${url}` };
  return {
    status: 'warn',
    finding: `address in use: another program listens on ${server.host}:${server.port}, so engram serve would exit 11 there`,
    fix: `${engramCommand(ctx, `serve --port ${server.port + 1}`)}, or set server.port`,
    code: null,
  };
}

/** Checks the configured address of `engram serve`. */
export const portCheck: Check = async (ctx) => {
  const server = ctx.config!.server;
  const details = { host: server.host, port: server.port };
  if (server.port === 0)
    return { status: 'ok', finding: 'server.port 0: engram serve takes any free port', details };
  const error = await tryListen(server.host, server.port);
  if (error === null)
    return {
      status: 'ok',
      finding: `${server.host}:${server.port} is free for engram serve`,
      details,
    };
  if (error === 'EADDRINUSE') return { ...(await busyFinding(ctx, server)), details };
  return {
    status: 'warn',
    finding: `engram serve cannot listen on ${server.host}:${server.port} (${error}${error === 'EACCES' ? ': ports below 1024 need privileges' : ''})`,
    fix: 'set server.host to an address of this machine and server.port to a port above 1024',
    details,
  };
};
