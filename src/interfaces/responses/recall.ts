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
  channels: ChannelsSchema,
  status: z.enum(STATUSES),
  importance: z.number(),
  updated_at: iso,
});

/** The recall envelope: hits, degraded channels with reasons, the decision stage and timings. */
export const RecallResponseSchema = z
  .object({
    hits: z.array(HitSchema),
    degraded: z.array(z.object({ channel: z.enum(CHANNELS), reason: z.string() })),
    decision: z
      .object({ state: z.enum(['applied', 'fell_back', 'skipped', 'off']) })
      .meta({ description: 'What the decision stage did; `off` while no decision stage runs.' }),
    timings_ms: z.record(z.string(), z.number()),
  })
  .meta({ id: 'RecallResponse' });
