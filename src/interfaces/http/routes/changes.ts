/**
 * Change operations on one memory, as `POST /v1/spaces/{space}/memories/{id}/<operation>`:
 * restore, purge (admin), pin, unpin, move, tags, importance, supersede.
 */
import type { z } from '@hono/zod-openapi';
import type { Context } from 'hono';

import {
  MemorySchema,
  PurgeResultSchema,
  SupersedeResultSchema,
} from '../../responses/memories.js';
import type { Role } from '../auth.js';
import type { HttpEnv } from '../env.js';
import { IdParams } from '../schemas.js';
import {
  changeOptions,
  type HttpApp,
  jsonBody,
  jsonContent,
  optionalJsonBody,
  type RouteDeps,
  spaceRoute,
} from './common.js';

const TAGS = ['changes'];
const BASE = '/v1/spaces/{space}/memories/{id}';

type ChangeContext = Context<HttpEnv> & {
  req: { valid(target: 'param'): { id: string }; valid(target: 'json'): unknown };
};

/** A result schema other than the changed memory, with its description. */
interface ChangeResult {
  schema: z.ZodType<object>;
  description: string;
}

/** One `POST .../{id}/<name>` route: a body with change options, one service call, its result. */
function memoryChange<B extends { actor?: string; reason?: string }>(
  app: HttpApp,
  deps: RouteDeps,
  spec: {
    name: string;
    summary: string;
    description?: string;
    body: z.ZodType<B>;
    optional?: boolean;
    role?: Role;
    /** Default: the changed memory. */
    result?: ChangeResult;
    run: (id: string, body: B, options: ReturnType<typeof changeOptions>) => Promise<object>;
  },
): void {
  const result = spec.result ?? { schema: MemorySchema, description: 'The changed memory' };
  const route = spaceRoute(spec.role ?? 'write', deps.json, {
    method: 'post',
    path: `${BASE}/${spec.name}`,
    tags: TAGS,
    summary: spec.summary,
    description: spec.description,
    request: {
      params: IdParams,
      body: spec.optional ? optionalJsonBody(spec.body) : jsonBody(spec.body),
    },
    responses: { 200: jsonContent(result.schema, result.description) },
  });
  app.openapi(route, async (c) => {
    const ctx = c as unknown as ChangeContext;
    const body = ctx.req.valid('json') as B;
    const changed = await spec.run(ctx.req.valid('param').id, body, changeOptions(c, body));
    return c.json(changed, 200);
  });
}

/** Registers the change routes. */
export function registerChangeRoutes(app: HttpApp, deps: RouteDeps): void {
  const { engram, schemas } = deps;
  memoryChange(app, deps, {
    name: 'restore',
    summary: 'Restore a forgotten, archived, superseded or merged memory',
    description:
      "With `version`, instead restores that version's body, title and tags as a new version.",
    body: schemas.restore,
    optional: true,
    run: (id, body, options) =>
      body.version === undefined
        ? engram.restore(id, options)
        : engram.restoreVersion(id, body.version, options),
  });
  memoryChange(app, deps, {
    name: 'pin',
    summary: 'Pin (never decays, never archived or merged automatically)',
    body: schemas.change,
    optional: true,
    run: (id, _body, options) => engram.pin(id, options),
  });
  memoryChange(app, deps, {
    name: 'unpin',
    summary: 'Unpin',
    body: schemas.change,
    optional: true,
    run: (id, _body, options) => engram.unpin(id, options),
  });
  memoryChange(app, deps, {
    name: 'move',
    summary: 'Move to another area',
    body: schemas.move,
    run: (id, body, options) => engram.move(id, body.area, options),
  });
  memoryChange(app, deps, {
    name: 'tags',
    summary: 'Add and remove tags',
    body: schemas.tags,
    run: (id, body, options) => engram.tag(id, { add: body.add, remove: body.remove }, options),
  });
  memoryChange(app, deps, {
    name: 'importance',
    summary: 'Set importance (0..1)',
    body: schemas.importance,
    run: (id, body, options) => engram.setImportance(id, body.importance, options),
  });
  memoryChange(app, deps, {
    name: 'purge',
    summary: 'Purge: irreversibly delete a memory (admin)',
    description:
      "Removes the memory's text, versions, vectors and index entries; an audit record remains. For privacy requests; use DELETE (forget) for a reversible removal.",
    body: schemas.change,
    optional: true,
    role: 'admin',
    result: { schema: PurgeResultSchema, description: 'Purged' },
    run: (id, _body, options) => engram.purge(id, options),
  });
  memoryChange(app, deps, {
    name: 'supersede',
    summary: 'Supersede: this memory is replaced by another',
    description:
      'The memory of the path leaves recall as `superseded`; a `supersedes` relation from `by` records why. Reversible with restore.',
    body: schemas.supersede,
    result: { schema: SupersedeResultSchema, description: 'Both memories' },
    run: (id, body, options) => engram.supersede(id, body.by, options),
  });
}
