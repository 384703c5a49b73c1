/**
 * The HTTP app: Hono with @hono/zod-openapi. Middleware gives each request an id, counts it for
 * graceful shutdown, applies CORS (only when configured) and authenticates space, job, model and
 * embedder routes and `/mcp` (MCP over HTTP); one error handler maps every failure. Routes are
 * thin calls into the engram service.
 */
import { randomUUID } from 'node:crypto';

import { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';

import type { Engram } from '../../app.js';
import { EngramError } from '../../domain/errors.js';
import { inputSchemas } from '../../domain/input.js';
import { type Logger, stderrLogger } from '../../domain/log.js';
import { fromZodError } from '../../domain/zod.js';
import type { WorkerState } from '../../jobs/worker.js';
import { McpHttpSessions } from '../mcp/http.js';
import { ENGRAM_VERSION } from '../version.js';
import { TokenVerifier } from './auth.js';
import { parseJsonBody } from './body.js';
import { consoleDir, registerConsole } from './console.js';
import type { HttpEnv } from './env.js';
import { errorResponse } from './errors.js';
import { registerAreaRoutes } from './routes/areas.js';
import { registerChangeRoutes } from './routes/changes.js';
import type { HttpApp, RouteDeps } from './routes/common.js';
import { registerDormantRoutes } from './routes/dormant.js';
import { registerDreamRoutes } from './routes/dreams.js';
import { registerGraphRoutes } from './routes/graph.js';
import { registerInsightRoutes } from './routes/insights.js';
import { registerJobRoutes } from './routes/jobs.js';
import { registerLifecycleRoutes } from './routes/lifecycle.js';
import { MCP_PATH, registerMcpRoute } from './routes/mcp.js';
import { registerMeRoute } from './routes/me.js';
import { registerMemoryRoutes } from './routes/memories.js';
import { registerModelRoutes } from './routes/models.js';
import { registerRecallRoutes } from './routes/recall.js';
import { registerRelationRoutes } from './routes/relations.js';
import { registerSessionRoutes } from './routes/sessions.js';
import { registerSettingsRoutes } from './routes/settings.js';
import { registerSystemRoutes } from './routes/system.js';
import { registerTransferRoutes } from './routes/transfer.js';
import { requestSchemas } from './schemas.js';
import { HttpWriteSessions, SESSION_HEADER } from './write-sessions.js';

/** Requests and streams in flight, so shutdown can wait for them. */
export class InFlight {
  private count = 0;
  private waiters: (() => void)[] = [];
  /** Set when shutting down: responses then close their connection. */
  draining = false;

  /** Counts `work` as in flight until it settles. */
  track<T>(work: Promise<T>): Promise<T> {
    this.count++;
    return work.finally(() => {
      if (--this.count === 0) for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Requests and streams not finished yet. */
  get size(): number {
    return this.count;
  }

  /** Resolves when nothing is in flight. */
  idle(): Promise<void> {
    return this.count === 0 ? Promise.resolve() : new Promise((r) => this.waiters.push(r));
  }
}

/** Options of createHttpApp. */
export interface HttpAppOptions {
  log?: Logger;
  /** State of this process's job worker, for /v1/health (absent: the process runs none). */
  worker?: () => WorkerState;
  inflight?: InFlight;
  startedAt?: number;
  /** The built web console to serve at `/` (default: `dist/web` of the package; null: none built). */
  consoleDir?: string | null;
  /**
   * The MCP sessions served at `/mcp` (default: a new set; whoever closes the server should close
   * it, as startHttpService does).
   */
  mcp?: McpHttpSessions;
}

function useCommonMiddleware(app: HttpApp, engram: Engram, inflight: InFlight): void {
  app.use('*', async (c, next) => {
    const id = randomUUID();
    c.set('requestId', id);
    await inflight.track(next());
    c.header('X-Request-Id', id);
    // The console's assets set their own caching; every API answer is never cached.
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
    c.header('X-Content-Type-Options', 'nosniff');
    if (inflight.draining) c.header('Connection', 'close');
  });
  const { origins, max_age_s } = engram.config.server.cors;
  if (origins.length > 0)
    app.use(
      '/v1/*',
      cors({
        origin: origins.includes('*') ? '*' : [...origins],
        allowMethods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
        allowHeaders: ['Authorization', 'Content-Type', SESSION_HEADER],
        exposeHeaders: ['X-Request-Id'],
        maxAge: max_age_s,
      }),
    );
  if (origins.length > 0)
    app.use(
      MCP_PATH,
      cors({
        origin: origins.includes('*') ? '*' : [...origins],
        allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
        allowHeaders: [
          'Authorization',
          'Content-Type',
          'Mcp-Session-Id',
          'Mcp-Protocol-Version',
          'Last-Event-ID',
        ],
        exposeHeaders: ['Mcp-Session-Id', 'X-Request-Id'],
        maxAge: max_age_s,
      }),
    );
  const verifier = new TokenVerifier(engram.config.server.tokens);
  const authenticate: MiddlewareHandler<HttpEnv> = async (c, next) => {
    c.set('principal', verifier.verify(c.req.header('authorization')));
    await next();
  };
  app.use('/v1/spaces/*', authenticate);
  app.use('/v1/jobs', authenticate);
  app.use('/v1/jobs/*', authenticate);
  app.use('/v1/models', authenticate);
  app.use('/v1/models/*', authenticate);
  app.use('/v1/embedder', authenticate);
  app.use('/v1/me', authenticate);
  app.use(MCP_PATH, authenticate);
}

/** Builds the HTTP app over one engram. */
export function createHttpApp(engram: Engram, options: HttpAppOptions = {}): OpenAPIHono<HttpEnv> {
  const log = options.log ?? stderrLogger();
  const inflight = options.inflight ?? new InFlight();
  const app: HttpApp = new OpenAPIHono<HttpEnv>({
    defaultHook: (result) => {
      if (!result.success) throw fromZodError(result.error);
    },
  });
  app.onError((err, c) => errorResponse(c, err, log));
  app.notFound((c) =>
    errorResponse(
      c,
      new EngramError('NOT_FOUND', `no route ${c.req.method} ${c.req.path}`, {
        rule: 'see /v1/openapi.json',
      }),
      log,
    ),
  );
  useCommonMiddleware(app, engram, inflight);
  const server = engram.config.server;
  const deps: RouteDeps = {
    engram,
    schemas: requestSchemas(inputSchemas(engram.config)),
    json: parseJsonBody(server.max_body_bytes),
    limits: {
      maxImportBytes: server.max_import_bytes,
      maxImportLineBytes: server.max_import_line_bytes,
    },
    track: (work) => inflight.track(work),
    sessions: new HttpWriteSessions(engram),
  };
  registerSystemRoutes(app, deps, {
    version: ENGRAM_VERSION,
    startedAt: options.startedAt ?? Date.now(),
    authRequired: server.tokens.length > 0,
    worker: options.worker,
  });
  registerMemoryRoutes(app, deps);
  registerChangeRoutes(app, deps);
  registerRelationRoutes(app, deps);
  registerRecallRoutes(app, deps);
  registerTransferRoutes(app, deps, log);
  registerLifecycleRoutes(app, deps);
  registerDormantRoutes(app, deps);
  registerJobRoutes(app, deps);
  registerModelRoutes(app, deps);
  registerSessionRoutes(app, deps);
  registerDreamRoutes(app, deps);
  registerAreaRoutes(app, deps);
  registerGraphRoutes(app, deps);
  registerInsightRoutes(app, deps);
  registerSettingsRoutes(app, deps);
  registerMeRoute(app, deps, server.tokens.length > 0);
  const mcp =
    options.mcp ?? new McpHttpSessions(engram, { log, maxBodyBytes: server.max_body_bytes });
  registerMcpRoute(app, deps, mcp);
  if (server.console) registerConsole(app, options.consoleDir ?? consoleDir(), log);
  return app;
}
