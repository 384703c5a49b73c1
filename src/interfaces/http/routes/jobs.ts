/**
 * Background jobs over HTTP (§11): the activity view or a listing, one job, retry and cancel, and
 * making failed items due again. Jobs concern the whole store, so only an admin token of every
 * space may use them.
 */
import { createRoute, type RouteConfig, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';

import { spaceSchema } from '../../../domain/input.js';
import { JOB_KINDS, JOB_STATES } from '../../../domain/jobs.js';
import { ErrorBodySchema } from '../../responses/errors.js';
import {
  ItemRetryResultSchema,
  JobActivitySchema,
  JobPageSchema,
  JobSchema,
} from '../../responses/jobs.js';
import { authorizeStoreWide } from '../auth.js';
import type { HttpEnv } from '../env.js';
import { listParam } from '../schemas.js';
import { ERRORS, type HttpApp, jsonContent, optionalJsonBody, type RouteDeps } from './common.js';

const TAGS = ['jobs'];
const BASE = '/v1/jobs';

const JobParams = z.object({ id: z.string().min(1).max(200) });
const JobsQuery = z.strictObject({
  state: listParam(z.enum(JOB_STATES)),
  kind: listParam(z.enum(JOB_KINDS)),
  space: spaceSchema.optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  cursor: z.string().max(500).optional(),
});
const ItemRetryBody = z.strictObject({
  space: spaceSchema.optional(),
  ids: z.array(z.string().min(1).max(200)).min(1).max(1000).optional(),
});

/** Lets in only an admin token of every space (before any body is read). */
const adminOfEverySpace: MiddlewareHandler<HttpEnv> = async (c, next) => {
  authorizeStoreWide(c.get('principal'), 'admin');
  await next();
};

const JOB_ERRORS = {
  ...ERRORS,
  403: jsonContent(ErrorBodySchema, 'Not an admin token of every space (FORBIDDEN).'),
  404: jsonContent(ErrorBodySchema, 'No such job (NOT_FOUND).'),
  409: jsonContent(
    ErrorBodySchema,
    'The job is not in a state this allows, or the store keeps no jobs (CONFLICT).',
  ),
};

/** Declares a jobs route: admin of every space first, then the body parser when it reads one. */
function jobRoute<
  P extends string,
  R extends Omit<RouteConfig, 'path' | 'middleware'> & { path: P },
>(config: R, json?: MiddlewareHandler<HttpEnv>) {
  const middleware = json ? [adminOfEverySpace, json] : [adminOfEverySpace];
  return createRoute({
    ...config,
    tags: TAGS,
    middleware,
    responses: { ...config.responses, ...JOB_ERRORS },
  });
}

function registerActivity(app: HttpApp, { engram }: RouteDeps): void {
  const route = jobRoute({
    method: 'get',
    path: BASE,
    summary: 'Job activity: counts, running and queued jobs, grouped failures (or a listing)',
    description:
      'Without `state`, `kind`, `limit` or `cursor`: the activity view (JobActivity). With any of them: the matching jobs, newest first (JobPage). `space` keeps jobs of that space and jobs over the whole store.',
    request: { query: JobsQuery },
    responses: {
      200: jsonContent(
        z.union([JobActivitySchema, JobPageSchema]),
        'The activity view, or a page of jobs',
      ),
    },
  });
  app.openapi(route, async (c) => {
    const q = c.req.valid('query');
    const listing = [q.state, q.kind, q.limit, q.cursor].some((v) => v !== undefined);
    if (!listing) return c.json(await engram.jobActivity({ space: q.space }), 200);
    const page = await engram.jobs({
      states: q.state,
      kinds: q.kind,
      space: q.space,
      limit: q.limit,
      cursor: q.cursor,
    });
    return c.json(page, 200);
  });
}

function registerItemRetry(app: HttpApp, { engram, json }: RouteDeps): void {
  const route = jobRoute(
    {
      method: 'post',
      path: `${BASE}/items/retry`,
      summary: 'Make failed items due again (all, of a space, or these item ids)',
      request: { body: optionalJsonBody(ItemRetryBody) },
      responses: { 200: jsonContent(ItemRetryResultSchema, 'How many items are due again') },
    },
    json,
  );
  app.openapi(route, async (c) => {
    const body = c.req.valid('json') ?? {};
    return c.json({ retried: await engram.retryItemFailures(body) }, 200);
  });
}

function registerJob(app: HttpApp, { engram }: RouteDeps): void {
  const show = jobRoute({
    method: 'get',
    path: `${BASE}/{id}`,
    summary: 'One job, with its age, run duration and progress',
    request: { params: JobParams },
    responses: { 200: jsonContent(JobSchema, 'The job') },
  });
  app.openapi(show, async (c) => c.json(await engram.job(c.req.valid('param').id), 200));
  const retry = jobRoute({
    method: 'post',
    path: `${BASE}/{id}/retry`,
    summary: 'Queue a failed or cancelled job again, with a fresh attempt budget',
    request: { params: JobParams },
    responses: { 200: jsonContent(JobSchema, 'The job, queued') },
  });
  app.openapi(retry, async (c) => c.json(await engram.retryJob(c.req.valid('param').id), 200));
  const cancel = jobRoute({
    method: 'post',
    path: `${BASE}/{id}/cancel`,
    summary: 'Cancel a queued job; ask a running one to stop at its next checkpoint',
    request: { params: JobParams },
    responses: { 200: jsonContent(JobSchema, 'The job, cancelled or asked to stop') },
  });
  app.openapi(cancel, async (c) => c.json(await engram.cancelJob(c.req.valid('param').id), 200));
}

/** Registers the jobs routes (`/v1/jobs/items/retry` before `/v1/jobs/{id}/...`). */
export function registerJobRoutes(app: HttpApp, deps: RouteDeps): void {
  registerActivity(app, deps);
  registerItemRetry(app, deps);
  registerJob(app, deps);
}
