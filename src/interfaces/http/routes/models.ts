/**
 * Embedding-model transitions over HTTP (§8): the models' status, choosing a model, rollback and
 * prune change what recall uses for every space, so only an admin token of every space may use
 * `/v1/models`. `/v1/embedder` follows the status route's rule: any token of the space sees its
 * pending items, failures and providers; the live queue (all spaces together) only an admin of
 * every space.
 */
import { createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';

import { spaceSchema } from '../../../domain/input.js';
import { parseWith } from '../../../domain/zod.js';
import type { EmbedderStatus, UseModelResult } from '../../../service/transitions.js';
import { ErrorBodySchema } from '../../responses/errors.js';
import { authorize, authorizeStoreWide, type Principal } from '../auth.js';
import type { HttpEnv } from '../env.js';
import {
  EmbedderQuery,
  EmbedderStatusSchema,
  ModelsStatusSchema,
  PruneResultSchema,
  UseModelBody,
  UseModelResultSchema,
} from '../model-schemas.js';
import { ERRORS, type HttpApp, jsonBody, jsonContent, type RouteDeps } from './common.js';

const TAGS = ['models'];
const BASE = '/v1/models';

/** Lets in only an admin token of every space (before any body is read). */
const adminOfEverySpace: MiddlewareHandler<HttpEnv> = async (c, next) => {
  authorizeStoreWide(c.get('principal'), 'admin');
  await next();
};

const MODEL_ERRORS = {
  ...ERRORS,
  403: jsonContent(ErrorBodySchema, 'Not an admin token of every space (FORBIDDEN).'),
  404: jsonContent(ErrorBodySchema, 'No model was published before this one (NOT_FOUND).'),
  409: jsonContent(
    ErrorBodySchema,
    "The previous model's vectors were pruned (rollback), or the store keeps no model records (CONFLICT).",
  ),
  503: jsonContent(
    ErrorBodySchema,
    'The chosen model cannot be loaded here (EMBEDDER_UNAVAILABLE), or the store cannot serve the request (STORE_*).',
  ),
};

/** Declares a models route: admin of every space first, then the body parser when it reads one. */
function modelRoute<
  P extends string,
  R extends Omit<RouteConfig, 'path' | 'middleware'> & { path: P },
>(config: R, json?: MiddlewareHandler<HttpEnv>) {
  const middleware = json ? [adminOfEverySpace, json] : [adminOfEverySpace];
  return createRoute({
    ...config,
    tags: TAGS,
    middleware,
    responses: { ...config.responses, ...MODEL_ERRORS },
  });
}

const CHANGE_RESPONSES = {
  200: jsonContent(
    UseModelResultSchema,
    'Nothing to rebuild: `published` (a swap), `cancelled` or `unchanged`',
  ),
  202: jsonContent(
    UseModelResultSchema,
    'A rebuild runs in the background: `started` or `running`, with its job',
  ),
};

/** Answers a model change: 202 while a rebuild runs in the background, else 200. */
function changeReply(c: Context<HttpEnv>, result: UseModelResult) {
  const rebuilding = result.action === 'started' || result.action === 'running';
  return rebuilding ? c.json(result, 202) : c.json(result, 200);
}

function registerStatus(app: HttpApp, { engram }: RouteDeps): void {
  const route = modelRoute({
    method: 'get',
    path: BASE,
    summary: 'The published model, a running transition (coverage, job, rate, ETA) and standbys',
    responses: { 200: jsonContent(ModelsStatusSchema, 'The models of the store') },
  });
  app.openapi(route, async (c) => c.json(await engram.modelsStatus(), 200));
}

function registerUse(app: HttpApp, { engram, json }: RouteDeps): void {
  const route = modelRoute(
    {
      method: 'post',
      path: `${BASE}/use`,
      summary: 'Move the store to another embedding model',
      description:
        'Loads the model first (a wrong folder, URL or key fails here). A new model starts a background rebuild (202) while recall stays on the published model; a model whose vectors are complete is published at once; the published model cancels a running transition.',
      request: { body: jsonBody(UseModelBody) },
      responses: CHANGE_RESPONSES,
    },
    json,
  );
  app.openapi(route, async (c) => changeReply(c, await engram.useModel(c.req.valid('json'))));
}

function registerRollback(app: HttpApp, { engram }: RouteDeps): void {
  const route = modelRoute({
    method: 'post',
    path: `${BASE}/rollback`,
    summary: 'Publish the previous model again',
    description:
      "A swap while the previous model's vectors are kept (202 when items changed since and a catch-up rebuild runs first); 409 after they were pruned, 404 when no model was published before.",
    responses: CHANGE_RESPONSES,
  });
  app.openapi(route, async (c) => changeReply(c, await engram.rollbackModel()));
}

function registerPrune(app: HttpApp, { engram }: RouteDeps): void {
  const route = modelRoute({
    method: 'post',
    path: `${BASE}/prune`,
    summary: 'Delete the vectors of standby models (a rollback to them becomes a rebuild)',
    responses: { 200: jsonContent(PruneResultSchema, 'The pruned models and vectors') },
  });
  app.openapi(route, async (c) => c.json(await engram.pruneModels(), 200));
}

/**
 * Route middleware of `/v1/embedder`: the `space` query (default: the configured space) with the
 * read role, checked before anything else, as `access` does for `/v1/spaces/{space}` routes.
 */
function embedderAccess(defaultSpace: string): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const asked = c.req.query('space');
    const space = asked === undefined ? defaultSpace : parseWith(spaceSchema, asked, 'space');
    authorize(c.get('principal'), space, 'read');
    c.set('space', space);
    await next();
  };
}

/** Whether the caller may see the live queue (every space's work): an admin of every space. */
function storeWideVisible(principal: Principal): boolean {
  return principal.spaces === '*' && principal.role === 'admin';
}

/** The embedder status without the live queue (see storeWideVisible). */
function withoutQueue(status: EmbedderStatus): Omit<EmbedderStatus, 'queue'> {
  const { queue: _queue, ...rest } = status;
  return rest;
}

function registerEmbedder(app: HttpApp, { engram }: RouteDeps): void {
  const route = createRoute({
    method: 'get',
    path: '/v1/embedder',
    tags: TAGS,
    summary: 'Embedder status: live queue, vector-pending items, failures with reasons, providers',
    description:
      "`pending` and `failures` are the space's (`space`, default the configured one; read role). The live queue, a fact about every space together, only for an admin token of every space.",
    middleware: [embedderAccess(engram.config.space)] as const,
    request: { query: EmbedderQuery },
    responses: { 200: jsonContent(EmbedderStatusSchema, 'The embedder status'), ...ERRORS },
  });
  app.openapi(route, async (c) => {
    const status = await engram.embedderStatus({
      space: c.get('space'),
      limit: c.req.valid('query').limit,
    });
    return c.json(storeWideVisible(c.get('principal')) ? status : withoutQueue(status), 200);
  });
}

/** Registers the model-transition routes and the embedder status. */
export function registerModelRoutes(app: HttpApp, deps: RouteDeps): void {
  registerStatus(app, deps);
  registerUse(app, deps);
  registerRollback(app, deps);
  registerPrune(app, deps);
  registerEmbedder(app, deps);
}
