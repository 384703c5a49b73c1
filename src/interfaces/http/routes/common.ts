/** What every route module shares: its dependencies, response helpers, access and spaceRoute. */
import { createRoute, type OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';

import type { Engram } from '../../../app.js';
import { spaceSchema } from '../../../domain/input.js';
import { parseWith } from '../../../domain/zod.js';
import { ErrorBodySchema } from '../../responses/errors.js';
import { authorize, type Role } from '../auth.js';
import type { HttpEnv } from '../env.js';
import type { RequestSchemas } from '../schemas.js';
import type { HttpWriteSessions } from '../write-sessions.js';

/** The app routes are registered on. */
export type HttpApp = OpenAPIHono<HttpEnv>;

/** What route modules are built with. */
export interface RouteDeps {
  engram: Engram;
  schemas: RequestSchemas;
  /** Parses request bodies under the configured cap (see body.ts). */
  json: MiddlewareHandler<HttpEnv>;
  limits: { maxImportBytes: number; maxImportLineBytes: number };
  /** Registers long work (streams) that graceful shutdown must wait for. */
  track<T>(work: Promise<T>): Promise<T>;
  /** The write sessions that remember requests name (`Engram-Session`). */
  sessions: HttpWriteSessions;
}

/** A JSON response or request body description for OpenAPI. */
export function jsonContent<T>(schema: T, description: string) {
  return { description, content: { 'application/json': { schema } } };
}

/** A required JSON request body. */
export function jsonBody<T>(schema: T, description?: string) {
  return { required: true, description, content: { 'application/json': { schema } } };
}

/** A JSON request body that may be omitted (then it counts as `{}`). */
export function optionalJsonBody<T>(schema: T) {
  return { required: false, content: { 'application/json': { schema } } };
}

const error = (description: string) => jsonContent(ErrorBodySchema, description);

/** Error responses every space route can give. */
export const ERRORS = {
  400: error('Invalid input: the message names the field and the rule (INVALID_INPUT).'),
  401: error('Missing or invalid bearer token (UNAUTHORIZED).'),
  403: error('The token may not use this space, or lacks the role (FORBIDDEN).'),
  404: error('No such memory in this space (NOT_FOUND).'),
  409: error('The change conflicts with the current state (CONFLICT).'),
  413: error('Body or batch too large (PAYLOAD_TOO_LARGE).'),
  500: error(
    'Server fault: the configuration is invalid (CONFIG_INVALID), or INTERNAL (details only in the server log). ADDRESS_IN_USE shares this status but stops a service from starting, so no request gets it.',
  ),
  503: error(
    'The store or the embedder cannot serve the request: STORE_BUSY (try again), STORE_UNAVAILABLE, STORE_READ_ONLY, EMBEDDER_UNAVAILABLE.',
  ),
} as const;

/**
 * Route middleware: validates the path's space and lets the caller in with at least `role`.
 * Runs before the body is read, so a caller without access never gets its body parsed.
 */
export function access(role: Role): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const space = parseWith(spaceSchema, c.req.param('space'), 'space');
    authorize(c.get('principal'), space, role);
    c.set('space', space);
    await next();
  };
}

/**
 * Declares a route of one space: `access(role)` first, then `json` (the body parser) when the
 * route reads a body, and after the route's own responses the errors every space route can give.
 */
export function spaceRoute<
  P extends string,
  R extends Omit<RouteConfig, 'path' | 'middleware'> & { path: P },
>(role: Role, ...args: [config: R] | [json: MiddlewareHandler<HttpEnv>, config: R]) {
  const [json, config] = args.length === 1 ? [undefined, args[0]] : args;
  const middleware = json ? [access(role), json] : [access(role)];
  return createRoute({ ...config, middleware, responses: { ...config.responses, ...ERRORS } });
}

/** Who a change is recorded as: the given actor, else the token's name. */
export function actor(c: Context<HttpEnv>, given: string | undefined): string | undefined {
  return given ?? c.get('principal').name ?? undefined;
}

/** The change options of a request: its space, actor and reason. */
export function changeOptions(c: Context<HttpEnv>, body: { actor?: string; reason?: string }) {
  return { space: c.get('space'), actor: actor(c, body.actor), reason: body.reason };
}
