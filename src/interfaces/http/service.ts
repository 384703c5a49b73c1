/**
 * The engram service process: the HTTP API and MCP over HTTP on @hono/node-server plus the job
 * worker, on one store. Refuses a non-loopback bind without tokens; shuts down gracefully (stop
 * accepting, let in-flight requests and streams finish within the grace period, close the MCP
 * sessions, stop the worker, close the store).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { serve } from '@hono/node-server';

import { createEngram, type Engram } from '../../app.js';
import { loadConfig } from '../../config/load.js';
import type { Config, ConfigInput } from '../../config/schema.js';
import { EngramError } from '../../domain/errors.js';
import { type Logger, stderrLogger } from '../../domain/log.js';
import type { Embedder } from '../../embed/embedder.js';
import type { JobWorker } from '../../jobs/worker.js';
import { McpHttpSessions } from '../mcp/http.js';
import { createHttpApp, InFlight } from './app.js';
import { isLoopback } from './auth.js';
import { type ServiceBackground, serviceBackground } from './background.js';
import { clientErrorHandler, serverTimeouts } from './client-errors.js';

type NodeServer = ReturnType<typeof serve> & Server;

/** Options of startHttpService. */
export interface HttpServiceOptions {
  /** A YAML configuration file (else `ENGRAM_CONFIG`, else defaults). */
  configFile?: string;
  /** Values that win over the file and the environment (e.g. `--port`). */
  config?: ConfigInput;
  env?: Record<string, string | undefined>;
  log?: Logger;
  /** An embedder instead of the configured one (tests). */
  embedder?: Embedder | null;
}

/** A running service. */
export interface HttpService {
  /** Base URL, e.g. `http://127.0.0.1:8765`. */
  url: string;
  engram: Engram;
  /** The job worker (stopped from the start when `worker.enabled` is false). */
  worker: JobWorker;
  /** Graceful shutdown; safe to call more than once. */
  close(): Promise<void>;
}

function refuseOpenBind({ host, tokens }: Config['server']): void {
  if (!isLoopback(host) && tokens.length === 0)
    throw new EngramError(
      'CONFIG_INVALID',
      `server.host ${host} is not a loopback address: configure server.tokens before serving beyond this machine`,
      { field: 'server.host', rule: 'loopback, or tokens configured' },
    );
}

/**
 * Why the server cannot listen: the address is taken (ADDRESS_IN_USE, its own exit code), or the
 * configuration names an address this machine cannot bind (CONFIG_INVALID).
 */
function listenError(err: NodeJS.ErrnoException, host: string, port: number): EngramError {
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (err.code === 'EADDRINUSE')
    return new EngramError(
      'ADDRESS_IN_USE',
      `address in use: another process already listens on ${where}; stop it, or serve elsewhere with \`engram serve --port <port>\` (or server.port)`,
      { field: 'server.port', rule: 'a free port', port },
    );
  return new EngramError(
    'CONFIG_INVALID',
    `cannot listen on ${where}: ${err.code ?? err.message}`,
    {
      field: err.code === 'EADDRNOTAVAIL' ? 'server.host' : 'server.port',
      rule: 'an address this machine can bind',
    },
  );
}

function listen(server: NodeServer, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => reject(listenError(err, host, port));
    server.once('error', onError);
    server.once('listening', () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

function urlOf(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Waits for `work`, at most `ms`; true when it finished in time. */
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const done = await Promise.race([work.then(() => true), timeout]);
  clearTimeout(timer);
  return done;
}

/** How long shutdown lets a running job reach its next checkpoint before closing the store. */
const WORKER_GRACE_MS = 5_000;

/** Starts the HTTP API and the job worker; resolves once it listens. */
export async function startHttpService(options: HttpServiceOptions = {}): Promise<HttpService> {
  const log = options.log ?? stderrLogger();
  // Checked before the store is opened: a refused start touches nothing.
  refuseOpenBind(
    loadConfig({ file: options.configFile, env: options.env, overrides: options.config }).server,
  );
  const engram = createEngram({
    configFile: options.configFile,
    config: options.config,
    env: options.env,
    embedder: options.embedder,
    logger: log,
    background: false,
  });
  const { server: settings } = engram.config;
  let background: ServiceBackground;
  try {
    background = serviceBackground(engram, log);
  } catch (err) {
    await engram.close();
    throw err;
  }
  const { worker } = background;
  const preparing = engram.prepareModels().catch((err: unknown) => {
    log.warn('embedder unavailable; recall runs on keywords only', { error: String(err) });
  });
  const inflight = new InFlight();
  const mcp = new McpHttpSessions(engram, { log, maxBodyBytes: settings.max_body_bytes });
  const app = createHttpApp(engram, {
    log,
    inflight,
    mcp,
    worker: background.enabled ? () => worker.state() : undefined,
  });
  const server = serve({
    fetch: app.fetch,
    hostname: settings.host,
    port: settings.port,
    serverOptions: serverTimeouts(settings),
  }) as NodeServer;
  // Requests the HTTP parser rejects (oversized headers, timeouts) get the JSON error envelope.
  server.on('clientError', clientErrorHandler(settings, log));
  let address: AddressInfo;
  try {
    address = await listen(server, settings.host, settings.port);
  } catch (err) {
    await preparing;
    await engram.close();
    throw err;
  }
  background.start();

  let closing: Promise<void> | undefined;
  const shutdown = async (): Promise<void> => {
    inflight.draining = true;
    const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    if (!(await within(inflight.idle(), settings.shutdown_grace_ms))) {
      log.warn(
        `shutdown: ${inflight.size} requests still running after the grace period; closing their connections`,
      );
      server.closeAllConnections();
      await within(inflight.idle(), 5_000);
    }
    // MCP sessions' GET streams never end on their own: close them so their connections can.
    await mcp.close();
    server.closeIdleConnections();
    await within(stopped, 1_000);
    // A running job stops at its next checkpoint and is queued again for the next worker.
    await background.stop(WORKER_GRACE_MS);
    await preparing;
    await engram.close();
  };
  return {
    url: urlOf(settings.host, address.port),
    engram,
    worker,
    close: () => (closing ??= shutdown()),
  };
}

/**
 * Runs the service until SIGTERM or SIGINT (`engram serve`, `npm start`): prints the URL on
 * stdout, then shuts down gracefully on the first signal.
 */
export async function runHttpService(options: HttpServiceOptions = {}): Promise<void> {
  const log = options.log ?? stderrLogger();
  const service = await startHttpService({ ...options, log });
  const { server } = service.engram.config;
  process.stdout.write(
    `engram HTTP API listening on ${service.url}/v1 (health: ${service.url}/v1/health, OpenAPI: ${service.url}/v1/openapi.json, MCP: ${service.url}/mcp)\n`,
  );
  const { store } = await service.engram.status();
  process.stderr.write(`engram: store ${store.backend} ${store.location}\n`);
  if (server.tokens.length === 0)
    process.stderr.write(
      'engram: no tokens configured: open to anyone who can reach this loopback address\n',
    );
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      process.stderr.write(`engram: ${signal}: finishing in-flight requests, then stopping\n`);
      resolve();
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  await service.close();
  process.stderr.write('engram: stopped\n');
}
