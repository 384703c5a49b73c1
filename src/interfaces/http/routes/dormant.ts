/**
 * Dormant recall over HTTP (§9.4, §13): the review log, inspecting one event and feedback on it.
 * Each is an explicit request; nothing dormant ever appears in recall responses.
 */
import { createRoute, z } from '@hono/zod-openapi';

import { spaceSchema } from '../../../domain/input.js';
import { MAX_REVIEW_LIMIT } from '../../../dormant/input.js';
import { DORMANT_FEEDBACK } from '../../../store/dormant-store.js';
import {
  DormantFeedbackResultSchema,
  DormantInspectionSchema,
  DormantReviewSchema,
} from '../../responses/dormant.js';
import { SpaceParams } from '../schemas.js';
import { access, ERRORS, type HttpApp, jsonBody, jsonContent, type RouteDeps } from './common.js';

const TAGS = ['dormant'];
const BASE = '/v1/spaces/{space}/dormant/events';

const EventParams = z.object({
  space: spaceSchema,
  event_id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[0-9A-Za-z]+$/, 'must be an event id'),
});
const ReviewQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_REVIEW_LIMIT).optional(),
});
const FeedbackBody = z.strictObject({
  category: z.enum(DORMANT_FEEDBACK, {
    message: `must be one of ${DORMANT_FEEDBACK.join(', ')}`,
  }),
});
function registerReview(app: HttpApp, { engram }: RouteDeps): void {
  const route = createRoute({
    method: 'get',
    path: BASE,
    tags: TAGS,
    summary: 'Newest dormant-recall evaluations (metadata only)',
    middleware: [access('read')] as const,
    request: { params: SpaceParams, query: ReviewQuery },
    responses: { 200: jsonContent(DormantReviewSchema, 'The review log'), ...ERRORS },
  });
  app.openapi(route, async (c) =>
    c.json(
      await engram.dormantReview({ space: c.get('space'), limit: c.req.valid('query').limit }),
      200,
    ),
  );
}

function registerInspect(app: HttpApp, { engram }: RouteDeps): void {
  const route = createRoute({
    method: 'post',
    path: `${BASE}/{event_id}/inspect`,
    tags: TAGS,
    summary: "An event's memory as it is now, with its evidence; marks it shown",
    middleware: [access('write')] as const,
    request: { params: EventParams },
    responses: { 200: jsonContent(DormantInspectionSchema, 'The inspection'), ...ERRORS },
  });
  app.openapi(route, async (c) =>
    c.json(
      await engram.dormantInspect({
        space: c.get('space'),
        event_id: c.req.valid('param').event_id,
      }),
      200,
    ),
  );
}

function registerFeedback(app: HttpApp, { engram, json }: RouteDeps): void {
  const route = createRoute({
    method: 'post',
    path: `${BASE}/{event_id}/feedback`,
    tags: TAGS,
    summary: 'useful | irrelevant | dismissed (one category per event)',
    middleware: [access('write'), json] as const,
    request: { params: EventParams, body: jsonBody(FeedbackBody) },
    responses: {
      200: jsonContent(DormantFeedbackResultSchema, 'The recorded feedback'),
      ...ERRORS,
    },
  });
  app.openapi(route, async (c) =>
    c.json(
      await engram.dormantFeedback({
        space: c.get('space'),
        event_id: c.req.valid('param').event_id,
        category: c.req.valid('json').category,
      }),
      200,
    ),
  );
}

/** Registers the dormant-recall routes. */
export function registerDormantRoutes(app: HttpApp, deps: RouteDeps): void {
  registerReview(app, deps);
  registerInspect(app, deps);
  registerFeedback(app, deps);
}
