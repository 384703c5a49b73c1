/** The knowledge graph over HTTP (§4) (being built). */
import type { HttpApp, RouteDeps } from './common.js';

/** Registers the graph routes. */
export function registerGraphRoutes(_app: HttpApp, _deps: RouteDeps): void {}
