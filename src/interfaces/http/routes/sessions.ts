/**
 * Sessions over HTTP (§1.4, §13) under `/v1/spaces/{space}/sessions`: import (per-record
 * results), list, get, search (turns, never memories) and purge (admin, irreversible, audited).
 * Each handler is one engram service call in the path's space.
 */
import { createRoute, type RouteConfig, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';

import { EngramError } from '../../../domain/errors.js';
import { spaceSchema } from '../../../domain/input.js';
import {
  agentNameSchema,
  sessionIdSchema,
  type SessionImportResult,
  type SessionLimits,
  sessionSchemas,
} from '../../../domain/sessions.js';
import { ErrorBodySchema } from '../../responses/errors.js';
import {
  SessionImportResultsSchema,
  SessionPageSchema,
  SessionPurgeResultSchema,
  SessionSchema,
  SessionSearchResultSchema,
} from '../../responses/sessions.js';
import type { Role } from '../auth.js';
import type { HttpEnv } from '../env.js';
import { SpaceParams } from '../schemas.js';
import {
  access,
  changeOptions,
  ERRORS,
  type HttpApp,
  jsonBody,
  jsonContent,
  type RouteDeps,
} from './common.js';

const TAGS = ['sessions'];
const BASE = '/v1/spaces/{space}/sessions';

const SESSION_ERRORS = {
  ...ERRORS,
  404: jsonContent(ErrorBodySchema, 'No such session in this space (NOT_FOUND).'),
  409: jsonContent(ErrorBodySchema, 'This store keeps no sessions (CONFLICT).'),
};

/** `/v1/spaces/{space}/sessions/{id}` path parameters. */
const SessionParams = z.object({ space: spaceSchema, id: sessionIdSchema });

/** The request schemas of the session routes, for one configuration's limits. */
function requestSchemas(limits: SessionLimits) {
  const { session, list, search } = sessionSchemas(limits);
  // Documentation only (records are validated by the service, one by one): the OpenAPI generator
  // cannot walk the recursive JSON type of `source`'s further keys, so it says "any value" there.
  const source = session.shape.source.unwrap().unwrap().catchall(z.unknown());
  return {
    record: z.strictObject({ ...session.shape, source: source.nullable().optional() }),
    importBody: z
      .strictObject({
        records: z.array(z.unknown()).openapi({
          description:
            'Session records (see SessionRecord), at most limits.max_batch_items; a bad record fails alone. A record may only name the space of the path.',
        }),
        agent: agentNameSchema
          .optional()
          .openapi({ description: 'Agent of records that name none.' }),
        dry_run: z
          .boolean({ message: 'must be true or false' })
          .optional()
          .openapi({ description: 'Check every record; store nothing (results say `valid`).' }),
      })
      .openapi('SessionImportBody'),
    listQuery: z.strictObject({
      agent: list.shape.agent,
      limit: z.coerce.number().int().min(1).max(1000).optional(),
      cursor: list.shape.cursor,
    }),
    search: search.omit({ space: true }).openapi('SessionSearchBody'),
  };
}

type Schemas = ReturnType<typeof requestSchemas>;

/**
 * Declares a session route: `access(role)` first, then the body parser when it reads one, and
 * after its own responses the errors of a space route, with sessions' own 404 and 409.
 */
function sessionRoute<
  P extends string,
  R extends Omit<RouteConfig, 'path' | 'middleware'> & { path: P },
>(role: Role, config: R, json?: MiddlewareHandler<HttpEnv>) {
  const middleware = json ? [access(role), json] : [access(role)];
  return createRoute({
    ...config,
    tags: TAGS,
    middleware,
    responses: { ...config.responses, ...SESSION_ERRORS },
  });
}

/** The result of a record that names another space than the path's. */
function foreignSpace(index: number): SessionImportResult {
  return {
    index,
    ok: false,
    error: {
      code: 'INVALID_INPUT',
      message: 'space: a record may only name the space of the path',
      field: 'space',
    },
  };
}

/** Whether a raw record names a space other than `space` (the service validates the rest). */
function namesOtherSpace(record: unknown, space: string): boolean {
  if (typeof record !== 'object' || record === null || !('space' in record)) return false;
  return record.space !== undefined && record.space !== space;
}

function registerImport(app: HttpApp, { engram, json }: RouteDeps, s: Schemas): void {
  const route = sessionRoute(
    'write',
    {
      method: 'post',
      path: BASE,
      summary: 'Import sessions (past conversations); idempotent',
      description:
        'Each record is validated on its own: a bad record fails alone with its index and the field of the record, the others are stored. A session whose id the space holds already is left as it is (`exists`); one whose id was purged is not stored again (`purged`). Storing a session never creates a memory.',
      request: { params: SpaceParams, body: jsonBody(s.importBody) },
      responses: {
        200: jsonContent(SessionImportResultsSchema, 'One result per record, in order'),
      },
    },
    json,
  );
  app.openapi(route, async (c) => {
    const space = c.get('space');
    const { records, agent, dry_run } = c.req.valid('json');
    const max = engram.config.limits.max_batch_items;
    if (records.length > max)
      throw new EngramError('PAYLOAD_TOO_LARGE', `records: at most ${max} per batch`, {
        field: 'records',
        rule: `at most ${max}`,
      });
    const own = records.flatMap((record, index) =>
      namesOtherSpace(record, space) ? [] : [{ index, record }],
    );
    const stored = await engram.importSessions(
      own.map((o) => o.record),
      { space, agent, dry_run },
    );
    const results = records.map((_, index) => foreignSpace(index));
    for (const r of stored) {
      const index = own[r.index]!.index;
      results[index] = { ...r, index };
    }
    return c.json({ results }, 200);
  });
}

function registerList(app: HttpApp, { engram }: RouteDeps, s: Schemas): void {
  const route = sessionRoute('read', {
    method: 'get',
    path: BASE,
    summary: 'List sessions, newest first (without their turns)',
    description:
      'At most `limit` (1..1000, default 50) sessions, by agent when `agent` is given. Pass `next_cursor` as `cursor` for the next page.',
    request: { params: SpaceParams, query: s.listQuery },
    responses: { 200: jsonContent(SessionPageSchema, 'One page') },
  });
  app.openapi(route, async (c) =>
    c.json(await engram.listSessions({ ...c.req.valid('query'), space: c.get('space') }), 200),
  );
}

function registerSearch(app: HttpApp, { engram, json }: RouteDeps, s: Schemas): void {
  const route = sessionRoute(
    'read',
    {
      method: 'post',
      path: `${BASE}/search`,
      summary: 'Search the turns of past conversations (never memories)',
      description:
        'Full-text search over turns, best first: each hit is one turn with its session. Memory items are never searched here; recall returns a turn only as a labelled candidate of the optional sessions source of the decision stage (`recall.decision.sources.sessions`, off by default).',
      request: { params: SpaceParams, body: jsonBody(s.search) },
      responses: { 200: jsonContent(SessionSearchResultSchema, 'The matching turns') },
    },
    json,
  );
  app.openapi(route, async (c) =>
    c.json(await engram.searchSessions({ ...c.req.valid('json'), space: c.get('space') }), 200),
  );
}

function registerGet(app: HttpApp, { engram }: RouteDeps): void {
  const route = sessionRoute('read', {
    method: 'get',
    path: `${BASE}/{id}`,
    summary: 'Get one session with its turns',
    request: { params: SessionParams },
    responses: { 200: jsonContent(SessionSchema, 'The session') },
  });
  app.openapi(route, async (c) =>
    c.json(await engram.getSession(c.req.valid('param').id, { space: c.get('space') }), 200),
  );
}

function registerPurge(app: HttpApp, { engram, schemas }: RouteDeps): void {
  const route = sessionRoute('admin', {
    method: 'delete',
    path: `${BASE}/{id}`,
    summary: 'Purge: irreversibly delete a session (admin)',
    description:
      'Deletes the session, its turns and their index entries for good, as `POST .../memories/{id}/purge` does for a memory; an audit row (who, why, when) remains, and the id is not stored again by a later import. `actor` (default: the token name) and `reason` are query parameters.',
    request: { params: SessionParams, query: schemas.changeQuery },
    responses: { 200: jsonContent(SessionPurgeResultSchema, 'Purged, with its audit row') },
  });
  app.openapi(route, async (c) =>
    c.json(
      await engram.purgeSession(c.req.valid('param').id, changeOptions(c, c.req.valid('query'))),
      200,
    ),
  );
}

/** Registers the session routes. */
export function registerSessionRoutes(app: HttpApp, deps: RouteDeps): void {
  const schemas = requestSchemas(deps.engram.config.limits);
  app.openAPIRegistry.register('SessionRecord', schemas.record);
  registerImport(app, deps, schemas);
  registerList(app, deps, schemas);
  registerSearch(app, deps, schemas);
  registerGet(app, deps);
  registerPurge(app, deps);
}
