/** Dormant recall (§9.4) as the edges return it: review events, an inspection, feedback. */
import { z } from 'zod';

import { DORMANT_RECALL_MODES } from '../../config/schema.js';
import { DORMANT_FEEDBACK } from '../../store/dormant-store.js';
import { iso, MemorySchema } from './memories.js';

/** One review-log event: metadata only, never text. */
export const DormantEventSchema = z
  .object({
    id: z.string(),
    at: iso,
    algorithm: z.string(),
    model: z.string().nullable(),
    outcome: z.enum(['selected', 'none', 'failed']),
    error_type: z.string().nullable(),
    candidate_id: z.string().nullable(),
    candidate_version: z.number().int().nullable(),
    candidate_count: z.number().int(),
    above_floor: z.number().int(),
    checked: z.number().int(),
    passed: z.number().int(),
    raw_relevance: z.number().nullable(),
    relevance_score: z.number().nullable(),
    bonus: z.number().nullable(),
    dormant_days: z.number().nullable(),
    overlap_terms: z.number().int().nullable(),
    query_terms: z.number().int().nullable(),
    retrieved_at: iso.nullable(),
    shown_at: iso.nullable(),
    feedback: z.enum(DORMANT_FEEDBACK).nullable(),
    feedback_at: iso.nullable(),
    duration_ms: z.number(),
  })
  .meta({ id: 'DormantEvent' });

/** The newest dormant-recall evaluations of a space. */
export const DormantReviewSchema = z
  .object({
    space: z.string(),
    mode: z.enum(DORMANT_RECALL_MODES),
    events: z.array(DormantEventSchema),
  })
  .meta({ id: 'DormantReview' });

/** An event's memory as it is now, with the evidence for its selection. */
export const DormantInspectionSchema = z
  .object({
    event: DormantEventSchema,
    memory: MemorySchema.nullable(),
    eligible: z.boolean(),
    reason: z.string().nullable(),
    changed_since_selection: z.boolean(),
    evidence: z.object({ literal_overlap: z.boolean().nullable(), summary: z.string() }),
  })
  .meta({ id: 'DormantInspection' });

/** The recorded feedback on an event. */
export const DormantFeedbackResultSchema = z
  .object({ event: DormantEventSchema, changed: z.boolean(), cooldown_until: iso.nullable() })
  .meta({ id: 'DormantFeedbackResult' });
