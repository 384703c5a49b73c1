/**
 * Unauthenticated system routes: `/v1/health` (per-component status, nothing about any space's
 * contents) and `/v1/openapi.json` (generated from the zod schemas that validate requests).
 */
import { createRoute } from '@hono/zod-openapi';

import type { WorkerState } from '../../../jobs/worker.js';
import type { ServiceHealth } from '../../../service/models.js';
import { jobsSummary } from '../../jobs-summary.js';
import { HealthSchema } from '../../responses/status.js';
import { ERRORS, type HttpApp, jsonContent, type RouteDeps } from './common.js';

type ComponentStatus = 'ok' | 'loading' | 'degraded' | 'unavailable' | 'off' | 'down';
type Component = { status: ComponentStatus } & Record<string, unknown>;

/** What the health route needs besides the service. */
export interface HealthSources {
  version: string;
  startedAt: number;
  authRequired: boolean;
  /** This process's job worker; absent when it runs none (`worker.enabled: false`). */
  worker?: () => WorkerState;
}

function embedderHealth(e: ServiceHealth['embedder']): Component {
  if (!('model_id' in e)) return { status: 'off', reason: e.reason };
  const status: ComponentStatus = e.loaded
    ? 'ok'
    : !e.available
      ? 'unavailable'
      : e.reason
        ? 'degraded'
        : 'loading';
  return { status, ...e };
}

/**
 * The graph component, from configuration and store support only (no graph query): `ok` when on
 * and supported, `off` when configured off, `unavailable` when on but the store keeps no graph.
 */
function graphHealth(graph: ServiceHealth['graph']): {
  status: ComponentStatus;
  enabled: boolean;
  supported: boolean;
} {
  const { enabled, supported } = graph ?? { enabled: false, supported: false };
  const status: ComponentStatus = !enabled ? 'off' : supported ? 'ok' : 'unavailable';
  return { status, enabled, supported };
}

/**
 * The worker component: its state (not its holder, which names the host) and the job counts by
 * state of the whole store, when the store answers and keeps jobs.
 */
function workerHealth(
  state: WorkerState | undefined,
  jobs: Record<string, number> | undefined,
): Component {
  const counts = jobs ? { jobs } : {};
  if (!state) return { status: 'off', ...counts };
  const { holder: _holder, ...shown } = state;
  const status: ComponentStatus =
    state.status === 'failing' ? 'degraded' : state.status === 'stopped' ? 'off' : 'ok';
  return { ...shown, state: state.status, status, ...counts };
}

/** Job counts for health; a failure to read them never fails the health answer. */
async function jobCounts(deps: RouteDeps): Promise<Record<string, number> | undefined> {
  try {
    return (await jobsSummary(deps.engram))?.counts;
  } catch {
    return undefined;
  }
}

function registerHealth(app: HttpApp, deps: RouteDeps, sources: HealthSources): void {
  const route = createRoute({
    method: 'get',
    path: '/v1/health',
    tags: ['system'],
    summary: 'Health of the service: store, embedder, knowledge graph and background worker',
    description:
      'No token needed. 200 when the store answers (status `ok` or `degraded`), 503 when it does not (`down`).',
    security: [],
    responses: {
      200: jsonContent(HealthSchema, 'The service answers'),
      503: jsonContent(HealthSchema, 'The store does not answer'),
      500: ERRORS[500],
    },
  });
  app.openapi(route, async (c) => {
    const health = await deps.engram.health();
    const { ok, ...store } = health.store;
    const components = {
      store: { ...store, status: (ok ? 'ok' : 'down') as ComponentStatus },
      embedder: embedderHealth(health.embedder),
      graph: graphHealth(health.graph),
      worker: workerHealth(sources.worker?.(), ok ? await jobCounts(deps) : undefined),
    };
    const degraded = ['unavailable', 'degraded'];
    const { embedder, graph, worker } = components;
    const status = !ok
      ? 'down'
      : [embedder, graph, worker].some((part) => degraded.includes(part.status))
        ? 'degraded'
        : 'ok';
    const body = {
      status: status as 'ok' | 'degraded' | 'down',
      version: sources.version,
      uptime_s: Math.round((Date.now() - sources.startedAt) / 1000),
      auth: sources.authRequired,
      components,
    };
    return ok ? c.json(body, 200) : c.json(body, 503);
  });
}

/**
 * The generator writes a regex's flags into `pattern` (`^[^\s,]+$/u`); JSON Schema patterns carry
 * no flags, so strip them.
 */
function stripRegexFlags(value: unknown): void {
  if (!value || typeof value !== 'object') return;
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'pattern' && typeof inner === 'string' && /\$\/[dgimsuvy]+$/.test(inner))
      (value as Record<string, unknown>)[key] = inner.replace(/\/[dgimsuvy]+$/, '');
    else stripRegexFlags(inner);
  }
}

function registerOpenApi(app: HttpApp, sources: HealthSources): void {
  let document: object | undefined;
  app.get('/v1/openapi.json', (c) => {
    if (!document) {
      app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
        type: 'http',
        scheme: 'bearer',
        description: 'A token of `server.tokens` (only when tokens are configured).',
      });
      const doc = app.getOpenAPI31Document({
        openapi: '3.1.0',
        info: {
          title: 'engram',
          version: sources.version,
          description:
            'Long-term memory for AI agents. Every memory route names its space in the path; a token may only use its own spaces and role.',
        },
        security: [{ bearer: [] }],
      });
      stripRegexFlags(doc);
      document = doc;
    }
    return c.json(document);
  });
}

/** Registers health and the OpenAPI document. */
export function registerSystemRoutes(app: HttpApp, deps: RouteDeps, sources: HealthSources): void {
  registerHealth(app, deps, sources);
  registerOpenApi(app, sources);
}
