/** Recall and status of a space. */
import { createRoute } from '@hono/zod-openapi';

import { RecallResponseSchema } from '../../responses/recall.js';
import { StatusSchema } from '../../responses/status.js';
import { statusFor } from '../../status-scope.js';
import { SpaceParams } from '../schemas.js';
import { access, ERRORS, type HttpApp, jsonBody, jsonContent, type RouteDeps } from './common.js';

function registerRecall(app: HttpApp, { engram, schemas, json }: RouteDeps): void {
  const route = createRoute({
    method: 'post',
    path: '/v1/spaces/{space}/recall',
    tags: ['recall'],
    summary: 'Hybrid recall (keyword + vector, fused)',
    description:
      'Returns the recall envelope: hits with per-channel ranks, `degraded` channels with reasons, the decision stage and timings. Records access for returned hits only.',
    middleware: [access('read'), json] as const,
    request: { params: SpaceParams, body: jsonBody(schemas.recall) },
    responses: { 200: jsonContent(RecallResponseSchema, 'The recall envelope'), ...ERRORS },
  });
  app.openapi(route, async (c) =>
    c.json(await engram.recall({ ...c.req.valid('json'), space: c.get('space') }), 200),
  );
}

function registerStatus(app: HttpApp, { engram }: RouteDeps): void {
  const route = createRoute({
    method: 'get',
    path: '/v1/spaces/{space}/status',
    tags: ['status'],
    summary: 'Counts, vectors, embedder and published model of a space',
    description:
      "The space's counts for any token of the space; where the store lives, its size, the vector index and the embedding queue (facts about every space together) only for an admin token of every space.",
    middleware: [access('read')] as const,
    request: { params: SpaceParams },
    responses: { 200: jsonContent(StatusSchema, 'The status'), ...ERRORS },
  });
  app.openapi(route, async (c) => {
    const status = await engram.status({ space: c.get('space') });
    return c.json(statusFor(c.get('principal'), status), 200);
  });
}

/** Registers recall and status. */
export function registerRecallRoutes(app: HttpApp, deps: RouteDeps): void {
  registerRecall(app, deps);
  registerStatus(app, deps);
}
