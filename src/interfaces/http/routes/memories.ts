/**
 * Memory routes: remember (one or a batch), list, get, revise (PATCH), forget (DELETE), history.
 * Each handler is one engram service call in the path's space.
 */
import { z } from '@hono/zod-openapi';

import { EngramError } from '../../../domain/errors.js';
import type { BatchResult } from '../../../domain/types.js';
import {
  BatchResultSchema,
  HistorySchema,
  MemoryPageSchema,
  MemorySchema,
  RememberResultSchema,
} from '../../responses/memories.js';
import { IdParams, SpaceParams } from '../schemas.js';
import { namedSession, SESSION_HEADER } from '../write-sessions.js';
import {
  actor,
  changeOptions,
  type HttpApp,
  jsonBody,
  jsonContent,
  type RouteDeps,
  spaceRoute,
} from './common.js';

const TAGS = ['memories'];
const BASE = '/v1/spaces/{space}/memories';

/** The `Engram-Session` request header: the writes naming one id are turns of one session. */
const SessionHeaders = z.object({
  [SESSION_HEADER.toLowerCase()]: z.string().optional().openapi({
    description:
      'Records the memory as the next turn of this session (`source.session`, `source.turn`) unless the body names its own session; turns continue after those stored. A body with `source.session` and no `source.turn` is numbered the same way.',
  }),
});

function registerRemember(app: HttpApp, { engram, schemas, json, sessions }: RouteDeps): void {
  const route = spaceRoute('write', json, {
    method: 'post',
    path: BASE,
    tags: TAGS,
    summary: 'Remember: store a memory',
    description:
      'Stores a memory. An exact duplicate (same space, kind and normalised body) returns the existing memory with `created: false` and status 200.',
    request: { params: SpaceParams, headers: SessionHeaders, body: jsonBody(schemas.remember) },
    responses: {
      201: jsonContent(RememberResultSchema, 'Created'),
      200: jsonContent(RememberResultSchema, 'An exact duplicate already existed'),
    },
  });
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const named = namedSession(c.req.header(SESSION_HEADER), body);
    const writer = named === undefined ? engram : await sessions.get(c.get('space'), named);
    const result = await writer.remember({ ...body, ...changeOptions(c, body) });
    return c.json(result, result.created ? 201 : 200);
  });
}

function registerBatch(app: HttpApp, { engram, schemas, json, sessions }: RouteDeps): void {
  const route = spaceRoute('write', json, {
    method: 'post',
    path: `${BASE}/batch`,
    tags: TAGS,
    summary: 'Remember many memories in one transaction',
    description:
      "Each item is validated on its own: a bad item fails alone with its error, the others are stored. Items are stored in the space of the path; an item naming another space fails. With `Engram-Session`, the items without a session of their own are that session's next turns, in order.",
    request: { params: SpaceParams, headers: SessionHeaders, body: jsonBody(schemas.batch) },
    responses: { 200: jsonContent(BatchResultSchema, 'One result per item, in order') },
  });
  app.openapi(route, async (c) => {
    const space = c.get('space');
    const { items } = c.req.valid('json');
    const max = engram.config.limits.max_batch_items;
    if (items.length > max)
      throw new EngramError('PAYLOAD_TOO_LARGE', `items: at most ${max} per batch`, {
        field: 'items',
        rule: `at most ${max}`,
      });
    const writable = items.flatMap((item, index) =>
      item.space === undefined || item.space === space
        ? [{ index, item: { ...item, space, actor: item.actor ?? actor(c, undefined) } }]
        : [],
    );
    const named = c.req.header(SESSION_HEADER);
    const writer = named === undefined ? engram : await sessions.get(space, named);
    const written = await writer.rememberMany(writable.map((w) => w.item));
    const results: BatchResult[] = items.map((_, index) => ({
      index,
      ok: false,
      error: {
        code: 'INVALID_INPUT',
        message: `items[${index}].space: an item may only name the space of the path`,
        field: `items[${index}].space`,
      },
    }));
    for (const r of written) {
      const index = writable[r.index]!.index;
      results[index] = { ...r, index };
    }
    return c.json({ results }, 200);
  });
}

function registerList(app: HttpApp, { engram, schemas }: RouteDeps): void {
  const route = spaceRoute('read', {
    method: 'get',
    path: BASE,
    tags: TAGS,
    summary: 'List memories',
    description:
      'Most recently updated first (or by creation with `order=created`). List parameters take repeated values or a comma-separated list. Pass `next_cursor` as `cursor` for the next page.',
    request: { params: SpaceParams, query: schemas.listQuery },
    responses: { 200: jsonContent(MemoryPageSchema, 'One page') },
  });
  app.openapi(route, async (c) =>
    c.json(await engram.list({ ...c.req.valid('query'), space: c.get('space') }), 200),
  );
}

function registerGet(app: HttpApp, { engram }: RouteDeps): void {
  const route = spaceRoute('read', {
    method: 'get',
    path: `${BASE}/{id}`,
    tags: TAGS,
    summary: 'Get one memory',
    request: { params: IdParams },
    responses: { 200: jsonContent(MemorySchema, 'The memory') },
  });
  app.openapi(route, async (c) =>
    c.json(await engram.get(c.req.valid('param').id, { space: c.get('space') }), 200),
  );
}

function registerRevise(app: HttpApp, { engram, schemas, json }: RouteDeps): void {
  const route = spaceRoute('write', json, {
    method: 'patch',
    path: `${BASE}/{id}`,
    tags: TAGS,
    summary: 'Revise: write a new version',
    description:
      'Writes a new version with the given body, title and/or tags (tags replace the set). Earlier versions stay in history.',
    request: { params: IdParams, body: jsonBody(schemas.revise) },
    responses: { 200: jsonContent(MemorySchema, 'The revised memory') },
  });
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const memory = await engram.revise(c.req.valid('param').id, {
      ...body,
      ...changeOptions(c, body),
    });
    return c.json(memory, 200);
  });
}

function registerForget(app: HttpApp, { engram, schemas }: RouteDeps): void {
  const route = spaceRoute('write', {
    method: 'delete',
    path: `${BASE}/{id}`,
    tags: TAGS,
    summary: 'Forget: hide a memory from recall (reversible)',
    description:
      'Nothing is deleted: the memory becomes `forgotten` and `POST .../restore` brings it back. Irreversible deletion is `POST .../purge` (admin).',
    request: { params: IdParams, query: schemas.changeQuery },
    responses: { 200: jsonContent(MemorySchema, 'The forgotten memory') },
  });
  app.openapi(route, async (c) => {
    const memory = await engram.forget(
      c.req.valid('param').id,
      changeOptions(c, c.req.valid('query')),
    );
    return c.json(memory, 200);
  });
}

function registerHistory(app: HttpApp, { engram }: RouteDeps): void {
  const route = spaceRoute('read', {
    method: 'get',
    path: `${BASE}/{id}/history`,
    tags: TAGS,
    summary: 'Versions, status changes and relations of a memory',
    request: { params: IdParams },
    responses: { 200: jsonContent(HistorySchema, 'The history') },
  });
  app.openapi(route, async (c) =>
    c.json(await engram.history(c.req.valid('param').id, { space: c.get('space') }), 200),
  );
}

/** Registers the memory routes. */
export function registerMemoryRoutes(app: HttpApp, deps: RouteDeps): void {
  registerRemember(app, deps);
  registerBatch(app, deps);
  registerList(app, deps);
  registerGet(app, deps);
  registerRevise(app, deps);
  registerForget(app, deps);
  registerHistory(app, deps);
}
