/**
 * The MCP tools of dormant recall (§9.4, §13): dormant_review, dormant_inspect, dormant_feedback.
 * Each is an explicit call; nothing dormant ever appears in recall results.
 */
import { z } from 'zod';

import { feedbackSchema, inspectSchema, reviewSchema } from '../../../dormant/input.js';
import {
  DormantFeedbackResultSchema,
  DormantInspectionSchema,
  DormantReviewSchema,
} from '../../responses/dormant.js';
import { COMMON_DOCS, defineTool, described, READ_ONLY, type ToolGroup, WRITES } from '../tool.js';

const DOCS: Record<string, string> = {
  ...COMMON_DOCS,
  limit: 'How many of the newest events to return (default 20).',
  event_id: 'Dormant event id, as listed by dormant_review.',
  category:
    'useful (it helped: restarts its dormancy), irrelevant (not related) or dismissed (related but not wanted now). One category per event.',
};

/** dormant_review, dormant_inspect, dormant_feedback. */
export const dormantTools: ToolGroup = () => [
  defineTool({
    name: 'dormant_review',
    title: 'Review dormant-recall events',
    description:
      'The shadow experiment that looks, after each search, for one relevant memory unused for a long time that ordinary recall left out. Lists its newest evaluations as metadata only: event id and time, candidate id (or null), candidate count, raw cosine, relevance-check score, bounded bonus, dormant days, word-overlap counts, when shown, feedback, algorithm. Changes nothing about memories.',
    input: z.strictObject(described(reviewSchema.shape, DOCS)),
    output: DormantReviewSchema,
    annotations: READ_ONLY,
    run: (args, { engram }) => engram.dormantReview(args),
  }),
  defineTool({
    name: 'dormant_inspect',
    title: 'Inspect a dormant-recall event',
    description:
      "Shows an event's memory as it is now (when it is still active), with the evidence for its selection (scores, whether words overlap). It says nothing about whether what the memory describes still holds. Marks the event shown and pauses the memory for cooldown_days.",
    input: z.strictObject(described(inspectSchema.shape, DOCS)),
    output: DormantInspectionSchema,
    annotations: { ...WRITES, idempotentHint: false },
    run: (args, { engram }) => engram.dormantInspect(args),
  }),
  defineTool({
    name: 'dormant_feedback',
    title: 'Give feedback on a dormant-recall event',
    description:
      'Records useful, irrelevant or dismissed for one event. The same category again changes nothing; a different one is refused (CONFLICT). Any feedback pauses the memory for feedback_cooldown_days; useful also restarts its dormancy. It never forgets or suppresses the memory.',
    input: z.strictObject(described(feedbackSchema.shape, DOCS)),
    output: DormantFeedbackResultSchema,
    annotations: { ...WRITES, idempotentHint: true },
    run: (args, { engram }) => engram.dormantFeedback(args),
  }),
];
