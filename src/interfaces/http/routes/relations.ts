/** Relation routes of one memory: list, relate, and invalidate (kept in history). */
import { RelationsResultSchema } from '../../responses/memories.js';
import { IdParams, RelationParams } from '../schemas.js';
import {
  changeOptions,
  type HttpApp,
  jsonBody,
  jsonContent,
  type RouteDeps,
  spaceRoute,
} from './common.js';

const TAGS = ['relations'];
const BASE = '/v1/spaces/{space}/memories/{id}/relations';

function registerList(app: HttpApp, { engram }: RouteDeps): void {
  const route = spaceRoute('read', {
    method: 'get',
    path: BASE,
    tags: TAGS,
    summary: 'Relations from and to a memory, live and invalidated',
    request: { params: IdParams },
    responses: { 200: jsonContent(RelationsResultSchema, 'The relations') },
  });
  app.openapi(route, async (c) => {
    const relations = await engram.relations(c.req.valid('param').id, { space: c.get('space') });
    return c.json({ relations }, 200);
  });
}

function registerRelate(app: HttpApp, { engram, schemas, json }: RouteDeps): void {
  const route = spaceRoute('write', json, {
    method: 'post',
    path: BASE,
    tags: TAGS,
    summary: 'Relate this memory to another (related or derived_from)',
    request: { params: IdParams, body: jsonBody(schemas.relate) },
    responses: {
      201: jsonContent(RelationsResultSchema, 'The live relations from this memory to to_id'),
    },
  });
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const relations = await engram.relate(c.req.valid('param').id, body.to_id, {
      ...changeOptions(c, body),
      type: body.type,
    });
    return c.json({ relations }, 201);
  });
}

function registerUnrelate(app: HttpApp, { engram, schemas }: RouteDeps): void {
  const route = spaceRoute('write', {
    method: 'delete',
    path: `${BASE}/{to_id}`,
    tags: TAGS,
    summary: 'Invalidate the relations from this memory to to_id',
    description:
      'Relations are never deleted: they get an invalidation time and reason. Without `type`, every live type is invalidated.',
    request: { params: RelationParams, query: schemas.unrelateQuery },
    responses: {
      200: jsonContent(RelationsResultSchema, 'All relations of this memory'),
    },
  });
  app.openapi(route, async (c) => {
    const { id, to_id } = c.req.valid('param');
    const query = c.req.valid('query');
    await engram.unrelate(id, to_id, { ...changeOptions(c, query), type: query.type });
    return c.json({ relations: await engram.relations(id, { space: c.get('space') }) }, 200);
  });
}

/** Registers the relation routes. */
export function registerRelationRoutes(app: HttpApp, deps: RouteDeps): void {
  registerList(app, deps);
  registerRelate(app, deps);
  registerUnrelate(app, deps);
}
