/** Input schemas of the dormant-recall operations (review, inspect, feedback, calibrate). */
import { z } from 'zod';

import { spaceSchema } from '../domain/input.js';
import { DORMANT_FEEDBACK } from '../store/dormant-store.js';

/** Most events one review returns. */
export const MAX_REVIEW_LIMIT = 1_000;
/** Most queries one calibration runs. */
export const MAX_CALIBRATE_QUERIES = 200;

const eventId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[0-9A-Za-z]+$/, 'must be an event id');

/** `dormant review`. */
export const reviewSchema = z.strictObject({
  space: spaceSchema.optional(),
  limit: z.number().int().min(1).max(MAX_REVIEW_LIMIT).default(20),
});

/** `dormant inspect`. */
export const inspectSchema = z.strictObject({
  space: spaceSchema.optional(),
  event_id: eventId,
});

/** `dormant feedback`. */
export const feedbackSchema = z.strictObject({
  space: spaceSchema.optional(),
  event_id: eventId,
  category: z.enum(DORMANT_FEEDBACK),
});

/** `dormant calibrate`: given queries, or a sample of the store's own memories as queries. */
export const calibrateSchema = z.strictObject({
  space: spaceSchema.optional(),
  queries: z.array(z.string().min(1).max(4_000)).max(MAX_CALIBRATE_QUERIES).optional(),
  sample: z.number().int().min(1).max(MAX_CALIBRATE_QUERIES).default(20),
});

/** Input of review. */
export type DormantReviewInput = z.input<typeof reviewSchema>;
/** Input of inspect. */
export type DormantInspectInput = z.input<typeof inspectSchema>;
/** Input of feedback. */
export type DormantFeedbackInput = z.input<typeof feedbackSchema>;
/** Input of calibrate. */
export type DormantCalibrateInput = z.input<typeof calibrateSchema>;
