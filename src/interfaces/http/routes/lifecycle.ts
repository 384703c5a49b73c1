/**
 * Lifecycle and auto-recall over HTTP (§6, §7): auto-recall for a message, its analysis, settings
 * and stats; observe (reinforcement); the review list and its actions; maintenance of a space.
 */
import { z } from '@hono/zod-openapi';

import { autoRecallSchemas } from '../../../autorecall/input.js';
import { configureInputSchema } from '../../../config/autorecall-settings.js';
import { maintainInputSchema, observeInputSchema } from '../../../lifecycle/input.js';
import { REVIEW_ACTIONS } from '../../../lifecycle/review.js';
import {
  AutoRecallResultSchema,
  AutoRecallSettingsSchema,
  AutoRecallStatsSchema,
  RecallAnalysisSchema,
} from '../../responses/autorecall.js';
import {
  MaintenanceReportSchema,
  ObserveResultSchema,
  ReviewListSchema,
} from '../../responses/lifecycle.js';
import { MemorySchema } from '../../responses/memories.js';
import { IdParams, SpaceParams } from '../schemas.js';
import {
  actor,
  type HttpApp,
  jsonBody,
  jsonContent,
  optionalJsonBody,
  type RouteDeps,
  spaceRoute,
} from './common.js';

const TAGS = ['auto-recall'];
const LIFECYCLE_TAGS = ['lifecycle'];
const BASE = '/v1/spaces/{space}';
const schemas = autoRecallSchemas(null);

const ProcessBody = schemas.process.omit({ space: true });
const AnalyzeBody = schemas.analyze.omit({ space: true });
const ConfigureBody = configureInputSchema.omit({ space: true });
const ObserveBody = observeInputSchema.omit({ space: true });
const MaintainBody = maintainInputSchema.omit({ space: true });
const ReviewQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});
const ReviewActionBody = z.strictObject({
  action: z.enum(REVIEW_ACTIONS, { message: `must be one of ${REVIEW_ACTIONS.join(', ')}` }),
  body: z.string().optional(),
  title: z.string().nullable().optional(),
  actor: z.string().max(200).optional(),
  reason: z.string().max(2000).optional(),
});

function registerAutoRecall(app: HttpApp, { engram, json }: RouteDeps): void {
  const process = spaceRoute('write', json, {
    method: 'post',
    path: `${BASE}/auto-recall`,
    tags: TAGS,
    summary: 'Auto-recall for one conversation message (analyse, search, surface by mode)',
    description:
      'silent: reinforces related memories and returns none; subtle: returns them in `items`; interactive: returns a count and handles. A per-conversation cooldown applies when `conversation_id` is given.',
    request: { params: SpaceParams, body: jsonBody(ProcessBody) },
    responses: { 200: jsonContent(AutoRecallResultSchema, 'The auto-recall result') },
  });
  app.openapi(process, async (c) =>
    c.json(await engram.processMessage({ ...c.req.valid('json'), space: c.get('space') }), 200),
  );
  const analyze = spaceRoute('read', json, {
    method: 'post',
    path: `${BASE}/auto-recall/analyze`,
    tags: TAGS,
    summary: 'Topics, entities, key phrases and the recall decision for a message',
    request: { params: SpaceParams, body: jsonBody(AnalyzeBody) },
    responses: { 200: jsonContent(RecallAnalysisSchema, 'The analysis') },
  });
  app.openapi(analyze, async (c) =>
    c.json(await engram.analyzeForRecall({ ...c.req.valid('json'), space: c.get('space') }), 200),
  );
}

function registerSettings(app: HttpApp, { engram, json }: RouteDeps): void {
  const read = spaceRoute('read', {
    method: 'get',
    path: `${BASE}/auto-recall/settings`,
    tags: TAGS,
    summary: 'The effective auto-recall settings of the space',
    request: { params: SpaceParams },
    responses: { 200: jsonContent(AutoRecallSettingsSchema, 'The settings') },
  });
  app.openapi(read, async (c) =>
    c.json(await engram.autoRecallSettings({ space: c.get('space') }), 200),
  );
  const write = spaceRoute('write', json, {
    method: 'patch',
    path: `${BASE}/auto-recall/settings`,
    tags: TAGS,
    summary: 'Change auto-recall settings (persisted); returns the effective settings',
    request: { params: SpaceParams, body: jsonBody(ConfigureBody) },
    responses: { 200: jsonContent(AutoRecallSettingsSchema, 'The settings') },
  });
  app.openapi(write, async (c) =>
    c.json(
      await engram.configureAutoRecall({ ...c.req.valid('json'), space: c.get('space') }),
      200,
    ),
  );
  const stats = spaceRoute('read', {
    method: 'get',
    path: `${BASE}/auto-recall/stats`,
    tags: TAGS,
    summary: 'Items kept by reinforcement, reinforcement events, cross-domain uses, strengths',
    request: { params: SpaceParams },
    responses: { 200: jsonContent(AutoRecallStatsSchema, 'The metrics') },
  });
  app.openapi(stats, async (c) =>
    c.json(await engram.autoRecallStats({ space: c.get('space') }), 200),
  );
}

function registerObserve(app: HttpApp, { engram, json }: RouteDeps): void {
  const route = spaceRoute('write', json, {
    method: 'post',
    path: `${BASE}/observe`,
    tags: LIFECYCLE_TAGS,
    summary: 'Record that memories were used (reinforcement, not access)',
    description: 'Unknown ids are reported one by one in `results`; the rest are applied.',
    request: { params: SpaceParams, body: jsonBody(ObserveBody) },
    responses: { 200: jsonContent(ObserveResultSchema, 'Per-id results') },
  });
  app.openapi(route, async (c) => {
    const body = c.req.valid('json');
    return c.json(
      await engram.observeMemoryUsage({
        ...body,
        actor: actor(c, body.actor),
        space: c.get('space'),
      }),
      200,
    );
  });
}

function registerReview(app: HttpApp, { engram, json }: RouteDeps): void {
  const list = spaceRoute('read', {
    method: 'get',
    path: `${BASE}/review`,
    tags: LIFECYCLE_TAGS,
    summary: 'Memories in the review window, highest priority first',
    request: { params: SpaceParams, query: ReviewQuery },
    responses: { 200: jsonContent(ReviewListSchema, 'The review list') },
  });
  app.openapi(list, async (c) =>
    c.json(await engram.review({ ...c.req.valid('query'), space: c.get('space') }), 200),
  );
  const act = spaceRoute('write', json, {
    method: 'post',
    path: `${BASE}/review/{id}`,
    tags: LIFECYCLE_TAGS,
    summary: 'Reinforce, revise or let go of a memory under review',
    request: { params: IdParams, body: jsonBody(ReviewActionBody) },
    responses: { 200: jsonContent(MemorySchema, 'The memory after the action') },
  });
  app.openapi(act, async (c) => {
    const { action, ...rest } = c.req.valid('json');
    const memory = await engram.reviewAction(c.req.valid('param').id, action, {
      ...rest,
      title: rest.title ?? undefined,
      actor: actor(c, rest.actor),
      space: c.get('space'),
    });
    return c.json(memory, 200);
  });
}

function registerMaintain(app: HttpApp, { engram, json }: RouteDeps): void {
  const route = spaceRoute('admin', json, {
    method: 'post',
    path: `${BASE}/maintain`,
    tags: LIFECYCLE_TAGS,
    summary: 'Run (or with dry_run preview) the decay job for the space',
    description:
      'A real run backs up the whole store first and applies all changes in one transaction.',
    request: { params: SpaceParams, body: optionalJsonBody(MaintainBody) },
    responses: {
      200: jsonContent(MaintenanceReportSchema, 'What the run did'),
    },
  });
  app.openapi(route, async (c) =>
    c.json(await engram.maintain({ ...c.req.valid('json'), space: c.get('space') }), 200),
  );
}

/** Registers the auto-recall and lifecycle routes. */
export function registerLifecycleRoutes(app: HttpApp, deps: RouteDeps): void {
  registerAutoRecall(app, deps);
  registerSettings(app, deps);
  registerObserve(app, deps);
  registerReview(app, deps);
  registerMaintain(app, deps);
}
