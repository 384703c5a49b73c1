/**
 * Input schemas of auto-recall: the message (not empty, within `auto_recall.max_message_chars`),
 * optional recent history, a conversation id for the cooldown, and the reinforcement context.
 */
import { z } from 'zod';

import { AUTO_RECALL_MODES, type Config } from '../config/schema.js';
import { areaSchema, spaceSchema } from '../domain/input.js';

function textSchema(max: number) {
  return z
    .string({ message: 'must be text' })
    .refine((s) => s.isWellFormed(), 'must be valid UTF-8 text')
    .refine((s) => s.trim() !== '', 'must not be empty')
    .refine((s) => s.length <= max, `must be at most ${max} characters`);
}

/** The hard cap of `auto_recall.max_message_chars`, for edges that validate before the service. */
export const MESSAGE_CHARS_CAP = 1_000_000;

/** The auto-recall input schemas for one configuration (or for the hard cap). */
export function autoRecallSchemas(config: Config | null) {
  const max = config?.auto_recall.max_message_chars ?? MESSAGE_CHARS_CAP;
  const history = z
    .array(
      z.union([
        z.string().max(max, `must be at most ${max} characters`),
        z.strictObject({
          role: z.string().max(50).optional(),
          text: z.string().max(max, `must be at most ${max} characters`),
        }),
      ]),
    )
    .max(200, 'must hold at most 200 messages');
  const common = {
    space: spaceSchema.optional(),
    message: textSchema(max),
    history: history.optional(),
    conversation_id: z
      .string()
      .min(1, 'must not be empty')
      .max(200, 'must be at most 200 characters')
      .optional(),
  };
  return {
    analyze: z.strictObject(common),
    process: z.strictObject({
      ...common,
      mode: z
        .enum(AUTO_RECALL_MODES, { message: `must be one of ${AUTO_RECALL_MODES.join(', ')}` })
        .optional(),
      context_tags: z
        .array(z.string().trim().min(1, 'must not be empty').max(64))
        .max(32, 'must have at most 32 tags')
        .optional(),
      context_area: areaSchema.optional(),
    }),
  };
}

/** The parsed auto-recall schemas. */
export type AutoRecallSchemas = ReturnType<typeof autoRecallSchemas>;
/** Raw `analyze_for_recall` input. */
export type AnalyzeInput = z.input<AutoRecallSchemas['analyze']>;
/** Raw `process_message` input. */
export type ProcessMessageInput = z.input<AutoRecallSchemas['process']>;
