/**
 * `GET /v1/me`: the caller of a request (its token's name and role) and the spaces it may use, so a
 * client such as the web console can offer exactly those. Authenticated like every space route.
 */
import { createRoute } from '@hono/zod-openapi';

import { MeSchema } from '../../responses/me.js';
import { ERRORS, type HttpApp, jsonContent, type RouteDeps } from './common.js';

/** Registers `/v1/me`. */
export function registerMeRoute(app: HttpApp, { engram }: RouteDeps, authRequired: boolean): void {
  const route = createRoute({
    method: 'get',
    path: '/v1/me',
    tags: ['system'],
    summary: 'The caller: token name, role, and the spaces it may use',
    responses: {
      200: jsonContent(MeSchema, 'The caller and its spaces'),
      401: ERRORS[401],
      500: ERRORS[500],
    },
  });
  app.openapi(route, async (c) => {
    const principal = c.get('principal');
    const known = await engram.spaces();
    const spaces =
      principal.spaces === '*'
        ? known
        : principal.spaces.map((space) => ({
            space,
            items: known.find((k) => k.space === space)?.items ?? 0,
          }));
    return c.json(
      {
        name: principal.name,
        role: principal.role,
        auth: authRequired,
        default_space: engram.config.space,
        every_space: principal.spaces === '*',
        spaces: [...spaces].sort((a, b) => (a.space < b.space ? -1 : 1)),
      },
      200,
    );
  });
}
