/** Settings over HTTP (§13) (being built). */
import type { HttpApp, RouteDeps } from './common.js';

/** Registers the settings routes. */
export function registerSettingsRoutes(_app: HttpApp, _deps: RouteDeps): void {}
