/** Status of a space and health of the service, as the edges return them. */
import { z } from 'zod';

import { JobsSummarySchema } from './jobs.js';

const VectorIndexSchema = z.object({
  model: z.string(),
  state: z.enum(['ready', 'building', 'catching_up', 'broken']),
  vectors: z.number().int(),
  pending: z.number().int(),
  covered_seq: z.number().int(),
  loaded_from_file: z.boolean(),
  file: z.string().nullable(),
  last_error: z.string().nullable(),
});

const KeywordIndexSchema = z.object({
  state: z.enum(['not_started', 'building', 'catching_up', 'ready', 'failed']),
  rows: z.number().int(),
  pending: z.number().int(),
  covered_seq: z.number().int(),
  last_error: z.string().nullable(),
});

const StoreStatusSchema = z.object({
  backend: z.string(),
  location: z
    .string()
    .optional()
    .meta({ description: 'Over HTTP only for an admin token of every space.' }),
  schema_version: z.number().int(),
  items_total: z.number().int(),
  by_status: z.record(z.string(), z.number().int()),
  by_kind: z.record(z.string(), z.number().int()),
  vectors: z.object({
    ready: z.number().int(),
    pending: z.number().int(),
    empty: z.number().int(),
  }),
  relations: z.number().int(),
  size_bytes: z
    .number()
    .nullable()
    .optional()
    .meta({ description: 'Over HTTP only for an admin token of every space.' }),
  vector_index: z
    .array(VectorIndexSchema)
    .optional()
    .meta({ description: 'Approximate vector indexes this process has open (admin only).' }),
  keyword_index: KeywordIndexSchema.optional().meta({
    description: "This process's in-memory keyword index (SQLite; admin only).",
  }),
});

const EmbedderStatusSchema = z.union([
  z.object({
    model_id: z.string(),
    dimension: z.number().int(),
    available: z.boolean(),
    loaded: z.boolean(),
    reason: z.string().optional(),
    queue: z
      .unknown()
      .optional()
      .meta({ description: 'The embedding queue (admin only over HTTP).' }),
  }),
  z.object({ available: z.literal(false), reason: z.string() }),
]);

/** Store, embedder and model state of a space. */
export const StatusSchema = z
  .object({
    space: z.string(),
    store: StoreStatusSchema,
    embedder: EmbedderStatusSchema,
    published_model: z
      .object({ id: z.string(), dimension: z.number().int(), published_at: z.number() })
      .nullable(),
    jobs: JobsSummarySchema.optional().meta({
      description:
        'Background jobs by state and the job worker of the answering process (MCP `status`; over HTTP see /v1/jobs).',
    }),
  })
  .meta({ id: 'Status' });

const componentStatus = z.enum(['ok', 'loading', 'degraded', 'unavailable', 'off', 'down']);

/** Health of the service and its components (HTTP `/v1/health`). */
export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded', 'down']),
    version: z.string(),
    uptime_s: z.number(),
    auth: z.boolean(),
    components: z.object({
      store: z.object({ status: componentStatus }).catchall(z.unknown()),
      embedder: z.object({ status: componentStatus }).catchall(z.unknown()),
      graph: z
        .object({
          status: componentStatus,
          enabled: z.boolean().meta({ description: 'graph.enabled in the configuration' }),
          supported: z.boolean().meta({ description: 'whether the store keeps a graph' }),
        })
        .meta({
          description:
            '`ok` when on and supported, `off` when configured off, `unavailable` when on but the store keeps none.',
        }),
      worker: z.object({ status: componentStatus }).catchall(z.unknown()),
    }),
  })
  .meta({ id: 'Health' });
