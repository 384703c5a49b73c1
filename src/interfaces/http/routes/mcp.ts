/**
 * `/mcp`: MCP over the Streamable HTTP transport (POST messages, GET stream, DELETE session),
 * beside the JSON API. The app authenticates it as it does `/v1` (the same tokens; the token's
 * spaces and role bound every tool call, ../../mcp/scope.ts), reads its body under the same cap
 * with the same errors, and refuses browser origins that are neither loopback nor configured
 * CORS origins (against DNS rebinding). The MCP sessions are ../../mcp/http.ts. Not in the
 * OpenAPI document, which describes `/v1`.
 */
import type { MiddlewareHandler } from 'hono';

import { EngramError } from '../../../domain/errors.js';
import type { McpHttpSessions } from '../../mcp/http.js';
import { isLoopback } from '../auth.js';
import type { HttpEnv } from '../env.js';
import type { HttpApp, RouteDeps } from './common.js';

/** The path of the MCP endpoint. */
export const MCP_PATH = '/mcp';

/** Whether a browser origin may use the endpoint: loopback, or one of `server.cors.origins`. */
function originAllowed(origin: string, allowed: readonly string[]): boolean {
  if (allowed.includes('*') || allowed.includes(origin)) return true;
  try {
    return isLoopback(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** Refuses a request whose `Origin` header names a site that may not use the endpoint. */
function checkOrigin(allowed: readonly string[]): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin !== undefined && !originAllowed(origin, allowed))
      throw new EngramError('FORBIDDEN', `origin ${origin} may not use ${MCP_PATH}`, {
        field: 'Origin',
        rule: 'a loopback origin or one of server.cors.origins',
      });
    await next();
  };
}

/** Registers `/mcp` over `sessions`. */
export function registerMcpRoute(app: HttpApp, deps: RouteDeps, sessions: McpHttpSessions): void {
  const origins = deps.engram.config.server.cors.origins;
  app.all(MCP_PATH, checkOrigin(origins), deps.json, async (c) => {
    // deps.json read and checked a JSON body and left its text in the body cache; any other
    // body is left to the transport, which refuses it (415).
    const read = 'text' in c.req.bodyCache;
    const body: unknown = read ? JSON.parse(await c.req.text()) : undefined;
    return sessions.handle(c.req.raw, c.get('principal'), body);
  });
}
