/**
 * Areas over HTTP (§10) under `/v1/spaces/{space}/areas`: the areas holding live memories with
 * their counts (read), and a fold by hand (write, as moving one memory is: every move is
 * reversible with restore). Each handler is one engram service call in the path's space.
 */
import { z } from '@hono/zod-openapi';

import { areaSchema } from '../../../domain/input.js';
import { AreaFoldResultSchema, AreaListSchema } from '../../responses/areas.js';
import { SpaceParams } from '../schemas.js';
import {
  changeOptions,
  type HttpApp,
  jsonBody,
  jsonContent,
  type RouteDeps,
  spaceRoute,
} from './common.js';

const TAGS = ['areas'];
const BASE = '/v1/spaces/{space}/areas';

/** The body of a fold: the two areas, a dry run, and who folds and why. */
function foldBody({ schemas }: RouteDeps) {
  return z
    .strictObject({
      from: areaSchema,
      to: areaSchema,
      dry_run: z
        .boolean()
        .optional()
        .openapi({ description: 'List what would move; change nothing.' }),
      ...schemas.change.shape,
    })
    .openapi('AreaFoldBody');
}

function registerList(app: HttpApp, { engram }: RouteDeps): void {
  const route = spaceRoute('read', {
    method: 'get',
    path: BASE,
    tags: TAGS,
    summary: 'The areas holding live memories, with their counts',
    request: { params: SpaceParams },
    responses: { 200: jsonContent(AreaListSchema, 'The areas, ordered by name') },
  });
  app.openapi(route, async (c) =>
    c.json({ areas: await engram.areas({ space: c.get('space') }) }, 200),
  );
}

function registerFold(app: HttpApp, deps: RouteDeps): void {
  const route = spaceRoute('write', deps.json, {
    method: 'post',
    path: `${BASE}/fold`,
    tags: TAGS,
    summary: 'Fold an area into another: move every memory of `from` into `to`',
    description:
      'Content is unchanged; each moved memory keeps `from` as its prior area, so restoring it (POST .../memories/{id}/restore) moves it back. `dry_run` lists what would move and changes nothing. A system area (`_...`) on either side, `to` equal to `from`, or a `from` holding no memories is 400 naming the field.',
    request: { params: SpaceParams, body: jsonBody(foldBody(deps)) },
    responses: { 200: jsonContent(AreaFoldResultSchema, 'What moved, or would move') },
  });
  app.openapi(route, async (c) => {
    const { from, to, dry_run, ...change } = c.req.valid('json');
    const options = { ...changeOptions(c, change), dry_run };
    return c.json(await deps.engram.foldArea(from, to, options), 200);
  });
}

/** Registers the area routes. */
export function registerAreaRoutes(app: HttpApp, deps: RouteDeps): void {
  registerList(app, deps);
  registerFold(app, deps);
}
