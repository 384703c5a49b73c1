/** Auto-recall (§6) as the edges return it: settings, a message's analysis, results and stats. */
import { z } from 'zod';

import { AUTO_RECALL_MODES } from '../../config/schema.js';
import { CHANNELS, KINDS, STATUSES } from '../../domain/types.js';
import { iso } from './memories.js';

const TRIGGER_REASONS = [
  'memory_reference',
  'question',
  'topic_shift',
  'sustained_discussion',
  'same_topic',
  'small_talk',
  'no_content',
] as const;

/** The effective auto-recall settings of a space. */
export const AutoRecallSettingsSchema = z
  .object({
    enabled: z.boolean(),
    mode: z.enum(AUTO_RECALL_MODES),
    relevance_threshold: z.number(),
    max_results: z.number().int(),
    min_interval_s: z.number(),
  })
  .meta({ id: 'AutoRecallSettings' });

/** Topics, entities, key phrases of a message, and whether to look in memory now. */
export const RecallAnalysisSchema = z
  .object({
    topics: z.array(z.string()),
    entities: z.array(z.object({ text: z.string(), type: z.string() })),
    key_phrases: z.array(z.string()),
    is_question: z.boolean(),
    trigger: z.object({
      should_recall: z.boolean(),
      reason: z.enum(TRIGGER_REASONS),
      detail: z.string(),
    }),
    search_terms: z.array(z.string()),
    topic_stems: z.array(z.string()),
  })
  .meta({ id: 'RecallAnalysis' });

const ItemSchema = z.object({
  id: z.string(),
  kind: z.enum(KINDS),
  area: z.string(),
  title: z.string().nullable(),
  body: z.string(),
  relevance: z.number(),
  status: z.enum(STATUSES),
  importance: z.number(),
  updated_at: iso,
});

/** The auto-recall result of one message: by mode, items (subtle) or count and handles (interactive). */
export const AutoRecallResultSchema = z
  .object({
    enabled: z.boolean(),
    mode: z.enum(AUTO_RECALL_MODES),
    triggered: z.boolean(),
    reason: z.enum([...TRIGGER_REASONS, 'disabled', 'cooldown']),
    analysis: RecallAnalysisSchema,
    cooldown_remaining_s: z.number().optional(),
    considered: z.number().int(),
    items: z.array(ItemSchema),
    count: z.number().int(),
    handles: z.array(z.object({ id: z.string(), label: z.string(), relevance: z.number() })),
    summary: z.string().nullable(),
    reinforced: z.number().int(),
    degraded: z.array(z.object({ channel: z.enum(CHANNELS), reason: z.string() })),
    timings_ms: z.record(z.string(), z.number()),
  })
  .meta({ id: 'AutoRecallResult' });

/** Reinforcement metrics of a space and its settings. */
export const AutoRecallStatsSchema = z
  .object({
    space: z.string(),
    settings: AutoRecallSettingsSchema,
    items_kept_by_reinforcement: z.number().int(),
    reinforcement_events: z.number().int(),
    reinforcement_by_source: z.record(z.string(), z.number().int()),
    cross_domain_detections: z.number().int(),
    important_items: z.number().int(),
    mean_strength_important: z.number().nullable(),
  })
  .meta({ id: 'AutoRecallStats' });
