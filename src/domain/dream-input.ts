/**
 * Input schemas of consolidation's requests (§10), apart from the domain constants in dreams.ts so
 * that the CLI reads the stage list without loading zod.
 */
import { z } from 'zod';

import { DREAM_STAGES } from './dreams.js';

/** Options of a dream preview, run or calibration. */
export const dreamRequestSchema = z.strictObject({
  space: z.string().optional(),
  /** The stages to look at (default: all, in run order). */
  stages: z
    .array(z.enum(DREAM_STAGES))
    .min(1, 'must name at least one stage')
    .refine((s) => new Set(s).size === s.length, 'must not repeat a stage')
    .optional(),
  /** Log proposals without changing anything. */
  dry_run: z.boolean().optional(),
});
/** Options of a dream preview, run or calibration. */
export type DreamRequestInput = z.input<typeof dreamRequestSchema>;

/** Options of a diary or run listing. */
export const dreamListSchema = z.strictObject({
  space: z.string().optional(),
  limit: z.number().int().min(1).max(1_000).optional(),
  cursor: z.string().min(1).optional(),
});
/** Options of a diary or run listing. */
export type DreamListInput = z.input<typeof dreamListSchema>;
