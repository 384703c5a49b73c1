/**
 * The knowledge graph over HTTP (§4) under `/v1/spaces/{space}/graph`: stats, the top entities,
 * the hub report, an entity's neighbourhood and the memories naming an entity. All read-only
 * (role read); each handler is one engram service call in the path's space. Query parameters are
 * parsed here (text to numbers) with the service's own rules, so a bad value is 400 naming it.
 */
import { z } from '@hono/zod-openapi';

import { GRAPH_MAX_DEPTH } from '../../../config/schema.js';
import { ENTITY_TYPES } from '../../../domain/graph.js';
import { neighborsInput } from '../../../graph/graph-api.js';
import {
  GraphEntityListSchema,
  GraphHubReportSchema,
  GraphMentionsSchema,
  GraphNeighborsSchema,
  GraphStatsSchema,
} from '../../responses/graph.js';
import { SpaceParams } from '../schemas.js';
import { type HttpApp, jsonContent, type RouteDeps, spaceRoute } from './common.js';

const TAGS = ['graph'];
const BASE = '/v1/spaces/{space}/graph';

/** An integer query parameter between `min` and `max`, with the rule named in each message. */
function intParam(min: number, max: number, description: string) {
  const rule = `must be an integer between ${min} and ${max}`;
  return z.coerce
    .number({ message: rule })
    .int(rule)
    .min(min, rule)
    .max(max, rule)
    .optional()
    .openapi({ description });
}

const entityParam = neighborsInput.shape.entity.meta({
  description: 'The entity: its name, an alias or its key (as `graph entities` lists them).',
});

const EntitiesQuery = z.strictObject({
  top: intParam(1, 10_000, 'How many entities (default 20).'),
  by: z
    .enum(['mentions', 'degree'], { message: 'must be mentions or degree' })
    .optional()
    .openapi({ description: 'Order: most mentioned (default) or most connected.' }),
  type: z
    .enum(ENTITY_TYPES, { message: `must be one of ${ENTITY_TYPES.join(', ')}` })
    .optional()
    .openapi({ description: 'Only entities of this type.' }),
});

const HubsQuery = z.strictObject({
  limit: intParam(1, 50, 'Hubs reported at most (default 10).'),
});

const NeighborsQuery = z.strictObject({
  entity: entityParam,
  depth: intParam(1, GRAPH_MAX_DEPTH, 'Entity edges to follow (default 1).'),
  limit: intParam(1, 1000, 'Neighbours at most (default 50).'),
});

const MentionsQuery = z.strictObject({
  entity: entityParam,
  limit: intParam(1, 100, 'Memories at most (default 20).'),
});

function registerStats(app: HttpApp, { engram }: RouteDeps): void {
  const route = spaceRoute('read', {
    method: 'get',
    path: BASE,
    tags: TAGS,
    summary: "Counts, stale memories and top hubs of the space's knowledge graph",
    description:
      '`enabled: false` means graph.enabled is off in the configuration: nothing new is extracted. A store without a graph is 503 STORE_UNAVAILABLE.',
    request: { params: SpaceParams },
    responses: { 200: jsonContent(GraphStatsSchema, 'The graph stats') },
  });
  app.openapi(route, async (c) => c.json(await engram.graphStats({ space: c.get('space') }), 200));
}

function registerEntities(app: HttpApp, { engram }: RouteDeps): void {
  const route = spaceRoute('read', {
    method: 'get',
    path: `${BASE}/entities`,
    tags: TAGS,
    summary: 'The most mentioned (or most connected) entities',
    request: { params: SpaceParams, query: EntitiesQuery },
    responses: { 200: jsonContent(GraphEntityListSchema, 'The entities, best first') },
  });
  app.openapi(route, async (c) =>
    c.json(
      { entities: await engram.graphEntities({ ...c.req.valid('query'), space: c.get('space') }) },
      200,
    ),
  );
}

function registerHubs(app: HttpApp, { engram }: RouteDeps): void {
  const route = spaceRoute('read', {
    method: 'get',
    path: `${BASE}/hubs`,
    tags: TAGS,
    summary: 'The hub report: congested entities, their cause, cluster suggestions, anchors',
    description: 'Read-only: it suggests sub-topics and lists existing anchors, never a change.',
    request: { params: SpaceParams, query: HubsQuery },
    responses: { 200: jsonContent(GraphHubReportSchema, 'The hub report') },
  });
  app.openapi(route, async (c) =>
    c.json(await engram.graphHubs({ ...c.req.valid('query'), space: c.get('space') }), 200),
  );
}

function registerNeighbors(app: HttpApp, { engram }: RouteDeps): void {
  const route = spaceRoute('read', {
    method: 'get',
    path: `${BASE}/neighbors`,
    tags: TAGS,
    summary: 'An entity and its neighbours up to `depth` edges away, with paths and edge types',
    description: 'An entity the graph does not know is 404 naming the field `entity`.',
    request: { params: SpaceParams, query: NeighborsQuery },
    responses: { 200: jsonContent(GraphNeighborsSchema, 'The entity and its neighbours') },
  });
  app.openapi(route, async (c) =>
    c.json(await engram.graphNeighbors({ ...c.req.valid('query'), space: c.get('space') }), 200),
  );
}

function registerMentions(app: HttpApp, { engram }: RouteDeps): void {
  const route = spaceRoute('read', {
    method: 'get',
    path: `${BASE}/mentions`,
    tags: TAGS,
    summary: 'The memories that mention an entity, newest first',
    description:
      'Memories of any status but forgotten (a forgotten memory leaves the graph). An entity the graph does not know is 404 naming the field `entity`.',
    request: { params: SpaceParams, query: MentionsQuery },
    responses: { 200: jsonContent(GraphMentionsSchema, 'The entity and its memories') },
  });
  app.openapi(route, async (c) =>
    c.json(await engram.graphMentions({ ...c.req.valid('query'), space: c.get('space') }), 200),
  );
}

/** Registers the graph routes. */
export function registerGraphRoutes(app: HttpApp, deps: RouteDeps): void {
  registerStats(app, deps);
  registerEntities(app, deps);
  registerHubs(app, deps);
  registerNeighbors(app, deps);
  registerMentions(app, deps);
}
