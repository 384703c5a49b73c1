/**
 * Input schemas of the lifecycle operations (maintain, review, observe). Every interface parses
 * through these, so a bad field gets one clear error naming it, whatever the edge.
 */
import { z } from 'zod';

import { areaSchema, spaceSchema } from '../domain/input.js';

/** `maintain` options. */
export const maintainInputSchema = z.strictObject({
  space: spaceSchema.nullable().optional(),
  dry_run: z.boolean().default(false),
  list_limit: z
    .number()
    .int()
    .min(0, 'must be at least 0')
    .max(100_000, 'must be at most 100000')
    .default(1000),
});

/** `review` options. */
export const reviewInputSchema = z.strictObject({
  space: spaceSchema.optional(),
  limit: z.number().int().min(1, 'must be at least 1').max(1000, 'must be at most 1000').optional(),
});

const contextTag = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters');

/** `observe_memory_usage` input. Ids are checked one by one: an unknown id fails alone. */
export const observeInputSchema = z.strictObject({
  space: spaceSchema.optional(),
  memory_ids: z
    .array(z.string().max(200, 'must be at most 200 characters'))
    .min(1, 'must name at least one memory')
    .max(1000, 'must name at most 1000 memories'),
  context_tags: z.array(contextTag).max(32, 'must have at most 32 tags').default([]),
  context_area: areaSchema.optional(),
  conversation_id: z.string().min(1).max(200, 'must be at most 200 characters').optional(),
  actor: z.string().max(200, 'must be at most 200 characters').optional(),
});

/** Raw `maintain` options. */
export type MaintainInput = z.input<typeof maintainInputSchema>;
/** Raw `review` options. */
export type ReviewInput = z.input<typeof reviewInputSchema>;
/** Raw `observe_memory_usage` input. */
export type ObserveInput = z.input<typeof observeInputSchema>;
