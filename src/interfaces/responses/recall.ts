/** The recall envelope (§3.5), identical on every edge: library, CLI --json, MCP and HTTP. */
import { z } from 'zod';

import { CHANNELS, KINDS, perChannel, STATUSES } from '../../domain/types.js';
import { iso } from './memories.js';

const ChannelsSchema = z
  .object({
    ...perChannel(() => z.number().int().optional()),
    graph: z
      .number()
      .optional()
      .meta({ description: 'Graph hops: 1 names an entity of the query, 2 is one edge further.' }),
    graph_path: z
      .array(z.string())
      .optional()
      .meta({ description: "Entity names from the query's entity to the one the memory names." }),
  })
  .meta({ description: 'Rank (or hops) of the hit in each channel that found it.' });

const HitSchema = z.object({
  id: z.string(),
  kind: z.enum(KINDS),
  area: z.string(),
  title: z.string().nullable(),
  body: z.string(),
  score: z.number(),
  relevance: z.number().optional().meta({
    description: 'Absolute relevance in 0..1, on every hit of an applied decision stage.',
  }),
  channels: ChannelsSchema,
  status: z.enum(STATUSES),
  importance: z.number(),
  updated_at: iso,
  source: z
    .discriminatedUnion('type', [
      z.object({ type: z.literal('graph') }),
      z.object({
        type: z.literal('docs'),
        document: z.string(),
        section: z.string(),
        pointer: z.string(),
      }),
      z.object({
        type: z.literal('session'),
        session_id: z.string(),
        turn_index: z.number().int(),
        role: z.string(),
        agent: z.string().nullable(),
      }),
    ])
    .optional()
    .meta({
      description:
        'Set on a hit a decision source added (§5.3): a memory item the graph source found, a section of engram documentation (not a memory), or a past session turn (not a memory).',
    }),
});

/** The recall envelope: hits, degraded channels with reasons, the decision stage and timings. */
export const RecallResponseSchema = z
  .object({
    hits: z.array(HitSchema),
    degraded: z.array(z.object({ channel: z.enum(CHANNELS), reason: z.string() })),
    decision: z
      .object({
        state: z.enum(['applied', 'fell_back', 'skipped', 'off']),
        reason: z.string().optional().meta({
          description:
            'Why it fell back: adapter_unregistered, unsupported_capabilities, adapter_error, deadline_expired, missing_credentials.',
        }),
        adapter: z.string().optional(),
        low_confidence: z.boolean().optional().meta({
          description:
            'The best relevance is below recall.decision.min_relevance; nothing was removed.',
        }),
        rerank: z
          .object({ state: z.literal('skipped'), reason: z.string() })
          .optional()
          .meta({
            description: 'Legacy reranking was asked for while decision recall was selected.',
          }),
      })
      .meta({ description: 'What the decision stage (§5.1) did; `off` when it did not run.' }),
    timings_ms: z.record(z.string(), z.number()),
  })
  .meta({ id: 'RecallResponse' });
