/** Store insights over HTTP for the console's health page (being built). */
import type { HttpApp, RouteDeps } from './common.js';

/** Registers the insights routes. */
export function registerInsightRoutes(_app: HttpApp, _deps: RouteDeps): void {}
