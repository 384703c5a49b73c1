/**
 * Insights of a space over HTTP for the console's health page: `GET /v1/spaces/{space}/insights`
 * (role read) returns memories by kind and status changes day by day, the current totals, the
 * strength distribution and this process's recall latency. One engram service call.
 */
import { z } from '@hono/zod-openapi';

import { DEFAULT_INSIGHT_DAYS, MAX_INSIGHT_DAYS } from '../../../service/insights.js';
import { LATENCY_CAPACITY } from '../../../service/recall-latency.js';
import { InsightsSchema } from '../../responses/insights.js';
import { SpaceParams } from '../schemas.js';
import { type HttpApp, jsonContent, type RouteDeps, spaceRoute } from './common.js';

const InsightsQuery = z.strictObject({
  days: z.coerce
    .number({ message: 'must be a whole number of days' })
    .int({ message: 'must be a whole number of days' })
    .min(1, { message: 'must be at least 1' })
    .max(MAX_INSIGHT_DAYS, { message: `must be at most ${MAX_INSIGHT_DAYS}` })
    .optional()
    .openapi({
      description: `UTC days to cover, today included (1..${MAX_INSIGHT_DAYS}, default ${DEFAULT_INSIGHT_DAYS}).`,
    }),
});

/** Registers the insights routes. */
export function registerInsightRoutes(app: HttpApp, { engram }: RouteDeps): void {
  const route = spaceRoute('read', {
    method: 'get',
    path: '/v1/spaces/{space}/insights',
    tags: ['status'],
    summary: 'Memories over time, strength distribution and recall latency of a space',
    description: `Per UTC day of the last \`days\`: memories of each kind created by the day's end and status changes during it; the current totals by kind and status; the strength of live memories in ten buckets. \`recall_latency\` covers the recalls this server process has served since it started (its most recent ${LATENCY_CAPACITY.toLocaleString('en-US')}; other processes and earlier runs are not included), as p50/p95/p99 per time bucket and overall.`,
    request: { params: SpaceParams, query: InsightsQuery },
    responses: { 200: jsonContent(InsightsSchema, 'The insights') },
  });
  app.openapi(route, async (c) =>
    c.json(await engram.insights({ space: c.get('space'), days: c.req.valid('query').days }), 200),
  );
}
