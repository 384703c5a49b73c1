/**
 * Change operations on one memory, as `POST /v1/spaces/{space}/memories/{id}/<operation>`:
 * restore, purge (admin), pin, unpin, move, tags, importance, supersede.
 */
import { createRoute, type z } from '@hono/zod-openapi';
import type { Context } from 'hono';

import type { Memory } from '../../../core/types.js';
import type { Role } from '../auth.js';
import type { HttpEnv } from '../env.js';
import { IdParams, MemorySchema, PurgeResultSchema, SupersedeResultSchema } from '../schemas.js';
import {
  access,
  changeOptions,
  ERRORS,
  type HttpApp,
  jsonBody,
  jsonContent,
  optionalJsonBody,
  type RouteDeps,
} from './common.js';

const TAGS = ['changes'];
const BASE = '/v1/spaces/{space}/memories/{id}';

type ChangeContext = Context<HttpEnv> & {
  req: { valid(target: 'param'): { id: string }; valid(target: 'json'): unknown };
};

/** One `POST .../{id}/<name>` route returning the changed memory. */
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
    run: (id: string, body: B, options: ReturnType<typeof changeOptions>) => Promise<Memory>;
  },
): void {
  const route = createRoute({
    method: 'post',
    path: `${BASE}/${spec.name}`,
    tags: TAGS,
    summary: spec.summary,
    description: spec.description,
    middleware: [access(spec.role ?? 'write'), deps.json] as const,
    request: {
      params: IdParams,
      body: spec.optional ? optionalJsonBody(spec.body) : jsonBody(spec.body),
    },
    responses: { 200: jsonContent(MemorySchema, 'The changed memory'), ...ERRORS },
  });
  app.openapi(route, async (c) => {
    const ctx = c as unknown as ChangeContext;
    const body = ctx.req.valid('json') as B;
    const memory = await spec.run(ctx.req.valid('param').id, body, changeOptions(c, body));
    return c.json(memory, 200);
  });
}

function registerPurge(app: HttpApp, { engram, schemas, json }: RouteDeps): void {
  const route = createRoute({
    method: 'post',
    path: `${BASE}/purge`,
    tags: TAGS,
    summary: 'Purge: irreversibly delete a memory (admin)',
    description:
      "Removes the memory's text, versions, vectors and index entries; an audit record remains. For privacy requests; use DELETE (forget) for a reversible removal.",
    middleware: [access('admin'), json] as const,
    request: { params: IdParams, body: optionalJsonBody(schemas.change) },
    responses: { 200: jsonContent(PurgeResultSchema, 'Purged'), ...ERRORS },
  });
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    return c.json(await engram.purge(c.req.valid('param').id, changeOptions(c, body)), 200);
  });
}

function registerSupersede(app: HttpApp, { engram, schemas, json }: RouteDeps): void {
  const route = createRoute({
    method: 'post',
    path: `${BASE}/supersede`,
    tags: TAGS,
    summary: 'Supersede: this memory is replaced by another',
    description:
      'The memory of the path leaves recall as `superseded`; a `supersedes` relation from `by` records why. Reversible with restore.',
    middleware: [access('write'), json] as const,
    request: { params: IdParams, body: jsonBody(schemas.supersede) },
    responses: { 200: jsonContent(SupersedeResultSchema, 'Both memories'), ...ERRORS },
  });
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    const result = await engram.supersede(c.req.valid('param').id, body.by, changeOptions(c, body));
    return c.json(result, 200);
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
  registerPurge(app, deps);
  registerSupersede(app, deps);
}
