/**
 * Consolidation over HTTP (§10, §13) under `/v1/spaces/{space}/dream`: the preview (read-only), a
 * run now (admin, as maintenance is), the runs and their diaries, undo (admin) and the duplicate
 * calibration. Each handler is one engram service call in the path's space.
 */
import { createRoute, type RouteConfig, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';

import { dreamListSchema, dreamRequestSchema } from '../../../domain/dream-input.js';
import { DREAM_STAGES } from '../../../domain/dreams.js';
import { idSchema, spaceSchema } from '../../../domain/input.js';
import {
  DreamCalibrationSchema,
  DreamDiarySchema,
  DreamPreviewSchema,
  DreamRunPageSchema,
  DreamUndoReportSchema,
} from '../../responses/dreams.js';
import { ErrorBodySchema } from '../../responses/errors.js';
import type { Role } from '../auth.js';
import type { HttpEnv } from '../env.js';
import { listParam, SpaceParams } from '../schemas.js';
import {
  access,
  ERRORS,
  type HttpApp,
  jsonContent,
  optionalJsonBody,
  type RouteDeps,
} from './common.js';

const TAGS = ['dream'];
const BASE = '/v1/spaces/{space}/dream';

const DREAM_ERRORS = {
  ...ERRORS,
  404: jsonContent(ErrorBodySchema, 'No such dream run in this space, or none yet (NOT_FOUND).'),
  409: jsonContent(ErrorBodySchema, 'The run is still running, or was undone already (CONFLICT).'),
  503: jsonContent(
    ErrorBodySchema,
    'This store keeps no dream runs, or cannot serve the request (STORE_UNAVAILABLE, STORE_BUSY...).',
  ),
};

/** `/v1/spaces/{space}/dream/runs/{id}` path parameters. */
const RunParams = z.object({ space: spaceSchema, id: idSchema });

const stage = z.enum(DREAM_STAGES, { message: `must be one of ${DREAM_STAGES.join(', ')}` });

const PreviewQuery = z.strictObject({
  stages: listParam(stage).openapi({
    description: 'Stages to look at, repeated or comma-separated (default: all, in run order).',
  }),
});

const RunBody = dreamRequestSchema.pick({ stages: true, dry_run: true }).openapi('DreamRunBody');

const ListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  cursor: dreamListSchema.shape.cursor,
});

/**
 * Declares a dream route: `access(role)` first, then the body parser when it reads one, and after
 * its own responses the errors of a space route, with consolidation's own 404, 409 and 503.
 */
function dreamRoute<
  P extends string,
  R extends Omit<RouteConfig, 'path' | 'middleware'> & { path: P },
>(role: Role, config: R, json?: MiddlewareHandler<HttpEnv>) {
  const middleware = json ? [access(role), json] : [access(role)];
  return createRoute({
    ...config,
    tags: TAGS,
    middleware,
    responses: { ...config.responses, ...DREAM_ERRORS },
  });
}

function registerPreview(app: HttpApp, { engram }: RouteDeps): void {
  const route = dreamRoute('read', {
    method: 'get',
    path: `${BASE}/preview`,
    summary: 'What a dream run would do now, stage by stage (read-only)',
    description:
      'Proposals with their action, item ids, reason, scores and areas; a stage a run would skip says why (`off`). Computing it writes nothing.',
    request: { params: SpaceParams, query: PreviewQuery },
    responses: { 200: jsonContent(DreamPreviewSchema, 'The preview') },
  });
  app.openapi(route, async (c) =>
    c.json(
      await engram.dreamPreview({ space: c.get('space'), stages: c.req.valid('query').stages }),
      200,
    ),
  );
}

function registerRun(app: HttpApp, { engram, json }: RouteDeps): void {
  const route = dreamRoute(
    'admin',
    {
      method: 'post',
      path: `${BASE}/runs`,
      summary: 'Run consolidation now and return its diary (admin)',
      description:
        'Runs the stages (default: all) within `dream.deadline_minutes` and answers with the run and its diary once it ends. `dry_run` logs the proposals and changes no memory. Only `state: completed` is success: a run `cut_short` or `failed` answers 200 too, with what it logged and why (`reason`); every applied change can be undone.',
      request: { params: SpaceParams, body: optionalJsonBody(RunBody) },
      responses: { 200: jsonContent(DreamDiarySchema, 'The run, as it ended, with its diary') },
    },
    json,
  );
  app.openapi(route, async (c) =>
    c.json(await engram.dreamRun({ ...c.req.valid('json'), space: c.get('space') }), 200),
  );
}

function registerRuns(app: HttpApp, { engram }: RouteDeps): void {
  const route = dreamRoute('read', {
    method: 'get',
    path: `${BASE}/runs`,
    summary: 'Dream runs of the space, newest first',
    description:
      'At most `limit` (1..1000, default 20) runs. Pass `next_cursor` as `cursor` for the next page.',
    request: { params: SpaceParams, query: ListQuery },
    responses: { 200: jsonContent(DreamRunPageSchema, 'One page') },
  });
  app.openapi(route, async (c) =>
    c.json(await engram.dreamRuns({ ...c.req.valid('query'), space: c.get('space') }), 200),
  );
}

function registerDiary(app: HttpApp, { engram }: RouteDeps): void {
  const route = dreamRoute('read', {
    method: 'get',
    path: `${BASE}/runs/{id}`,
    summary: 'One dream run with its diary',
    request: { params: RunParams },
    responses: { 200: jsonContent(DreamDiarySchema, 'The run and its diary entries') },
  });
  app.openapi(route, async (c) =>
    c.json(await engram.dreamDiary(c.req.valid('param').id, { space: c.get('space') }), 200),
  );
}

function registerUndo(app: HttpApp, { engram }: RouteDeps): void {
  const route = dreamRoute('admin', {
    method: 'post',
    path: `${BASE}/runs/{id}/undo`,
    summary: 'Undo a dream run (admin)',
    description:
      'Restores everything the run changed that nothing has changed since, in reverse order; `not_restored` says what it could not restore and why. A run is undone once: again is 409.',
    request: { params: RunParams },
    responses: { 200: jsonContent(DreamUndoReportSchema, 'What was restored, and what not') },
  });
  app.openapi(route, async (c) =>
    c.json(await engram.dreamUndo(c.req.valid('param').id, { space: c.get('space') }), 200),
  );
}

function registerCalibrate(app: HttpApp, { engram }: RouteDeps): void {
  const route = dreamRoute('read', {
    method: 'get',
    path: `${BASE}/calibrate`,
    summary: 'Near-duplicate score distributions, to tune dream.duplicates (read-only)',
    description:
      "Each item's closest candidate's similarity and text overlap, their percentiles, and how many merges each threshold pair would make (the configured pair first).",
    request: { params: SpaceParams },
    responses: { 200: jsonContent(DreamCalibrationSchema, 'The calibration report') },
  });
  app.openapi(route, async (c) =>
    c.json(await engram.dreamCalibrate({ space: c.get('space') }), 200),
  );
}

/** Registers the consolidation routes. */
export function registerDreamRoutes(app: HttpApp, deps: RouteDeps): void {
  registerPreview(app, deps);
  registerRun(app, deps);
  registerRuns(app, deps);
  registerDiary(app, deps);
  registerUndo(app, deps);
  registerCalibrate(app, deps);
}
