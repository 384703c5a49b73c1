/**
 * The MCP tools of auto-recall and reinforcement (§6, §13): analyze_for_recall, auto_recall,
 * configure_auto_recall and observe_memory_usage. Arguments are checked here against the hard
 * caps; the service checks them again against the configured limits.
 */
import { z } from 'zod';

import { autoRecallSchemas } from '../../../autorecall/input.js';
import { configureInputSchema } from '../../../config/autorecall-settings.js';
import { observeInputSchema } from '../../../lifecycle/input.js';
import {
  AutoRecallResultSchema,
  AutoRecallSettingsSchema,
  RecallAnalysisSchema,
} from '../../responses/autorecall.js';
import { ObserveResultSchema } from '../../responses/lifecycle.js';
import { COMMON_DOCS, defineTool, described, READ_ONLY, type ToolGroup, WRITES } from '../tool.js';

const MESSAGE_DOCS: Record<string, string> = {
  ...COMMON_DOCS,
  message: "The user's latest message, as written.",
  history:
    'Recent earlier messages of the conversation, oldest first (strings or {role, text}); used to tell a topic shift or a sustained discussion from small talk.',
  conversation_id:
    'Your id for the conversation: engram keeps its recent topics and a cooldown between recalls per conversation. Without it there is no cooldown.',
};

const schemas = autoRecallSchemas(null);

/** analyze_for_recall, auto_recall, configure_auto_recall, observe_memory_usage. */
export const lifecycleTools: ToolGroup = () => [
  defineTool({
    name: 'analyze_for_recall',
    title: 'Analyse a message for recall',
    description:
      'Topics, entities (names, identifiers, paths, urls, dates) and key phrases of a conversation message, and whether it is worth looking in memory now, with the reason (question, memory_reference, topic_shift, sustained_discussion; or small_talk, no_content, same_topic). Reads nothing and changes nothing.',
    input: z.strictObject(described(schemas.analyze.shape, MESSAGE_DOCS)),
    output: RecallAnalysisSchema,
    annotations: READ_ONLY,
    run: (args, { engram }) => engram.analyzeForRecall(args),
  }),
  defineTool({
    name: 'auto_recall',
    title: 'Auto-recall for a message',
    description:
      'Call with each user message while auto-recall is enabled. Analyses it, searches memory when worth it (respecting the per-conversation cooldown) and keeps memories with relevance >= the threshold. By mode: silent returns nothing but reinforces the related memories so they stop fading; subtle returns them in `items` to weave into your answer ("Based on your earlier note..."); interactive returns only `count`, short `handles` and a `summary` to offer ("I found 3 related memories"); fetch one with get when the user wants it.',
    input: z.strictObject(
      described(schemas.process.shape, {
        ...MESSAGE_DOCS,
        mode: 'silent, subtle or interactive, for this call only (default: the configured mode).',
        context_tags:
          'Tags of the current context (e.g. the project); a reinforced memory whose tags and area share none of them counts as cross-domain use. Default: the message topics.',
        context_area: 'Area of the current context, for cross-domain detection.',
      }),
    ),
    output: AutoRecallResultSchema,
    annotations: WRITES,
    run: (args, { engram }) => engram.processMessage(args),
  }),
  defineTool({
    name: 'configure_auto_recall',
    title: 'Configure auto-recall',
    description:
      'Change auto-recall settings of a space (persisted): enabled (default false), mode (silent | subtle | interactive, default silent), relevance_threshold (0..1, default 0.7), max_results (default 3), min_interval_s (per-conversation cooldown, default 300). Returns the effective settings; call with no settings to read them.',
    input: z.strictObject(
      described(configureInputSchema.shape, {
        ...COMMON_DOCS,
        enabled: 'Turn auto-recall on or off.',
        mode: 'silent, subtle or interactive.',
        relevance_threshold: 'Keep memories with relevance at least this (0..1).',
        max_results: 'At most this many memories per message (1..50).',
        min_interval_s: 'Seconds between two recalls of one conversation (>= 0).',
      }),
    ),
    output: AutoRecallSettingsSchema,
    annotations: { ...WRITES, idempotentHint: true },
    // Reading the settings (no setting given) needs only read, as on HTTP.
    role: ({ space: _space, ...settings }) =>
      Object.values(settings).some((value) => value !== undefined) ? 'write' : 'read',
    run: (args, { engram }) => engram.configureAutoRecall(args),
  }),
  defineTool({
    name: 'observe_memory_usage',
    title: 'Report memory use',
    description:
      "Tell engram you actually used these memories (in an answer or a decision): updates last_used_at and use_count and raises their strength within a bound, more when the use is cross-domain (context tags/area differ from the memory's own), so memories that matter do not fade. Recorded as use events, not as search access. Unknown ids are reported one by one; the rest are applied.",
    input: z.strictObject(
      described(observeInputSchema.shape, {
        ...COMMON_DOCS,
        memory_ids: 'Ids of the memories you used.',
        context_tags: 'Tags of the context you used them in (e.g. the project or task).',
        context_area: 'Area of the context you used them in.',
        conversation_id: 'The conversation the use happened in.',
      }),
    ),
    output: ObserveResultSchema,
    annotations: WRITES,
    run: (args, { engram }) => engram.observeMemoryUsage(args),
  }),
];
